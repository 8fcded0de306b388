package io.jato.protocols.mvcc;

import io.jato.stm.spi.ThreadPadding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One thread's MVCC state in one store, published in the store's registry of live states
 * ({@code ProtocolContext.txnStates()}) so that {@link MvccClock} can find the oldest writer still
 * committing and the oldest snapshot still reading.
 *
 * <p>Fields other threads read ({@link #active}, {@link #snapshot}, {@link #clock}) are written
 * only by the owning thread, with volatile or release stores, and read by {@link MvccClock} with
 * volatile loads. Everything else is the owner's alone.
 */
final class MvccTxnState extends ThreadPadding {
    private static final VarHandle ACTIVE;
    private static final VarHandle SNAPSHOT;
    private static final VarHandle CLOCK;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ACTIVE = l.findVarHandle(MvccTxnState.class, "active", long.class);
            SNAPSHOT = l.findVarHandle(MvccTxnState.class, "snapshot", long.class);
            CLOCK = l.findVarHandle(MvccTxnState.class, "clock", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** No timestamp published: the thread runs no attempt of that kind. */
    static final long NONE = Long.MAX_VALUE;

    /** A lower bound of the commit timestamp of the thread's running tracked attempt, or {@link #NONE}. */
    @SuppressWarnings("unused") // through ACTIVE
    private long active = NONE;
    /** The timestamp the thread's running snapshot attempt reads at, or {@link #NONE}. */
    @SuppressWarnings("unused") // through SNAPSHOT
    private long snapshot = NONE;
    /** The largest timestamp this thread committed at (or learnt of from an abort). */
    @SuppressWarnings("unused") // through CLOCK
    private long clock;

    // ---- owner only

    /** The timestamp this attempt reads at: its execution timestamp, or its snapshot. */
    long readTs;
    /** This attempt reads a stable snapshot, untracked, and validates nothing. */
    boolean snapshotMode;
    /** This attempt joined a delta group of operations (record or map updaters): its prepare applies them (owner only). */
    boolean operationDeltas;
    /** The largest write timestamp this attempt saw newer than {@link #readTs} (to move the clock on abort). */
    long seen;
    /**
     * The largest wts of the versions this tracked attempt read with no entry (readUnchangingRef),
     * each at or below {@link #readTs}: a write-free commit, which commits at the versions it
     * read, must not go below it.
     */
    long unchangingWts;
    /** This attempt's commit timestamp, once {@code prepare} fixed it. */
    long commitTs;
    /** Scratch of a read in place: the value loaded between the two word loads (cleared once returned). */
    Object loadedRef;
    /** Scratch of a read in place: the {@code long} value loaded. */
    long loadedLong;
    /** The versions this thread's commits pushed, cut once the horizon passes them. */
    final PushedVersions pushed = new PushedVersions();
    /** Commits since the clock last advanced the store's bounds from this thread. */
    int sinceAdvance;
    /** The deletes this thread committed and keeps linked until no snapshot can see before them. */
    final KeptDeletes kept = new KeptDeletes();

    long active() {
        return (long) ACTIVE.getVolatile(this);
    }

    void publishActive(long ts) {
        ACTIVE.setVolatile(this, ts);
    }

    void clearActive() {
        ACTIVE.setRelease(this, NONE);
    }

    long snapshot() {
        return (long) SNAPSHOT.getVolatile(this);
    }

    void publishSnapshot(long ts) {
        SNAPSHOT.setVolatile(this, ts);
    }

    void clearSnapshot() {
        SNAPSHOT.setRelease(this, NONE);
    }

    long clock() {
        return (long) CLOCK.getVolatile(this);
    }

    /** Owner only: moves the clock forward to {@code ts}, never back. */
    void advanceClock(long ts) {
        if (ts > (long) CLOCK.get(this)) {
            CLOCK.setRelease(this, ts);
        }
    }
}
