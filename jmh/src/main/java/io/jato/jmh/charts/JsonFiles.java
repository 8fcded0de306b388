package io.jato.jmh.charts;

import com.google.gson.JsonElement;
import com.google.gson.JsonIOException;
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

/**
 * Reads one whole JSON file with Gson, strictly, for the chart tools' readers: a file that is
 * missing, a directory, unreadable, not UTF-8 or not exactly one JSON value is refused with a
 * {@link ResultsInputException} that names the file and says what it was expected to be. Only a
 * failure of the disk itself stays an {@link IOException}.
 */
final class JsonFiles {
    private JsonFiles() {
    }

    /**
     * The file's one JSON value.
     *
     * @param expected what the file should be, for messages: "a JMH JSON result file"
     * @throws ResultsInputException the file is missing, unreadable or not one JSON value
     * @throws IOException reading failed for another reason (the disk, not the input)
     */
    static JsonElement parse(Path file, String expected) throws ResultsInputException, IOException {
        if (Files.isDirectory(file)) {
            throw new ResultsInputException(file, "is a directory, not " + expected);
        }
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            JsonReader json = new JsonReader(in);
            // Strict: JMH and the runner write plain JSON, so anything lenient parsing would let
            // through (comments, unquoted words) means the file is something else.
            json.setStrictness(Strictness.STRICT);
            JsonElement root = JsonParser.parseReader(json);
            if (json.peek() != JsonToken.END_DOCUMENT) {
                throw new ResultsInputException(file, "not " + expected + ": text after the JSON value");
            }
            return root;
        } catch (NoSuchFileException e) {
            throw new ResultsInputException(file, "no such file", e);
        } catch (AccessDeniedException e) {
            throw new ResultsInputException(file, "cannot be read (access denied)", e);
        } catch (MalformedJsonException | JsonSyntaxException e) {
            throw new ResultsInputException(file, "not " + expected + ": not valid JSON (" + e.getMessage() + ")", e);
        } catch (JsonIOException e) {
            // Gson wraps the reader's failures: bytes that are not UTF-8 text are the input's fault
            // (a PNG given by mistake), anything else is the disk's and stays an IOException.
            if (e.getCause() instanceof CharacterCodingException) {
                throw new ResultsInputException(file, "not " + expected + ": not UTF-8 text", e);
            }
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** What a JSON value is, for a message that says what was found instead of what was expected. */
    static String kind(JsonElement e) {
        if (e.isJsonObject()) {
            return "an object";
        }
        if (e.isJsonArray()) {
            return "an array";
        }
        if (e.isJsonNull()) {
            return "nothing (an empty file, or null)";
        }
        return "a single value (" + e + ")";
    }
}
