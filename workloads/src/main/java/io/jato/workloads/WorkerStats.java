package io.jato.workloads;

import io.jato.stm.Stm;
import org.HdrHistogram.Histogram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/*
 * Layout. Each worker thread owns one WorkerStats and writes its counters on every transaction;
 * the main thread only reads `done` (once a second, for the progress line). The fields written on
 * the hot path sit between two 64-byte pads, laid out by inheritance (the JVM places superclass
 * fields first), so two workers' counters never share a cache line whatever the allocator does.
 *
 * Memory ordering. `done` is written by its owner with setOpaque and read by the main thread with
 * getOpaque: no tearing, no ordering, nothing stronger than a plain store on the owner's side. The
 * other fields and the histogram are plain; the main thread reads them only after joining the
 * worker thread, which orders them.
 *
 * Per transaction type. When the workload names types, the same counters and a histogram exist
 * per type, plus the store's counter deltas of each type's runOne calls (Stm.COUNTER_SLOTS per
 * type: starts, commits, aborts by cause). They are arrays allocated by the owner thread and
 * touched only by it until the join, like the histogram.
 */

abstract class WorkerStatsPadBefore {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

abstract class WorkerStatsFields extends WorkerStatsPadBefore {
    /** Transactions finished in any phase; written with setOpaque, read racily with getOpaque. */
    long done;
    /** Transactions committed while measuring. */
    long commits;
    /** Transactions the workload rolled back on purpose while measuring. */
    long rolledBack;
}

abstract class WorkerStatsPadAfter extends WorkerStatsFields {
    long p10, p11, p12, p13, p14, p15, p16, p17;
}

/** One worker thread's counters and latency histogram; see the layout note in the source. */
final class WorkerStats extends WorkerStatsPadAfter {
    /** Latencies above this are recorded as this (ten minutes, in nanoseconds). */
    static final long HIGHEST_LATENCY_NANOS = TimeUnit.MINUTES.toNanos(10);

    private static final VarHandle DONE;

    static {
        try {
            DONE = MethodHandles.lookup().findVarHandle(WorkerStatsFields.class, "done", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Committed-transaction latency in nanoseconds, first attempt start to commit. */
    final Histogram latency = new Histogram(1, HIGHEST_LATENCY_NANOS, 3);

    /** Per type (empty arrays if the workload names none): transactions committed while measuring. */
    final long[] typeCommits;
    /** Per type: transactions the workload rolled back on purpose while measuring. */
    final long[] typeRolledBack;
    /** Per type, {@link Stm#COUNTER_SLOTS} slots: the store's counter deltas over its transactions. */
    final long[] typeCounters;
    /** Per type: committed-transaction latency, as {@link #latency}. */
    final Histogram[] typeLatency;
    /** The owner's store counters before and after one transaction (preallocated scratch). */
    final long[] countersBefore = new long[Stm.COUNTER_SLOTS];
    final long[] countersAfter = new long[Stm.COUNTER_SLOTS];

    /** @param types the number of transaction types the workload names (0 for none) */
    WorkerStats(int types) {
        typeCommits = new long[types];
        typeRolledBack = new long[types];
        typeCounters = new long[types * Stm.COUNTER_SLOTS];
        typeLatency = new Histogram[types];
        for (int t = 0; t < types; t++) {
            typeLatency[t] = new Histogram(1, HIGHEST_LATENCY_NANOS, 3);
        }
    }

    /** Owner thread: one more transaction finished. */
    void finishedOpaque() {
        DONE.setOpaque(this, done + 1);
    }

    /** Any thread: the number of finished transactions, racy but untorn. */
    long doneOpaque() {
        return (long) DONE.getOpaque(this);
    }

    /** Owner thread, measuring: records a committed transaction that took {@code nanos}. */
    void recordCommit(long nanos) {
        commits++;
        latency.recordValue(clamp(nanos));
    }

    /**
     * Owner thread, measuring: attributes the transaction just finished to {@code type}: its
     * outcome, its latency if it committed, and the counter deltas {@link #countersAfter} minus
     * {@link #countersBefore}.
     *
     * @throws IllegalStateException if {@code type} is not a type index of the workload
     */
    void recordType(int type, boolean committed, long nanos) {
        if (type < 0 || type >= typeCommits.length) {
            throw new IllegalStateException("the worker's lastType() is " + type + ", but the workload names "
                    + typeCommits.length + " transaction types");
        }
        if (committed) {
            typeCommits[type]++;
            typeLatency[type].recordValue(clamp(nanos));
        } else {
            typeRolledBack[type]++;
        }
        int base = type * Stm.COUNTER_SLOTS;
        for (int i = 0; i < Stm.COUNTER_SLOTS; i++) {
            typeCounters[base + i] += countersAfter[i] - countersBefore[i];
        }
    }

    private static long clamp(long nanos) {
        return Math.max(1, Math.min(nanos, HIGHEST_LATENCY_NANOS));
    }
}
