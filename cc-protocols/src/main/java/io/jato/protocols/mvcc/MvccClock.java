package io.jato.protocols.mvcc;

import io.jato.stm.spi.ProtocolContext;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where MVCC's timestamps come from, in one class so that the scheme can be swapped
 * ({@code docs/mvcc.md}, "Timestamps"). Per-thread clocks in the style of Cicada's loosely
 * synchronized clocks, plus three store-wide bounds that only grow:
 *
 * <ul>
 *   <li>{@code floorOfWriters} — no tracked attempt that begins from now on takes an execution
 *       timestamp below it;</li>
 *   <li>{@code stable} — no transaction, running or future, commits a version at or below it:
 *       a snapshot there is final ("the recent past");</li>
 *   <li>{@code horizon} — no snapshot, running or future, reads below it: older versions may go.</li>
 * </ul>
 *
 * <p>A tracked attempt takes {@code max(its thread's clock + 1, System.nanoTime() since the store
 * began, floorOfWriters)} as its execution timestamp: no shared write, two shared reads. The
 * nanosecond clock only keeps threads close to each other and to real time; no guarantee rests on
 * it. Every guarantee rests on the two Dekker pairs below (all loads and stores volatile):
 * <ol>
 *   <li>a tracked attempt publishes its lower bound ({@code active}) and then reads
 *       {@code floorOfWriters}; {@link #advance} reads {@code floorOfWriters} and then every
 *       {@code active}. If {@link #advance} missed the publication, the attempt's read came after
 *       {@link #advance}'s, so its timestamp is at least the value {@link #advance} read, which is
 *       above the {@code stable} it computes; if it saw it, {@code stable} stays below it.</li>
 *   <li>a snapshot publishes the {@code stable} it read and then reads {@code stable} again,
 *       reading at the second value; {@link #advance} reads {@code stable} and then every published
 *       snapshot. Either it saw the publication (the horizon stays at or below it) or the
 *       snapshot's second read came after its read of {@code stable}, which bounds the horizon.</li>
 * </ol>
 *
 * <p>{@link #advance} scans the registry of live states: it runs when a snapshot begins and every
 * {@value #ADVANCE_PERIOD} commits of a thread, never on a tracked attempt's begin or commit path.
 * Thread-safe.
 */
final class MvccClock {
    /** Commits of one thread between two of its calls to {@link #advance}. */
    static final int ADVANCE_PERIOD = 64;
    /** How many times a snapshot recomputes the stable point, spinning, before it yields between tries. */
    static final int SNAPSHOT_SPINS = 256;
    /**
     * How long, after its spins, a snapshot keeps waiting for the stable point to reach what it
     * must include (yielding between tries) before it runs tracked. Long enough for a writer of
     * another thread to finish one transaction on a loaded machine (TPC-C's stock-level fell back
     * in 5-10% of its attempts with 256 spins alone); no guarantee rests on it.
     */
    static final long SNAPSHOT_WAIT_NANOS = 2_000_000;

    private final ProtocolContext context;
    private final long origin = System.nanoTime();
    private final AtomicLong floorOfWriters = new AtomicLong(2);
    private final AtomicLong stable = new AtomicLong(1);
    private final AtomicLong horizon = new AtomicLong(0);
    /**
     * The largest clock a pooled context (virtual threads borrow one per transaction) had when a
     * transaction of it committed. A pooled context takes it over when its next attempt begins, so
     * that a virtual thread's next transaction, in whatever context, orders after the thread's
     * last commit as a platform thread's does through its own clock. Written once per commit of a
     * pooled context, never by platform threads.
     */
    private final AtomicLong handedOff = new AtomicLong(0);

    MvccClock(ProtocolContext context) {
        this.context = context;
    }

    /**
     * Begins a tracked attempt of {@code s}'s thread: publishes a lower bound of its commit
     * timestamp and returns its execution timestamp (at least that bound).
     */
    long openTracked(MvccTxnState s) {
        long t = Math.max(s.clock() + 1, System.nanoTime() - origin);
        s.publishActive(t);
        return Math.max(t, floorOfWriters.get());
    }

    /** A transaction of a pooled context committed: its clock passes to the next borrower's attempts. */
    void handOff(MvccTxnState s) {
        raise(handedOff, s.clock());
    }

    /** An attempt of a pooled context begins: its clock catches up with every commit handed off before. */
    void takeOver(MvccTxnState s) {
        s.advanceClock(handedOff.get());
    }

    /** Ends a tracked attempt; {@code committedAt} is its commit timestamp, or 0 if it aborted. */
    void closeTracked(MvccTxnState s, long committedAt) {
        s.advanceClock(Math.max(committedAt, s.seen));
        s.clearActive();
    }

    /**
     * Begins a snapshot attempt: brings the bounds up to date, publishes the snapshot and returns
     * it, or returns -1 if the stable point stays below what the snapshot must include for
     * {@value #SNAPSHOT_SPINS} recomputations and then {@value #SNAPSHOT_WAIT_NANOS} ns (a writer
     * that began before is still in flight): the attempt must then run tracked. What it must
     * include: {@code s}'s thread's own last commit; with a staleness bound
     * ({@code maxStaleness > 0}) only what is older than the bound, by the store's clock.
     */
    long openSnapshot(MvccTxnState s, long maxStaleness) {
        advance();
        long need = s.clock();
        if (maxStaleness > 0) {
            need = Math.min(need, System.nanoTime() - origin - maxStaleness);
        }
        long r = stable.get();
        long deadline = 0;
        for (int tries = 0; r < need; tries++) {
            // The stable point is below what the snapshot must see: a writer that began before
            // that is still in flight. Such writers are usually about to finish; wait for them.
            if (tries < SNAPSHOT_SPINS) {
                Thread.onSpinWait();
            } else {
                long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + SNAPSHOT_WAIT_NANOS;
                } else if (now - deadline > 0) {
                    return -1;
                }
                Thread.yield();
            }
            advance();
            r = stable.get();
        }
        s.publishSnapshot(r);
        long again = stable.get();
        if (again != r) {
            s.publishSnapshot(again);
        }
        return again;
    }

    void closeSnapshot(MvccTxnState s) {
        s.clearSnapshot();
    }

    /**
     * A non-transactional write gave an item the version {@code ts}: later execution timestamps go
     * above it, so that the stable point, and with it the horizon, can move past it.
     */
    void nonTransactionalWrite(long ts) {
        raise(floorOfWriters, ts + 1);
    }

    /**
     * A thread died and its state leaves the registry: its clock (its last commit) no longer
     * counts in {@link #advance}'s scan, so it is folded into the writers' floor now; otherwise a
     * snapshot taken after that thread's last commit happened-before it could read below that
     * commit.
     */
    void retired(MvccTxnState s) {
        raise(floorOfWriters, s.clock() + 1);
    }

    /** @return no snapshot, running or future, reads below this */
    long horizon() {
        return horizon.get();
    }

    /** @return no transaction, running or future, commits at or below this */
    long stable() {
        return stable.get();
    }

    /** Counts a commit of {@code s}'s thread; every {@value #ADVANCE_PERIOD}th one advances the bounds. */
    void committed(MvccTxnState s) {
        if (++s.sinceAdvance >= ADVANCE_PERIOD) {
            s.sinceAdvance = 0;
            advance();
        }
    }

    /**
     * Recomputes the three bounds from the registry of live states (see the class comment for why
     * each stays correct under concurrent begins).
     */
    void advance() {
        List<Object> states = context.txnStates();
        long newest = 0;
        for (int i = 0, n = states.size(); i < n; i++) {
            Object s = states.get(i);
            if (s != null) {
                newest = Math.max(newest, ((MvccTxnState) s).clock());
            }
        }
        raise(floorOfWriters, newest + 1);
        // Each scan loads the registry after the bound it pairs with: a state registered after
        // that load belongs to a thread whose first read of the bound comes later still.
        long writers = floorOfWriters.get();
        states = context.txnStates();
        long st = writers - 1;
        for (int i = 0, n = states.size(); i < n; i++) {
            Object s = states.get(i);
            long a = s == null ? MvccTxnState.NONE : ((MvccTxnState) s).active();
            if (a != MvccTxnState.NONE) {
                st = Math.min(st, a - 1);
            }
        }
        raise(stable, st);
        long h = stable.get();
        states = context.txnStates();
        for (int i = 0, n = states.size(); i < n; i++) {
            Object s = states.get(i);
            if (s != null) {
                h = Math.min(h, ((MvccTxnState) s).snapshot());
            }
        }
        raise(horizon, h);
    }

    private static void raise(AtomicLong bound, long to) {
        for (long b = bound.get(); b < to; b = bound.get()) {
            if (bound.compareAndSet(b, to)) {
                return;
            }
        }
    }
}
