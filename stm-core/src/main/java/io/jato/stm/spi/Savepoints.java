package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.RollbackSignal;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;

import java.util.Arrays;

/*
 * Closed nesting with partial rollback. A nested block (atomic inside atomic, an orElse
 * alternative) opens a savepoint: the access set's size and the lengths of its write and check
 * lists, the hook counts, the transaction-local trail. If the block fails on a consistent state
 * (or an alternative retries), everything it did to the transaction is taken back, and the outer
 * body goes on:
 *
 *  - entries the block created keep what they read (observations, cached values, protocol read
 *    locks): they were observed, and the commit still validates them, as ScalaSTM does; their
 *    writes, inserts, updaters and checks go;
 *  - entries older than the savepoint get their pending state back (flags of the write, kind,
 *    value, updaters, participant) from an undo trail: each such entry is saved once per block,
 *    the first time the block changes it (Entry.savedIn names the block). Data types whose pending
 *    value is a mutable object (an update list, a record image, a sorted map's pending inserts)
 *    copy it on that first change (TxnContext.keepPending) so that the saved reference keeps the
 *    old contents;
 *  - the write list is cut back to its length at the savepoint, except for entries whose item the
 *    block locked eagerly (2pl, swisstm lock at the first write): those stay locked until the
 *    transaction ends, listed as Entry.HELD (the commit gives the item a new version and the same
 *    value; data types see no write), which is safe and needs no protocol hook;
 *  - the block's after-rollback hooks run (the caller does that, before the rollback), its
 *    other hooks and the transaction-local values it set are dropped.
 *
 * A block that completes merges into its parent: its trail records stay, now part of the parent's
 * (restored newest first, so the oldest record of an entry wins). Nothing here runs unless a block
 * is open, and the arrays are kept and reused, so steady-state nesting allocates nothing.
 */

/** The savepoint stack and undo trail of one {@link TxnContext}. Owner thread only. */
final class Savepoints {
    /** The flags a rollback puts back: what a write sets, never what a read or a lock set. */
    private static final int WRITE_STATE = Entry.WRITE | Entry.UPDATE | Entry.COMMUTATIVE | Entry.CHECK | Entry.HELD;

    /** Serial of the innermost open block (never reused within an attempt); 0 when none. */
    private int current;
    /** Access-set size when the innermost block opened: entries below it are older. */
    private int currentMark;
    private int serial;

    // Per open block, by depth.
    private int[] serials = new int[4];
    private int[] sizes = new int[4];
    private int[] writes = new int[4];
    private int[] checks = new int[4];
    private int[] trailTops = new int[4];
    private int[] pendingHooks = new int[4];
    private int[] hookCounts = new int[12];
    private int[] localMarks = new int[4];

    // The undo trail: an older entry's pending state before the block first changed it.
    private Entry[] trail = new Entry[8];
    private int[] trailFlags = new int[8];
    private int[] trailKinds = new int[8];
    private Object[] trailRefs = new Object[8];
    private long[] trailLongs = new long[8];
    private TxParticipant[] trailParticipants = new TxParticipant[8];
    private Object[] trailKeys = new Object[8];
    private int trailTop;

    /** The hook counts a block saves (reused). */
    private final int[] hookScratch = new int[3];

    /**
     * Runs a block nested in {@code txn}'s running transaction: if it throws on a consistent
     * state, everything it did is rolled back and the exception reaches the enclosing body, whose
     * transaction goes on; see {@link #failed}.
     */
    <T> T runNested(TxnContext txn, TxnFunction<T> fn, TxnRunnable body) {
        int level = open(txn);
        T result;
        try {
            if (fn != null) {
                result = fn.apply(txn);
            } else {
                body.run(txn);
                result = null;
            }
        } catch (Throwable t) {
            throw failed(txn, level, t);
        }
        merge(level, txn);
        return result;
    }

    /**
     * {@code Txn.orElse}: runs {@code first} as a block; if it retries, rolls the block back
     * (keeping its reads) and runs {@code second} in the enclosing block.
     */
    <T> T orElse(TxnContext txn, TxnFunction<T> first, TxnFunction<T> second) {
        int alternatives = txn.altDepth;
        int level = open(txn);
        txn.altDepth = alternatives + 1;
        try {
            T result = first.apply(txn);
            if (!txn.altRetry) {
                merge(level, txn);
                return result;
            }
        } catch (RollbackSignal s) {
            if (!txn.altRetry) {
                merge(level, txn);
                throw s;
            }
        } catch (Throwable t) {
            // (A body that caught the retry's signal and threw something else: not a retry.)
            txn.altRetry = false;
            txn.altDepth = alternatives;
            throw failed(txn, level, t);
        } finally {
            txn.altDepth = alternatives;
        }
        // The first alternative retried: take back what it did, keep what it read, try the second.
        txn.altRetry = false;
        Throwable hookFailure = rollbackBlock(txn, level, AbortCause.RETRY);
        if (hookFailure != null) {
            throw CommitDriver.sneakyThrow(hookFailure);
        }
        return second.apply(txn);
    }

    /**
     * The block of {@code level} threw {@code t}. A rollback of the whole transaction (the
     * library's signal, a doomed attempt) passes through. Otherwise the reads so far are checked:
     * on a state that no longer validates the exception may be an artefact of it, so the whole
     * transaction rolls back and runs again ({@link AbortCause#INCONSISTENT_READ}); on a
     * consistent state only the block's effects are taken back and {@code t} is rethrown.
     */
    private RuntimeException failed(TxnContext txn, int level, Throwable t) {
        if (t == RollbackSignal.INSTANCE || txn.status != TxnContext.ACTIVE) {
            merge(level, txn);
            throw CommitDriver.sneakyThrow(t);
        }
        boolean current;
        try {
            current = txn.isReadSetCurrent();
        } catch (Throwable bug) {
            merge(level, txn);
            CommitDriver.addSuppressed(t, bug);
            throw CommitDriver.sneakyThrow(t);
        }
        if (!current) {
            merge(level, txn);
            throw txn.rollback(AbortCause.INCONSISTENT_READ);
        }
        CommitDriver.addSuppressed(t, rollbackBlock(txn, level, AbortCause.USER_EXCEPTION));
        throw CommitDriver.sneakyThrow(t);
    }

    /**
     * Rolls the block of {@code level} back: first its after-rollback hooks run with {@code cause}
     * (while they run the transaction refuses to be used, as for a whole attempt's hooks), then its
     * effects are taken back. Returns what the hooks threw, or null.
     */
    private Throwable rollbackBlock(TxnContext txn, int level, AbortCause cause) {
        Throwable failure = null;
        TxnHooks h = txn.hooks();
        if (h != null) {
            txn.status = TxnContext.HOOKS;
            try {
                failure = h.runRollbackFrom(hookCounts[3 * level + 2], cause);
            } finally {
                txn.status = TxnContext.ACTIVE;
            }
        }
        rollback(level, txn);
        return failure;
    }

    /** Opens a block; returns its level, which {@link #merge} or {@link #rollback} closes. */
    private int open(TxnContext txn) {
        TxnHooks h = txn.hooks();
        int[] hooks = hookScratch;
        if (h == null) {
            hooks[0] = 0;
            hooks[1] = 0;
            hooks[2] = 0;
        } else {
            h.counts(hooks);
        }
        int d = txn.openBlocks;
        if (d == serials.length) {
            grow(d * 2);
        }
        serials[d] = ++serial;
        sizes[d] = txn.size();
        writes[d] = txn.writeCount();
        checks[d] = txn.checkCount();
        trailTops[d] = trailTop;
        pendingHooks[d] = txn.pendingHooks;
        hookCounts[3 * d] = hooks[0];
        hookCounts[3 * d + 1] = hooks[1];
        hookCounts[3 * d + 2] = hooks[2];
        localMarks[d] = txn.localsOpen();
        current = serial;
        currentMark = txn.size();
        txn.openBlocks = d + 1;
        return d;
    }

    /**
     * Saves {@code e}'s pending state if it predates the innermost open block and the block has
     * not saved it yet. Call only while a block is open.
     *
     * @return true if it was saved now (the block's first change to an older entry)
     */
    boolean keep(Entry e) {
        if (e.position >= currentMark || e.savedIn == current) {
            return false;
        }
        int t = trailTop;
        if (t == trail.length) {
            growTrail(t * 2);
        }
        trail[t] = e;
        trailFlags[t] = e.flags & WRITE_STATE;
        trailKinds[t] = e.kind;
        trailRefs[t] = e.pendingRef;
        trailLongs[t] = e.pendingLong;
        trailParticipants[t] = e.participant;
        trailKeys[t] = e.key;
        trailTop = t + 1;
        e.savedIn = current;
        return true;
    }

    /** Closes the block of {@code level}, which completed: its effects are now its parent's. */
    private void merge(int level, TxnContext txn) {
        pop(level, txn);
        if (level == 0) {
            clearTrail(0);
            txn.localsClose();
        }
    }

    /** Closes the block of {@code level}, taking back everything it did to the transaction. */
    private void rollback(int level, TxnContext txn) {
        // Older entries: newest record first, so each ends with the state its oldest record saved.
        int bottom = trailTops[level];
        for (int t = trailTop - 1; t >= bottom; t--) {
            Entry e = trail[t];
            e.flags = (e.flags & ~WRITE_STATE) | trailFlags[t];
            e.kind = trailKinds[t];
            e.pendingRef = trailRefs[t];
            e.pendingLong = trailLongs[t];
            e.participant = trailParticipants[t];
            e.key = trailKeys[t];
            e.savedIn = 0;
        }
        clearTrail(bottom);
        // Entries the block created keep their reads (and read locks) only.
        int mark = sizes[level];
        for (int i = mark, n = txn.size(); i < n; i++) {
            Entry e = txn.at(i);
            int f = e.flags & ~WRITE_STATE;
            e.flags = (f & Entry.LOCKED) != 0 ? f : f & ~Entry.INSERT;
            e.kind = Entry.KIND_NONE;
            e.pendingRef = null;
            e.pendingLong = 0;
            e.participant = null;
            e.key = null;
        }
        // Items the block locked at their first write stay locked until the transaction ends.
        int from = writes[level];
        int w = from;
        for (int k = from, n = txn.writeCount(); k < n; k++) {
            Entry e = txn.writeAt(k);
            if ((e.flags & Entry.LOCKED) != 0) {
                e.flags |= Entry.HELD;
                e.kind = Entry.KIND_NONE;
                txn.putWrite(w++, e);
            }
        }
        txn.truncateWrites(w);
        txn.truncateChecks(checks[level]);
        txn.pendingHooks = pendingHooks[level];
        TxnHooks h = txn.hooks();
        if (h != null) {
            h.truncate(hookCounts[3 * level], hookCounts[3 * level + 1], hookCounts[3 * level + 2]);
        }
        txn.localsRollback(localMarks[level]);
        pop(level, txn);
        if (level == 0) {
            txn.localsClose();
        }
    }

    /** Forgets every open block (the attempt ended). */
    void reset(TxnContext txn) {
        if (txn.openBlocks != 0 || trailTop != 0) {
            txn.openBlocks = 0;
            current = 0;
            currentMark = 0;
            clearTrail(0);
        }
    }

    private void pop(int level, TxnContext txn) {
        txn.openBlocks = level;
        if (level == 0) {
            current = 0;
            currentMark = 0;
        } else {
            current = serials[level - 1];
            currentMark = sizes[level - 1];
        }
    }

    private void clearTrail(int bottom) {
        if (trailTop > bottom) {
            Arrays.fill(trail, bottom, trailTop, null);
            Arrays.fill(trailRefs, bottom, trailTop, null);
            Arrays.fill(trailParticipants, bottom, trailTop, null);
            Arrays.fill(trailKeys, bottom, trailTop, null);
            trailTop = bottom;
        }
    }

    private void grow(int cap) {
        int[] a = Arrays.copyOf(serials, cap);
        int[] b = Arrays.copyOf(sizes, cap);
        int[] c = Arrays.copyOf(writes, cap);
        int[] d = Arrays.copyOf(checks, cap);
        int[] e = Arrays.copyOf(trailTops, cap);
        int[] f = Arrays.copyOf(pendingHooks, cap);
        int[] g = Arrays.copyOf(hookCounts, cap * 3);
        int[] h = Arrays.copyOf(localMarks, cap);
        serials = a;
        sizes = b;
        writes = c;
        checks = d;
        trailTops = e;
        pendingHooks = f;
        hookCounts = g;
        localMarks = h;
    }

    private void growTrail(int cap) {
        Entry[] a = Arrays.copyOf(trail, cap);
        int[] b = Arrays.copyOf(trailFlags, cap);
        int[] c = Arrays.copyOf(trailKinds, cap);
        Object[] d = Arrays.copyOf(trailRefs, cap);
        long[] e = Arrays.copyOf(trailLongs, cap);
        TxParticipant[] f = Arrays.copyOf(trailParticipants, cap);
        Object[] g = Arrays.copyOf(trailKeys, cap);
        trail = a;
        trailFlags = b;
        trailKinds = c;
        trailRefs = d;
        trailLongs = e;
        trailParticipants = f;
        trailKeys = g;
    }
}
