package io.jato.jmh.charts;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Path;

/**
 * Typed access to the fields of one JSON object of an input file, for the chart tools' readers.
 * Every failure is a {@link ResultsInputException} that names the file, where in it the object is
 * (an entry, a key path) and the field, so that a bad file is refused with a message the user can
 * act on. A required field that is missing adds a hint of what the file seems not to be.
 */
final class JsonFields {
    private final Path file;
    private final String where;
    private final String notA;
    private final JsonObject object;

    /**
     * @param where where the object is, as a message prefix ("entry 3: "), or ""
     * @param notA the hint for a missing required field ("not a JMH result?")
     */
    JsonFields(Path file, String where, String notA, JsonObject object) {
        this.file = file;
        this.where = where;
        this.notA = notA;
        this.object = object;
    }

    /** The object itself. */
    JsonObject object() {
        return object;
    }

    /** The object's field {@code name} as it is; null where there is none. */
    JsonElement get(String name) {
        return object.get(name);
    }

    /** Whether the object has {@code name} with a value other than null. */
    boolean has(String name) {
        JsonElement value = object.get(name);
        return value != null && !value.isJsonNull();
    }

    /** A problem with this object, as a message naming the file and the place. */
    ResultsInputException problem(String what) {
        return new ResultsInputException(file, where + what);
    }

    /** The object's field {@code name}, which must be an object. */
    JsonObject object(String name) throws ResultsInputException {
        return nested(name, object.get(name));
    }

    /** {@code value}, found under {@code name}, which must be an object. */
    JsonObject nested(String name, JsonElement value) throws ResultsInputException {
        if (value == null || !value.isJsonObject()) {
            throw value == null ? missing(name) : problem("'" + name + "' is not an object");
        }
        return value.getAsJsonObject();
    }

    /** {@code value}, found under {@code name}, which must be a string (or another single value). */
    String string(String name, JsonElement value) throws ResultsInputException {
        if (value == null || !value.isJsonPrimitive()) {
            throw value == null ? missing(name) : problem("'" + name + "' is not a string");
        }
        return value.getAsString();
    }

    /** The single value {@code in.name} as text; "" where it is missing, null or not a single value. */
    static String optionalString(JsonObject in, String name) {
        JsonElement value = in.get(name);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : "";
    }

    /**
     * {@code value}, found under {@code name}, which must be a number; JMH writes NaN and the
     * infinities as strings ("NaN"), which parse here too.
     */
    double number(String name, JsonElement value) throws ResultsInputException {
        if (value == null || !value.isJsonPrimitive()) {
            throw value == null ? missing(name) : problem("'" + name + "' is not a number");
        }
        try {
            return value.getAsDouble();
        } catch (NumberFormatException e) {
            throw problem("'" + name + "' is not a number: " + value);
        }
    }

    /** {@code value}, found under {@code name}, as {@link #number}; NaN where it is missing or null. */
    double optionalNumber(String name, JsonElement value) throws ResultsInputException {
        return value == null || value.isJsonNull() ? Double.NaN : number(name, value);
    }

    /** {@code value}, found under {@code name}, which must be an array. */
    JsonArray array(String name, JsonElement value) throws ResultsInputException {
        if (value == null || !value.isJsonArray()) {
            throw value == null ? missing(name) : problem("'" + name + "' is not an array");
        }
        return value.getAsJsonArray();
    }

    private ResultsInputException missing(String name) {
        return problem("no '" + name + "' (" + notA + ")");
    }
}
