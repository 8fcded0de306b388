package io.jato.workloads;

import io.jato.stm.AbortCause;
import io.jato.stm.StmStatistics;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Formats a {@link RunResult}: the human-readable summary and the JSON document with the same
 * numbers. Latencies are reported in microseconds, rates as fractions in JSON and percentages in text.
 */
public final class Report {
    private static final double[] PERCENTILES = {50.0, 99.0, 99.9};

    private Report() {
    }

    /** Prints the summary of {@code r} to {@code out}. */
    public static void print(RunResult r, PrintStream out) {
        StmStatistics st = r.statistics();
        StringBuilder params = new StringBuilder();
        r.parameters().forEach((k, v) -> params.append(params.length() == 0 ? "" : "  ").append(k).append('=').append(v));
        out.println();
        out.printf(Locale.ROOT, "workload     %s  %s  seed=%d%n", r.workload(), params, r.seed());
        out.printf(Locale.ROOT, "protocol     %s%n", r.protocol());
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
        RunResult.Heap heap = r.heap();
        out.printf(Locale.ROOT, "heap         %s used at end; %s live after loading; max %s%n", mib(heap.usedBytes()),
                mib(heap.loadedBytes()), heap.maxBytes() < 0 ? "undefined" : mib(heap.maxBytes()));
        out.printf(Locale.ROOT, "check        %s: %s%n", r.check().passed() ? "OK" : "FAILED", r.check().summary());
    }

    /** @return the JSON document for {@code r} */
    public static String json(RunResult r) {
        StmStatistics st = r.statistics();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workload", r.workload());
        m.put("protocol", r.protocol());
        m.put("threads", r.threads());
        m.put("seed", r.seed());
        m.put("parameters", r.parameters());
        m.put("load_seconds", r.loadNanos() / 1e9);
        m.put("warmup_seconds", r.warmupNanos() / 1e9);
        m.put("measured_seconds", r.measuredNanos() / 1e9);
        m.put("commits", r.commits());
        m.put("rolled_back", r.rolledBack());
        m.put("throughput_txn_per_s", r.throughput());

        Map<String, Object> stm = new LinkedHashMap<>();
        stm.put("starts", st.starts());
        stm.put("commits", st.commits());
        stm.put("aborts", st.aborts());
        stm.put("abort_rate", st.abortRate());
        Map<String, Object> causes = new LinkedHashMap<>();
        st.abortsByCause().forEach((c, n) -> causes.put(c.name(), n));
        stm.put("aborts_by_cause", causes);
        m.put("stm", stm);

        Histogram h = r.latency();
        Map<String, Object> lat = new LinkedHashMap<>();
        lat.put("count", h.getTotalCount());
        boolean any = h.getTotalCount() > 0;
        for (double p : PERCENTILES) {
            String key = "p" + (p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p).replace('.', '_'));
            lat.put(key, any ? h.getValueAtPercentile(p) / 1e3 : null);
        }
        lat.put("max", any ? h.getMaxValue() / 1e3 : null);
        lat.put("mean", any ? h.getMean() / 1e3 : null);
        m.put("latency_us", lat);

        Map<String, Object> heap = new LinkedHashMap<>();
        heap.put("used_bytes", r.heap().usedBytes());
        heap.put("loaded_bytes", r.heap().loadedBytes());
        heap.put("max_bytes", r.heap().maxBytes());
        m.put("heap", heap);

        Map<String, Object> check = new LinkedHashMap<>();
        check.put("passed", r.check().passed());
        check.put("summary", r.check().summary());
        m.put("check", check);

        m.put("java_version", System.getProperty("java.version"));
        m.put("available_processors", Runtime.getRuntime().availableProcessors());
        return Json.write(m);
    }

    private static String micros(long nanos) {
        double us = nanos / 1e3;
        return String.format(Locale.ROOT, us < 10 ? "%.2f us" : us < 1000 ? "%.1f us" : "%,.0f us", us);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%,.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
