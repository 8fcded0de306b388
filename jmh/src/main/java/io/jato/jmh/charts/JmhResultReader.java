package io.jato.jmh.charts;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonIOException;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonSyntaxException;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.MalformedJsonException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads the JSON that JMH writes with {@code -rf json}: a top-level array with one object per
 * benchmark run. Only what the scaling charts use is read, and all of it is checked: a file that
 * is missing, is not JSON, is not an array, or has an entry without {@code benchmark},
 * {@code mode}, {@code threads} or a numeric {@code primaryMetric.score} is refused with a
 * {@link ResultsInputException} naming the file (and the entry). Fields JMH adds in other versions
 * are ignored, so any JMH 1.x file that has these fields reads.
 */
final class JmhResultReader {
    private JmhResultReader() {
    }

    /**
     * The entries of one result file, in file order; never empty.
     *
     * @throws ResultsInputException the file is missing, unreadable or not a usable JMH result array
     * @throws IOException reading failed for another reason (the disk, not the input)
     */
    static List<JmhResult> read(Path file) throws ResultsInputException, IOException {
        if (Files.isDirectory(file)) {
            throw new ResultsInputException(file, "is a directory, not a JMH JSON result file");
        }
        JsonElement root;
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            JsonReader json = new JsonReader(in);
            // Strict: JMH writes plain JSON (NaN as the string "NaN"), so anything lenient parsing
            // would let through (comments, unquoted words) means the file is something else.
            json.setStrictness(Strictness.STRICT);
            root = JsonParser.parseReader(json);
            if (json.peek() != JsonToken.END_DOCUMENT) {
                throw new ResultsInputException(file, "not a JMH JSON result file: text after the JSON value");
            }
        } catch (NoSuchFileException e) {
            throw new ResultsInputException(file, "no such file", e);
        } catch (AccessDeniedException e) {
            throw new ResultsInputException(file, "cannot be read (access denied)", e);
        } catch (MalformedJsonException | JsonSyntaxException e) {
            throw new ResultsInputException(file, "not a JMH JSON result file: not valid JSON ("
                    + e.getMessage() + ")", e);
        } catch (JsonIOException e) {
            // Gson wraps the reader's failures: bytes that are not UTF-8 text are the input's fault
            // (a PNG given by mistake), anything else is the disk's and stays an IOException.
            if (e.getCause() instanceof CharacterCodingException) {
                throw new ResultsInputException(file, "not a JMH JSON result file: not UTF-8 text", e);
            }
            throw new IOException(file + ": " + e.getMessage(), e);
        }
        if (!root.isJsonArray()) {
            throw new ResultsInputException(file, "not a JMH JSON result file: expected a JSON array of"
                    + " benchmark results (as written by -rf json), found " + kind(root));
        }
        JsonArray entries = root.getAsJsonArray();
        if (entries.isEmpty()) {
            throw new ResultsInputException(file, "no results: the JSON array is empty");
        }
        List<JmhResult> results = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            results.add(entry(file, i, entries.get(i)));
        }
        return results;
    }

    private static JmhResult entry(Path file, int index, JsonElement element) throws ResultsInputException {
        Fields f = new Fields(file, index, element);
        // The identifying fields first: an object from some other tool's JSON fails on the first.
        String benchmark = f.string("benchmark", f.entry.get("benchmark"));
        String mode = f.string("mode", f.entry.get("mode"));
        double threadCount = f.number("threads", f.entry.get("threads"));
        if (!(threadCount >= 1 && threadCount <= Integer.MAX_VALUE && threadCount == Math.rint(threadCount))) {
            throw f.problem("'threads' is " + f.entry.get("threads") + ", not a thread count");
        }
        JsonObject primary = f.object("primaryMetric");
        SortedMap<String, Metric> secondary = new TreeMap<>();
        if (f.entry.has("secondaryMetrics")) {
            for (Map.Entry<String, JsonElement> m : f.object("secondaryMetrics").entrySet()) {
                JsonObject metric = f.nested("secondaryMetrics." + m.getKey(), m.getValue());
                secondary.put(m.getKey(), new Metric(
                        f.number("secondaryMetrics." + m.getKey() + ".score", metric.get("score")),
                        f.optionalString(metric, "scoreUnit")));
            }
        }
        SortedMap<String, String> params = new TreeMap<>();
        if (f.entry.has("params")) {
            for (Map.Entry<String, JsonElement> p : f.object("params").entrySet()) {
                params.put(p.getKey(), f.string("params." + p.getKey(), p.getValue()));
            }
        }
        List<String> jvmArgs = new ArrayList<>();
        if (f.entry.has("jvmArgs") && f.entry.get("jvmArgs").isJsonArray()) {
            for (JsonElement arg : f.entry.getAsJsonArray("jvmArgs")) {
                jvmArgs.add(arg.isJsonPrimitive() ? arg.getAsString() : arg.toString());
            }
        }
        double scoreError = primary.has("scoreError")
                ? f.number("primaryMetric.scoreError", primary.get("scoreError"))
                : Double.NaN;
        return new JmhResult(file, index, benchmark, mode, (int) threadCount,
                params,
                f.number("primaryMetric.score", primary.get("score")),
                scoreError,
                f.optionalString(primary, "scoreUnit"),
                secondary,
                new Provenance(
                        f.optionalString(f.entry, "jmhVersion"),
                        f.optionalString(f.entry, "vmName"),
                        f.optionalString(f.entry, "vmVersion"),
                        jvmArgs));
    }

    private static String kind(JsonElement e) {
        if (e.isJsonObject()) {
            return "an object";
        }
        if (e.isJsonNull()) {
            return "nothing (an empty file, or null)";
        }
        return e.isJsonPrimitive() ? "a single value (" + e + ")" : "something else";
    }

    /** Typed access to one entry's fields, each failure naming the file, the entry and the field. */
    private static final class Fields {
        private final Path file;
        private final int index;
        private final JsonObject entry;

        Fields(Path file, int index, JsonElement element) throws ResultsInputException {
            this.file = file;
            this.index = index;
            if (!element.isJsonObject()) {
                throw problem("not a JMH benchmark result (expected an object, found " + kind(element) + ")");
            }
            this.entry = element.getAsJsonObject();
        }

        ResultsInputException problem(String what) {
            return new ResultsInputException(file, "entry " + index + ": " + what);
        }

        JsonObject object(String name) throws ResultsInputException {
            return nested(name, entry.get(name));
        }

        JsonObject nested(String name, JsonElement value) throws ResultsInputException {
            if (value == null || !value.isJsonObject()) {
                throw problem(value == null ? "no '" + name + "' (not a JMH result?)"
                        : "'" + name + "' is not an object");
            }
            return value.getAsJsonObject();
        }

        String string(String name, JsonElement value) throws ResultsInputException {
            if (value == null || !value.isJsonPrimitive()) {
                throw problem(value == null ? "no '" + name + "' (not a JMH result?)"
                        : "'" + name + "' is not a string");
            }
            return value.getAsString();
        }

        String optionalString(JsonObject in, String name) {
            JsonElement value = in.get(name);
            return value != null && value.isJsonPrimitive() ? value.getAsString() : "";
        }

        /** A number; JMH writes NaN and the infinities as strings ("NaN"), which parse here too. */
        double number(String name, JsonElement value) throws ResultsInputException {
            if (value == null || !value.isJsonPrimitive()) {
                throw problem(value == null ? "no '" + name + "' (not a JMH result?)"
                        : "'" + name + "' is not a number");
            }
            try {
                return value.getAsDouble();
            } catch (NumberFormatException e) {
                throw problem("'" + name + "' is not a number: " + value);
            }
        }
    }
}
