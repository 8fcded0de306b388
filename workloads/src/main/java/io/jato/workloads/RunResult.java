package io.jato.workloads;

import io.jato.stm.StmStatistics;
import org.HdrHistogram.Histogram;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a run measured, for the text and JSON reports.
 *
 * @param workload      the workload's name
 * @param parameters    the workload's parameters, in display order
 * @param protocol      the store's (default) protocol
 * @param threads       worker threads
 * @param seed          the seed the workload's generators were derived from
 * @param loadNanos     time spent loading
 * @param warmupNanos   the warm-up, not measured
 * @param measuredNanos the measured interval
 * @param commits       transactions the workers committed during the measured interval
 * @param rolledBack    transactions the workload rolled back on purpose during it
 * @param statistics    the store's counters over the measured interval (after minus before)
 * @param latency       committed-transaction latency in nanoseconds, merged over threads
 * @param perType       the same figures per transaction type, in the workload's type order; empty
 *                      if the workload names no types
 * @param check         the workload's consistency check
 * @param heap          heap figures at the end of the run
 * @param protocols       every protocol of the store, the default ({@code protocol}) first
 * @param objectProtocols what the workload bound to the store's other protocols: objects (e.g.
 *                        tables) to protocol names, in display order; empty for a store of one protocol
 * @param series          one entry per second of the run, warm-up included, in order (what the
 *                        progress lines show); empty if the run was shorter than a second
 * @param startedAt       when the workers started (wall clock), or null if not recorded
 */
public record RunResult(String workload, Map<String, Object> parameters, String protocol, int threads, long seed,
                        long loadNanos, long warmupNanos, long measuredNanos, long commits, long rolledBack,
                        StmStatistics statistics, Histogram latency, List<TypeResult> perType, CheckResult check,
                        Heap heap, List<String> protocols, Map<String, String> objectProtocols,
                        List<Second> series, Instant startedAt) {

    public RunResult {
        perType = List.copyOf(perType);
        protocols = List.copyOf(protocols);
        objectProtocols = Collections.unmodifiableMap(new LinkedHashMap<>(objectProtocols));
        series = List.copyOf(series);
    }

    /** As the canonical constructor, without a per-second series or start time. */
    public RunResult(String workload, Map<String, Object> parameters, String protocol, int threads, long seed,
                     long loadNanos, long warmupNanos, long measuredNanos, long commits, long rolledBack,
                     StmStatistics statistics, Histogram latency, List<TypeResult> perType, CheckResult check,
                     Heap heap, List<String> protocols, Map<String, String> objectProtocols) {
        this(workload, parameters, protocol, threads, seed, loadNanos, warmupNanos, measuredNanos, commits, rolledBack,
                statistics, latency, perType, check, heap, protocols, objectProtocols, List.of(), null);
    }

    /**
     * One second of a run, as its progress line shows it.
     *
     * @param atSeconds  seconds since the workers started, at the end of this second
     * @param measured   false during the warm-up
     * @param throughput transactions the workers finished per second over it
     * @param statistics the store's counters over it (aborts by cause, abort rate)
     */
    public record Second(double atSeconds, boolean measured, double throughput, StmStatistics statistics) {
    }

    /** A run on a store of the one protocol {@code protocol}. */
    public RunResult(String workload, Map<String, Object> parameters, String protocol, int threads, long seed,
                     long loadNanos, long warmupNanos, long measuredNanos, long commits, long rolledBack,
                     StmStatistics statistics, Histogram latency, List<TypeResult> perType, CheckResult check,
                     Heap heap) {
        this(workload, parameters, protocol, threads, seed, loadNanos, warmupNanos, measuredNanos, commits, rolledBack,
                statistics, latency, perType, check, heap, List.of(protocol), Map.of());
    }

    /**
     * @return the protocol as the report shows it: {@link #protocol} for a store of one protocol,
     *         else with the others and what they are used for, e.g. {@code occ (+ tictoc for stock)}
     */
    public String protocolSummary() {
        if (protocols.size() <= 1) {
            return protocol;
        }
        StringBuilder sb = new StringBuilder(protocol).append(" (+ ");
        for (int i = 1; i < protocols.size(); i++) {
            String p = protocols.get(i);
            sb.append(i == 1 ? "" : "; ").append(p);
            List<String> objects = new ArrayList<>();
            objectProtocols.forEach((object, q) -> {
                if (q.equals(p)) {
                    objects.add(object);
                }
            });
            if (!objects.isEmpty()) {
                sb.append(" for ").append(String.join(", ", objects));
            }
        }
        return sb.append(')').toString();
    }

    /** @return committed transactions per second over the measured interval */
    public double throughput() {
        return throughput(commits);
    }

    /** @return {@code count} transactions per second over the measured interval */
    public double throughput(long count) {
        return measuredNanos == 0 ? 0.0 : count * 1e9 / measuredNanos;
    }

    /**
     * One transaction type's share of the measured interval. The store's counters here are the
     * deltas over this type's transactions on their own threads, so they count every attempt,
     * retried or not, and sum over the types to about the run's {@link #statistics} (the edges of
     * the interval blur both by a transaction per thread).
     *
     * @param name       the type's name
     * @param commits    transactions of this type committed while measuring
     * @param rolledBack transactions of this type the workload rolled back on purpose
     * @param statistics the store's counters over this type's transactions
     * @param latency    committed-transaction latency in nanoseconds, merged over threads
     */
    public record TypeResult(String name, long commits, long rolledBack, StmStatistics statistics,
                             Histogram latency) {
    }

    /**
     * Heap usage after loading and at the end of the run, and the collectors' work while measuring.
     *
     * @param usedBytes       heap in use when the run ended (live data plus garbage not yet collected)
     * @param loadedBytes     heap in use after the load and a full collection (about the loaded data)
     * @param maxBytes        the maximum heap, or -1 if undefined
     * @param gc              the collectors, and their collections and time during the measured interval
     */
    public record Heap(long usedBytes, long loadedBytes, long maxBytes, GcTotals gc) {
    }
}
