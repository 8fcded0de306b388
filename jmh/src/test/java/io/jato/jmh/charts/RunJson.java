package io.jato.jmh.charts;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The runner-report fixtures, and variants of them for the tests: a fixture is read as a JSON
 * object that a test edits (another protocol, thread count or parameter, a key removed) and writes
 * to a file of its own.
 */
final class RunJson {
    /** A real report of {@code ./jato tpcc --threads 2} (occ), with every key the runner writes. */
    static final String TPCC = "runner-tpcc.json";
    /** {@link #TPCC} with tictoc's name and other numbers: the same setting, another protocol. */
    static final String TPCC_TICTOC = "runner-tpcc-tictoc.json";
    /** A real YCSB report written before the runner recorded a series, a distribution or provenance. */
    static final String YCSB_OLD = "runner-ycsb-old.json";

    private RunJson() {
    }

    /** The fixture's file. */
    static Path fixture(String name) {
        try {
            return Path.of(RunJson.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fixture's JSON, to edit. */
    static JsonObject load(String name) {
        return load(fixture(name));
    }

    /** The report in {@code file}. */
    static JsonObject load(Path file) {
        try {
            return JsonParser.parseString(Files.readString(file)).getAsJsonObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code report} with {@code protocol} and {@code threads}. */
    static JsonObject with(JsonObject report, String protocol, int threads) {
        JsonObject copy = report.deepCopy();
        copy.addProperty("protocol", protocol);
        copy.addProperty("threads", threads);
        return copy;
    }

    /** Writes {@code report} as {@code file}, nulls kept (the runner writes null for a value that is not finite). */
    static Path write(JsonObject report, Path file) throws IOException {
        return Files.writeString(file, new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(report));
    }
}
