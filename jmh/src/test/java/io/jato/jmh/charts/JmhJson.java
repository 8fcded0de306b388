package io.jato.jmh.charts;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Builds small JMH-shaped JSON result files for the tests, with only the fields JMH always writes. */
final class JmhJson {
    private final JsonArray entries = new JsonArray();

    /** Adds one result; {@code secondary} maps metric names to scores (unit ops/s). */
    JmhJson add(String benchmark, String mode, int threads, Map<String, String> params, double score,
            Map<String, Double> secondary) {
        JsonObject e = new JsonObject();
        e.addProperty("jmhVersion", "1.37");
        e.addProperty("benchmark", benchmark);
        e.addProperty("mode", mode);
        e.addProperty("threads", threads);
        e.addProperty("forks", 1);
        e.addProperty("jvm", "/usr/bin/java");
        JsonArray args = new JsonArray();
        args.add("-Xmx1g");
        e.add("jvmArgs", args);
        e.addProperty("jdkVersion", "17.0.15");
        e.addProperty("vmName", "OpenJDK 64-Bit Server VM");
        e.addProperty("vmVersion", "17.0.15+6");
        JsonObject p = new JsonObject();
        params.forEach(p::addProperty);
        e.add("params", p);
        String unit = mode.equals("thrpt") ? "ops/s" : "ns/op";
        e.add("primaryMetric", metric(score, unit));
        JsonObject s = new JsonObject();
        secondary.forEach((name, value) -> s.add(name, metric(value, "ops/s")));
        e.add("secondaryMetrics", s);
        entries.add(e);
        return this;
    }

    Path write(Path file) throws IOException {
        Files.writeString(file, new GsonBuilder().setPrettyPrinting().create().toJson(entries));
        return file;
    }

    private static JsonObject metric(double score, String unit) {
        JsonObject m = new JsonObject();
        m.addProperty("score", score);
        // As JMH writes an error it could not compute (one iteration): the string "NaN".
        m.addProperty("scoreError", "NaN");
        m.addProperty("scoreUnit", unit);
        return m;
    }
}
