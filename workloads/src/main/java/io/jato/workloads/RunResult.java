package io.jato.workloads;

import io.jato.stm.StmStatistics;
import org.HdrHistogram.Histogram;

import java.util.Map;

/**
 * Everything a run measured, for the text and JSON reports.
 *
 * @param workload      the workload's name
 * @param parameters    the workload's parameters, in display order
 * @param protocol      the store's protocol
 * @param threads       worker threads
 * @param seed          the seed the workload's generators were derived from
 * @param loadNanos     time spent loading
 * @param warmupNanos   the warm-up, not measured
 * @param measuredNanos the measured interval
 * @param commits       transactions the workers committed during the measured interval
 * @param rolledBack    transactions the workload rolled back on purpose during it
 * @param statistics    the store's counters over the measured interval (after minus before)
 * @param latency       committed-transaction latency in nanoseconds, merged over threads
 * @param check         the workload's consistency check
 * @param heap          heap figures at the end of the run
 */
public record RunResult(String workload, Map<String, Object> parameters, String protocol, int threads, long seed,
                        long loadNanos, long warmupNanos, long measuredNanos, long commits, long rolledBack,
                        StmStatistics statistics, Histogram latency, CheckResult check, Heap heap) {

    /** @return committed transactions per second over the measured interval */
    public double throughput() {
        return measuredNanos == 0 ? 0.0 : commits * 1e9 / measuredNanos;
    }

    /**
     * Heap usage after loading and at the end of the run.
     *
     * @param usedBytes       heap in use when the run ended (live data plus garbage not yet collected)
     * @param loadedBytes     heap in use after the load and a full collection (about the loaded data)
     * @param maxBytes        the maximum heap, or -1 if undefined
     */
    public record Heap(long usedBytes, long loadedBytes, long maxBytes) {
    }
}
