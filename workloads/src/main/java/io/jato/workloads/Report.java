package io.jato.workloads;

import io.jato.stm.AbortCause;
import io.jato.stm.StmStatistics;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Formats a {@link RunResult}: the human-readable summary and the JSON document with the same
 * numbers. Latencies are reported in microseconds, rates as fractions in JSON and percentages in text.
 * When the workload names transaction types, both add the figures per type (a table after the
 * overall lines; a {@code per_type} object keyed by type name).
 */
public final class Report {
    private static final double[] PERCENTILES = {50.0, 99.0, 99.9};
    /** Abort causes named per type in the text table, most frequent first. */
    private static final int TOP_CAUSES = 3;

    private Report() {
    }

    /** Prints the summary of {@code r} to {@code out}. */
    public static void print(RunResult r, PrintStream out) {
        StmStatistics st = r.statistics();
        StringBuilder params = new StringBuilder();
        r.parameters().forEach((k, v) -> params.append(params.length() == 0 ? "" : "  ").append(k).append('=').append(v));
        out.println();
        out.printf(Locale.ROOT, "workload     %s  %s  seed=%d%n", r.workload(), params, r.seed());
        out.printf(Locale.ROOT, "protocol     %s%n", r.protocolSummary());
        out.printf(Locale.ROOT, "threads      %d%n", r.threads());
        out.printf(Locale.ROOT, "duration     %.2f s measured, after %.2f s warm-up (load took %.2f s)%n",
                r.measuredNanos() / 1e9, r.warmupNanos() / 1e9, r.loadNanos() / 1e9);
        out.printf(Locale.ROOT, "throughput   %,.0f txn/s  (%,d committed)%n", r.throughput(), r.commits());
        if (r.rolledBack() != 0) {
            out.printf(Locale.ROOT, "rolled back  %,d by the workload on purpose%n", r.rolledBack());
        }
        long ended = st.commits() + st.aborts();
        out.printf(Locale.ROOT, "abort rate   %.2f%%  (%,d aborted attempts, %,d commits)%n", 100 * st.abortRate(),
                st.aborts(), st.commits());
        for (Map.Entry<AbortCause, Long> e : st.abortsByCause().entrySet()) {
            out.printf(Locale.ROOT, "  %-18s %6.2f%%  %,14d%n", e.getKey(), 100.0 * e.getValue() / ended, e.getValue());
        }
        Histogram h = r.latency();
        if (h.getTotalCount() == 0) {
            out.println("latency      no committed transaction");
        } else {
            out.printf(Locale.ROOT, "latency      p50 %s  p99 %s  p99.9 %s  max %s  (per committed txn, incl. retries)%n",
                    micros(h.getValueAtPercentile(50.0)), micros(h.getValueAtPercentile(99.0)),
                    micros(h.getValueAtPercentile(99.9)), micros(h.getMaxValue()));
        }
        if (!r.perType().isEmpty()) {
            printPerType(r, out);
        }
        RunResult.Heap heap = r.heap();
        out.printf(Locale.ROOT, "heap         %s used at end; %s live after loading; max %s%n", mib(heap.usedBytes()),
                mib(heap.loadedBytes()), heap.maxBytes() < 0 ? "undefined" : mib(heap.maxBytes()));
        GcTotals gc = heap.gc();
        out.printf(Locale.ROOT, "gc           %s; while measuring: %s%n", gc.collectors(), gcWork(gc, r.measuredNanos()));
        out.printf(Locale.ROOT, "check        %s: %s%n", r.check().passed() ? "OK" : "FAILED", r.check().summary());
    }

    /**
     * The per-type table: committed txn/s and share of the committed mix, aborted attempts over
     * attempts, latency percentiles, and the most frequent abort causes as shares of the attempts.
     */
    private static void printPerType(RunResult r, PrintStream out) {
        out.printf(Locale.ROOT, "%-18s %12s %7s %10s %10s %10s %10s  %s%n", "per type", "txn/s", "mix",
                "abort rate", "p50", "p99", "p99.9", "top abort causes");
        for (RunResult.TypeResult t : r.perType()) {
            StmStatistics st = t.statistics();
            Histogram h = t.latency();
            boolean any = h.getTotalCount() > 0;
            out.printf(Locale.ROOT, "  %-16s %,12.0f %6.1f%% %9.2f%% %10s %10s %10s  %s%n", t.name(),
                    r.throughput(t.commits()), 100 * share(t.commits(), r.commits()), 100 * st.abortRate(),
                    any ? micros(h.getValueAtPercentile(50.0)) : "-", any ? micros(h.getValueAtPercentile(99.0)) : "-",
                    any ? micros(h.getValueAtPercentile(99.9)) : "-", topCauses(st));
        }
    }

    /** @return the most frequent abort causes with their shares of the attempts, or "-" if none */
    private static String topCauses(StmStatistics st) {
        List<Map.Entry<AbortCause, Long>> causes = new ArrayList<>(st.abortsByCause().entrySet());
        if (causes.isEmpty()) {
            return "-";
        }
        causes.sort(Map.Entry.<AbortCause, Long>comparingByValue().reversed());
        long ended = st.commits() + st.aborts();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(TOP_CAUSES, causes.size()); i++) {
            Map.Entry<AbortCause, Long> e = causes.get(i);
            sb.append(i == 0 ? "" : ", ").append(e.getKey())
                    .append(String.format(Locale.ROOT, " %.2f%%", 100.0 * e.getValue() / ended));
        }
        return sb.toString();
    }

    private static double share(long part, long whole) {
        return whole == 0 ? 0.0 : (double) part / whole;
    }

    /** @return the JSON document for {@code r} */
    public static String json(RunResult r) {
        StmStatistics st = r.statistics();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workload", r.workload());
        m.put("protocol", r.protocol());
        if (r.protocols().size() > 1) {
            m.put("protocols", r.protocols());
            m.put("object_protocols", r.objectProtocols());
        }
        m.put("threads", r.threads());
        m.put("seed", r.seed());
        m.put("parameters", r.parameters());
        m.put("load_seconds", r.loadNanos() / 1e9);
        m.put("warmup_seconds", r.warmupNanos() / 1e9);
        m.put("measured_seconds", r.measuredNanos() / 1e9);
        m.put("commits", r.commits());
        m.put("rolled_back", r.rolledBack());
        m.put("throughput_txn_per_s", r.throughput());

        m.put("stm", statisticsJson(st));
        m.put("latency_us", latencyJson(r.latency()));
        if (!r.perType().isEmpty()) {
            Map<String, Object> perType = new LinkedHashMap<>();
            for (RunResult.TypeResult t : r.perType()) {
                Map<String, Object> type = new LinkedHashMap<>();
                type.put("commits", t.commits());
                type.put("rolled_back", t.rolledBack());
                type.put("throughput_txn_per_s", r.throughput(t.commits()));
                type.put("mix_share", share(t.commits(), r.commits()));
                type.put("stm", statisticsJson(t.statistics()));
                type.put("latency_us", latencyJson(t.latency()));
                perType.put(t.name(), type);
            }
            m.put("per_type", perType);
        }

        Map<String, Object> heap = new LinkedHashMap<>();
        heap.put("used_bytes", r.heap().usedBytes());
        heap.put("loaded_bytes", r.heap().loadedBytes());
        heap.put("max_bytes", r.heap().maxBytes());
        GcTotals gc = r.heap().gc();
        Map<String, Object> gcMap = new LinkedHashMap<>();
        gcMap.put("collectors", gc.collectors());
        gcMap.put("collections", gc.count());
        gcMap.put("time_ms", gc.millis());
        heap.put("gc", gcMap);
        m.put("heap", heap);

        Map<String, Object> check = new LinkedHashMap<>();
        check.put("passed", r.check().passed());
        check.put("summary", r.check().summary());
        m.put("check", check);

        m.put("java_version", System.getProperty("java.version"));
        m.put("available_processors", Runtime.getRuntime().availableProcessors());

        // What produced the run, so that a result file alone says where it came from.
        m.put("started_at", r.startedAt() == null ? null : r.startedAt().toString());
        m.put("git_commit", System.getProperty(GIT_COMMIT_PROPERTY));
        Map<String, Object> jvm = new LinkedHashMap<>();
        jvm.put("version", System.getProperty("java.version"));
        jvm.put("vendor", System.getProperty("java.vendor"));
        jvm.put("vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        jvm.put("flags", ManagementFactory.getRuntimeMXBean().getInputArguments());
        m.put("jvm", jvm);
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cpu_model", cpuModel());
        machine.put("available_processors", Runtime.getRuntime().availableProcessors());
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("machine", machine);

        List<Object> series = new ArrayList<>();
        for (RunResult.Second sec : r.series()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("t_s", sec.atSeconds());
            e.put("phase", sec.measured() ? "measure" : "warmup");
            e.put("throughput_txn_per_s", sec.throughput());
            e.put("abort_rate", sec.statistics().abortRate());
            Map<String, Object> causes = new LinkedHashMap<>();
            sec.statistics().abortsByCause().forEach((c, n) -> causes.put(c.name(), n));
            e.put("aborts_by_cause", causes);
            series.add(e);
        }
        m.put("series", series);
        m.put("latency_distribution_us", distributionJson(r.latency()));
        return Json.write(m);
    }

    /**
     * The system property the {@code jato} script sets to the repository's commit ({@code git
     * describe}-style, with {@code -dirty} for uncommitted changes); absent, the JSON says null.
     */
    public static final String GIT_COMMIT_PROPERTY = "jato.git.commit";

    /** @return the CPU's model name as Linux reports it, or the architecture elsewhere */
    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse(System.getProperty("os.arch"));
        } catch (IOException | RuntimeException e) {
            return System.getProperty("os.arch");
        }
    }

    /**
     * HdrHistogram's percentile distribution of the committed-transaction latency (what its
     * {@code outputPercentileDistribution} prints, 5 steps per halving of the remaining tail): a
     * latency-percentile curve can be drawn from it.
     */
    private static List<Object> distributionJson(Histogram h) {
        List<Object> points = new ArrayList<>();
        if (h.getTotalCount() == 0) {
            return points;
        }
        for (HistogramIterationValue v : h.percentiles(5)) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("percentile", v.getPercentileLevelIteratedTo());
            p.put("value_us", v.getValueIteratedTo() / 1e3);
            p.put("count", v.getTotalCountToThisValue());
            points.add(p);
        }
        return points;
    }

    private static Map<String, Object> statisticsJson(StmStatistics st) {
        Map<String, Object> stm = new LinkedHashMap<>();
        stm.put("starts", st.starts());
        stm.put("commits", st.commits());
        stm.put("aborts", st.aborts());
        stm.put("abort_rate", st.abortRate());
        Map<String, Object> causes = new LinkedHashMap<>();
        st.abortsByCause().forEach((c, n) -> causes.put(c.name(), n));
        stm.put("aborts_by_cause", causes);
        return stm;
    }

    private static Map<String, Object> latencyJson(Histogram h) {
        Map<String, Object> lat = new LinkedHashMap<>();
        lat.put("count", h.getTotalCount());
        boolean any = h.getTotalCount() > 0;
        for (double p : PERCENTILES) {
            String key = "p" + (p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p).replace('.', '_'));
            lat.put(key, any ? h.getValueAtPercentile(p) / 1e3 : null);
        }
        lat.put("max", any ? h.getMaxValue() / 1e3 : null);
        lat.put("mean", any ? h.getMean() / 1e3 : null);
        return lat;
    }

    private static String micros(long nanos) {
        double us = nanos / 1e3;
        return String.format(Locale.ROOT, us < 10 ? "%.2f us" : us < 1000 ? "%.1f us" : "%,.0f us", us);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%,.1f MiB", bytes / (1024.0 * 1024.0));
    }

    /** "12 collections, 340 ms (3.4% of the time)" over the measured interval, or what is unknown. */
    private static String gcWork(GcTotals gc, long measuredNanos) {
        String count = gc.count() < 0 ? "collections not counted" : String.format(Locale.ROOT, "%,d collections", gc.count());
        if (gc.millis() < 0) {
            return count + ", time not reported";
        }
        double share = measuredNanos > 0 ? 100.0 * gc.millis() * 1e6 / measuredNanos : 0;
        return String.format(Locale.ROOT, "%s, %,d ms (%.1f%% of the time)", count, gc.millis(), share);
    }
}
