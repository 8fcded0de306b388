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
 * Reads the JSON report that the workload runner writes with {@code --json FILE}: one object. A
 * file that is missing, not JSON, not an object, or without a string {@code workload} and
 * {@code protocol}, a thread count {@code threads} and a throughput {@code throughput_txn_per_s} is
 * refused with a {@link ResultsInputException} naming the file; so is a key that is there with the
 * wrong shape (a series entry without {@code t_s}, a percentile above 100). The keys that older
 * reports lack ({@code series}, {@code latency_distribution_us}, the provenance) are optional, and
 * a number the runner wrote as null (it does so for a value that is not finite) reads as NaN.
 * Keys the charts do not use are ignored.
 */
final class RunReportReader {
    /** What the messages call the file; a runner report is what {@code --json} writes. */
    private static final String EXPECTED = "a runner report (./jato WORKLOAD ... --json FILE)";

    private RunReportReader() {
    }

    /**
     * The report in {@code file}, named by its file name (see {@link RunReport#name}).
     *
     * @throws ResultsInputException the file is missing, unreadable or not a usable runner report
     * @throws IOException reading failed for another reason (the disk, not the input)
     */
    static RunReport read(Path file) throws ResultsInputException, IOException {
        JsonElement root = JsonFiles.parse(file, EXPECTED);
        if (!root.isJsonObject()) {
            throw new ResultsInputException(file, "not " + EXPECTED + ": expected a JSON object, found "
                    + JsonFiles.kind(root)
                    + (root.isJsonArray() ? " (JMH's results? ScalingCharts renders those)" : ""));
        }
        JsonFields f = new JsonFields(file, "", "not a runner report?", root.getAsJsonObject());
        // The identifying keys first: JSON from some other tool fails on the first.
        String workload = f.string("workload", f.get("workload"));
        double throughput = f.number("throughput_txn_per_s", f.get("throughput_txn_per_s"));
        if (!(throughput >= 0 && throughput < Double.POSITIVE_INFINITY)) {
            throw f.problem("'throughput_txn_per_s' is " + f.get("throughput_txn_per_s") + ", not a throughput");
        }
        String protocol = f.string("protocol", f.get("protocol"));
        double threads = f.number("threads", f.get("threads"));
        if (!(threads >= 1 && threads <= Integer.MAX_VALUE && threads == Math.rint(threads))) {
            throw f.problem("'threads' is " + f.get("threads") + ", not a thread count");
        }
        double abortRate = f.has("stm")
                ? f.optionalNumber("stm.abort_rate", f.object("stm").get("abort_rate"))
                : Double.NaN;
        if (abortRate < 0 || abortRate > 1) {
            throw f.problem("'stm.abort_rate' is " + abortRate + ", not a fraction of attempts");
        }
        return new RunReport(file, fileName(file), workload, protocol + objectProtocols(f), (int) threads,
                parameters(f), throughput, 100 * abortRate, latency(f), check(f), provenance(f), series(f),
                distribution(f));
    }

    private static String fileName(Path file) {
        Path name = file.getFileName();
        return name == null ? file.toString() : name.toString();
    }

    /** A mixed store's other bindings, as {@code +table=protocol} in the report's order. */
    private static String objectProtocols(JsonFields f) throws ResultsInputException {
        StringBuilder s = new StringBuilder();
        if (f.has("object_protocols")) {
            for (Map.Entry<String, JsonElement> e : f.object("object_protocols").entrySet()) {
                s.append('+').append(e.getKey()).append('=')
                        .append(f.string("object_protocols." + e.getKey(), e.getValue()));
            }
        }
        return s.toString();
    }

    /** The parameters as text: a number as the report wrote it, anything nested as compact JSON. */
    private static SortedMap<String, String> parameters(JsonFields f) throws ResultsInputException {
        SortedMap<String, String> params = new TreeMap<>();
        if (f.has("parameters")) {
            for (Map.Entry<String, JsonElement> p : f.object("parameters").entrySet()) {
                JsonElement v = p.getValue();
                params.put(p.getKey(), v.isJsonPrimitive() ? v.getAsString() : v.toString());
            }
        }
        return params;
    }

    private static RunReport.Latency latency(JsonFields f) throws ResultsInputException {
        if (!f.has("latency_us")) {
            return RunReport.Latency.NONE;
        }
        JsonObject lat = f.object("latency_us");
        return new RunReport.Latency(
                f.optionalNumber("latency_us.p50", lat.get("p50")),
                f.optionalNumber("latency_us.p99", lat.get("p99")),
                f.optionalNumber("latency_us.p99_9", lat.get("p99_9")));
    }

    private static RunReport.Check check(JsonFields f) throws ResultsInputException {
        if (!f.has("check") || !f.object("check").has("passed") || f.object("check").get("passed").isJsonNull()) {
            return RunReport.Check.NOT_RECORDED;
        }
        JsonElement passed = f.object("check").get("passed");
        if (!passed.isJsonPrimitive() || !passed.getAsJsonPrimitive().isBoolean()) {
            throw f.problem("'check.passed' is " + passed + ", not true or false");
        }
        return passed.getAsBoolean() ? RunReport.Check.PASSED : RunReport.Check.FAILED;
    }

    /**
     * The provenance keys where the report has them; an older report's {@code java_version} and
     * {@code available_processors} stand in for {@code jvm.version} and the machine's count.
     */
    private static RunProvenance provenance(JsonFields f) throws ResultsInputException {
        JsonObject jvm = f.has("jvm") ? f.object("jvm") : new JsonObject();
        JsonObject machine = f.has("machine") ? f.object("machine") : new JsonObject();
        List<String> flags = new ArrayList<>();
        if (jvm.has("flags") && !jvm.get("flags").isJsonNull()) {
            for (JsonElement flag : f.array("jvm.flags", jvm.get("flags"))) {
                flags.add(flag.isJsonPrimitive() ? flag.getAsString() : flag.toString());
            }
        }
        String version = JsonFields.optionalString(jvm, "version");
        String processors = JsonFields.optionalString(machine, "available_processors");
        return new RunProvenance(
                f.has("started_at") || f.has("jvm") || f.has("machine"),
                JsonFields.optionalString(f.object(), "started_at"),
                JsonFields.optionalString(f.object(), "git_commit"),
                version.isEmpty() ? JsonFields.optionalString(f.object(), "java_version") : version,
                JsonFields.optionalString(jvm, "vm"),
                flags,
                JsonFields.optionalString(machine, "cpu_model"),
                processors.isEmpty() ? JsonFields.optionalString(f.object(), "available_processors") : processors,
                JsonFields.optionalString(machine, "os"));
    }

    private static List<RunReport.Second> series(JsonFields f) throws ResultsInputException {
        return entries(f, "series", (at, e) -> {
            double t = f.number(at + ".t_s", e.get("t_s"));
            if (!(t >= 0 && t < Double.POSITIVE_INFINITY)) {
                throw f.problem("'" + at + ".t_s' is " + e.get("t_s") + ", not a time in seconds");
            }
            String phase = f.string(at + ".phase", e.get("phase"));
            if (!phase.equals("warmup") && !phase.equals("measure")) {
                throw f.problem("'" + at + ".phase' is \"" + phase + "\", not \"warmup\" or \"measure\"");
            }
            double rate = f.optionalNumber(at + ".abort_rate", e.get("abort_rate"));
            if (rate < 0 || rate > 1) {
                throw f.problem("'" + at + ".abort_rate' is " + rate + ", not a fraction of attempts");
            }
            return new RunReport.Second(t, phase.equals("measure"),
                    f.optionalNumber(at + ".throughput_txn_per_s", e.get("throughput_txn_per_s")), 100 * rate);
        });
    }

    private static List<RunReport.Percentile> distribution(JsonFields f) throws ResultsInputException {
        return entries(f, "latency_distribution_us", (at, e) -> {
            double percentile = f.number(at + ".percentile", e.get("percentile"));
            if (!(percentile >= 0 && percentile <= 100)) {
                throw f.problem("'" + at + ".percentile' is " + e.get("percentile") + ", not a percentile (0 to 100)");
            }
            double micros = f.number(at + ".value_us", e.get("value_us"));
            if (!(micros >= 0 && micros < Double.POSITIVE_INFINITY)) {
                throw f.problem("'" + at + ".value_us' is " + e.get("value_us") + ", not a latency");
            }
            return new RunReport.Percentile(percentile, micros);
        });
    }

    /** Reads one entry of an array of objects; {@code at} names it in messages ("series[3]"). */
    @FunctionalInterface
    private interface Entry<T> {
        T read(String at, JsonObject entry) throws ResultsInputException;
    }

    /** The array {@code key} of objects, each read by {@code entry}; null where the report has no such key. */
    private static <T> List<T> entries(JsonFields f, String key, Entry<T> entry) throws ResultsInputException {
        if (!f.has(key)) {
            return null;
        }
        List<T> list = new ArrayList<>();
        JsonArray array = f.array(key, f.get(key));
        for (int i = 0; i < array.size(); i++) {
            String at = key + "[" + i + "]";
            list.add(entry.read(at, f.nested(at, array.get(i))));
        }
        return list;
    }
}
