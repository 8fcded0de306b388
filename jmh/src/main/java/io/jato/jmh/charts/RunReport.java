package io.jato.jmh.charts;

import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One JSON report of the workload runner ({@code ./jato tpcc|ycsb|transfer ... --json FILE}), as
 * {@link RunReportReader} read and checked it: only what {@link RunCharts} charts and tabulates.
 * Immutable; numbers the report does not have (an older report, or a value the runner wrote as
 * null because it was not finite) are NaN, never a made-up zero.
 *
 * @param source the file, as given, for messages and the summary
 * @param name how the summary names the report: its file name, or the path as given where two
 *     inputs share a file name
 * @param protocol the store's protocol as the runner's {@code --protocol} spells it, with the
 *     tables bound to other protocols appended as {@code +table=protocol} (a mixed store)
 * @param parameters the workload's parameters, sorted by name, values as the report wrote them
 * @param abortRatePercent {@code stm.abort_rate} in percent
 * @param series the per-second series in file order; null where the report has no {@code series}
 *     key (written before the runner recorded one)
 * @param latencyDistribution HdrHistogram's percentile distribution in file order; null where the
 *     report has no {@code latency_distribution_us} key
 */
record RunReport(
        Path source,
        String name,
        String workload,
        String protocol,
        int threads,
        SortedMap<String, String> parameters,
        double throughput,
        double abortRatePercent,
        Latency latency,
        Check check,
        RunProvenance provenance,
        List<Second> series,
        List<Percentile> latencyDistribution) {

    /** What the run's consistency check said. */
    enum Check {
        PASSED, FAILED, NOT_RECORDED
    }

    /** The latency percentiles the runner always reports, in µs; NaN where missing. */
    record Latency(double p50, double p99, double p999) {
        static final Latency NONE = new Latency(Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * One second of the run.
     *
     * @param atSeconds the end of the second, from the start of the warm-up ({@code t_s})
     * @param measured false for a warm-up second
     * @param throughput transactions per second; NaN where the runner wrote null
     * @param abortRatePercent NaN where the runner wrote null
     */
    record Second(double atSeconds, boolean measured, double throughput, double abortRatePercent) {
    }

    /**
     * One step of HdrHistogram's percentile iteration: {@code micros} is the latency that
     * {@code percentile} percent of the committed transactions did not exceed.
     */
    record Percentile(double percentile, double micros) {
    }

    RunReport {
        parameters = new TreeMap<>(parameters);
        series = series == null ? null : List.copyOf(series);
        latencyDistribution = latencyDistribution == null ? null : List.copyOf(latencyDistribution);
    }

    /** The same report under another name (see {@code name}). */
    RunReport named(String newName) {
        return new RunReport(source, newName, workload, protocol, threads, parameters, throughput,
                abortRatePercent, latency, check, provenance, series, latencyDistribution);
    }

    /** Whether the series has a second with a throughput to draw. */
    boolean hasSeriesToChart() {
        return series != null && series.stream().anyMatch(s -> !Double.isNaN(s.throughput()));
    }

    /**
     * The distribution's steps that a percentile curve can show: those below 100% (the nines
     * scale puts 100% at infinity; HdrHistogram's last finite step has reached the maximum already)
     * with a latency above zero (the latency axis is logarithmic).
     */
    List<Percentile> chartablePercentiles() {
        return latencyDistribution == null ? List.of()
                : latencyDistribution.stream().filter(p -> p.percentile() < 100 && p.micros() > 0).toList();
    }
}
