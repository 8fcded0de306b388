package io.jato.workloads;

import java.util.List;
import java.util.Map;

/**
 * A benchmark the {@link Runner} can drive: it loads its data into a store, hands each worker thread
 * a {@link Worker} that runs one transaction at a time, and checks its invariants once the workers
 * have stopped.
 *
 * <p>The runner calls, in order: {@link #load} once on the main thread; {@link #newWorker} once on
 * each worker thread; {@link Worker#runOne} repeatedly on that thread until the run ends; then
 * {@link #check} on the main thread after every worker thread has terminated (so everything the
 * workers wrote with plain stores is visible to it).
 */
public interface Workload {
    /** @return the workload's name, as used on the command line (e.g. {@code ycsb}) */
    String name();

    /**
     * @return the parameters that define this run besides protocol, threads and duration, in display
     *         order; values are numbers, strings or booleans (they go into the JSON report as such)
     */
    Map<String, Object> parameters();

    /**
     * The kinds of transaction this workload mixes, for a report per type. A workload that names
     * none (the default) is reported as a whole only.
     *
     * @return the type names in index order (see {@link Worker#lastType}), or an empty list
     */
    default List<String> transactionTypes() {
        return List.of();
    }

    /**
     * What this workload bound to protocols other than the store's default ({@link
     * io.jato.stm.Stm#withProtocol}), for the report.
     *
     * @return the objects (e.g. table names), in display order, to their protocol's name; empty (the
     *         default) when everything is on the store's default protocol
     */
    default Map<String, String> objectProtocols() {
        return Map.of();
    }

    /** Populates the store, using {@code loader} to spread the work over threads with progress. */
    void load(Loader loader);

    /** @return the worker for thread {@code index} ({@code 0 <= index < threads}); called on that thread */
    Worker newWorker(int index);

    /** @return the outcome of the workload's consistency checks, run after all workers stopped */
    CheckResult check();

    /**
     * One worker thread's view of the workload. Confined to its thread: it keeps its own random
     * generators and counters, which {@link #check} reads after the thread has ended.
     */
    interface Worker {
        /**
         * Runs one transaction to its end, with the store's retries.
         *
         * @return true if it committed; false if the workload rolled it back on purpose (such
         *         transactions are counted separately and not in the latency)
         */
        boolean runOne();

        /**
         * @return the index into {@link Workload#transactionTypes} of the transaction the last
         *         {@link #runOne} ran; read by the runner right after each call, so it need only be
         *         a plain field of the worker. Ignored when the workload names no types.
         */
        default int lastType() {
            return 0;
        }
    }

    /** Parallel loading with progress, supplied by the runner. */
    interface Loader {
        /**
         * Runs {@code body} over {@code [0, count)} in chunks on the loading threads and shows
         * progress as "{@code what}". Returns when every chunk is done; rethrows the first failure.
         */
        void parallelFor(String what, int count, RangeBody body);

        /** @return how many threads {@link #parallelFor} uses */
        int threads();
    }

    /** A chunk of loading work over {@code [from, to)}. */
    @FunctionalInterface
    interface RangeBody {
        void run(int from, int to);
    }
}
