package io.jato.jmh.charts;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
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
        JsonElement root = JsonFiles.parse(file, "a JMH JSON result file");
        if (!root.isJsonArray()) {
            throw new ResultsInputException(file, "not a JMH JSON result file: expected a JSON array of"
                    + " benchmark results (as written by -rf json), found " + JsonFiles.kind(root));
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

    /**
     * The entries of every file of {@code inputs}, in order.
     *
     * @throws ResultsInputException there are no inputs, or one is unusable (see {@link #read})
     * @throws IOException reading failed for another reason
     */
    static List<JmhResult> readAll(List<Path> inputs) throws ResultsInputException, IOException {
        if (inputs.isEmpty()) {
            throw new ResultsInputException("no result files given");
        }
        List<JmhResult> results = new ArrayList<>();
        for (Path input : inputs) {
            results.addAll(read(input));
        }
        return results;
    }

    private static JmhResult entry(Path file, int index, JsonElement element) throws ResultsInputException {
        if (!element.isJsonObject()) {
            throw new ResultsInputException(file, "entry " + index + ": not a JMH benchmark result (expected an object,"
                    + " found " + JsonFiles.kind(element) + ")");
        }
        JsonFields f = new JsonFields(file, "entry " + index + ": ", "not a JMH result?", element.getAsJsonObject());
        // The identifying fields first: an object from some other tool's JSON fails on the first.
        String benchmark = f.string("benchmark", f.get("benchmark"));
        String mode = f.string("mode", f.get("mode"));
        double threadCount = f.number("threads", f.get("threads"));
        if (!(threadCount >= 1 && threadCount <= Integer.MAX_VALUE && threadCount == Math.rint(threadCount))) {
            throw f.problem("'threads' is " + f.get("threads") + ", not a thread count");
        }
        JsonObject primary = f.object("primaryMetric");
        SortedMap<String, Metric> secondary = new TreeMap<>();
        if (f.object().has("secondaryMetrics")) {
            for (Map.Entry<String, JsonElement> m : f.object("secondaryMetrics").entrySet()) {
                JsonObject metric = f.nested("secondaryMetrics." + m.getKey(), m.getValue());
                secondary.put(m.getKey(), new Metric(
                        f.number("secondaryMetrics." + m.getKey() + ".score", metric.get("score")),
                        JsonFields.optionalString(metric, "scoreUnit")));
            }
        }
        SortedMap<String, String> params = new TreeMap<>();
        if (f.object().has("params")) {
            for (Map.Entry<String, JsonElement> p : f.object("params").entrySet()) {
                params.put(p.getKey(), f.string("params." + p.getKey(), p.getValue()));
            }
        }
        List<String> jvmArgs = new ArrayList<>();
        if (f.object().has("jvmArgs") && f.get("jvmArgs").isJsonArray()) {
            for (JsonElement arg : f.object().getAsJsonArray("jvmArgs")) {
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
                JsonFields.optionalString(primary, "scoreUnit"),
                secondary,
                new Provenance(
                        JsonFields.optionalString(f.object(), "jmhVersion"),
                        JsonFields.optionalString(f.object(), "vmName"),
                        JsonFields.optionalString(f.object(), "vmVersion"),
                        jvmArgs));
    }
}
