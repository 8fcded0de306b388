package io.jato.workloads;

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
        latency.recordValue(Math.max(1, Math.min(nanos, HIGHEST_LATENCY_NANOS)));
    }
}
