package io.jato.protocols.twophase;

import io.jato.protocols.wait.Waits;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;

import static io.jato.protocols.twophase.RwLockWord.PRIORITY;
import static io.jato.protocols.twophase.RwLockWord.RETIRED;
import static io.jato.protocols.twophase.RwLockWord.WRITER;

/*
 * Taking and waiting for RwLockWord locks, shared by 2PL (TwoPhaseControl) and the adaptive lock
 * (io.jato.protocols.adaptive), which takes the same locks for its pessimistic accesses and its
 * commit-time write locks.
 *
 * Conflicts are resolved by the store's DeadlockPolicy: no-wait aborts at once; wait-die lets a
 * requester wait only when its age is at most the word's holder-age field (a lower bound of the
 * holders' ages), i.e. when it is older than every holder - so every wait-for edge goes from an
 * older to a younger transaction and no cycle can form. The ages are the transactions' store-wide
 * ages (TxnContext.age), not a sequence of this instance's: a store whose objects are bound to 2PL
 * and the adaptive lock holds one RwLocks per protocol, and a transaction must be equally old in
 * both, or two transactions could each be the older one in a different protocol and wait for each
 * other (MixedWaitDieTest). A waiter also stops when another protocol asked its attempt to abort
 * (SwissTM's contention manager, which may be waiting for a lock the waiter holds;
 * MixedGreedyWaitTest). Waiting is still bounded (waitSpins), so a writer that a stream of
 * younger readers keeps out aborts and, after enough aborts, escalates.
 * Holders outside transactions (lockNonTx, one-item loads) record the largest age. An exclusive one
 * may wait while holding (a record's write of several groups locks them one by one), so everyone,
 * the escalated transaction included, waits for it only NON_TX_POLLS polls. The escalated
 * transaction (one per store at a time) has age 1: it waits for every transactional holder without
 * bound and marks an item it waits to write PRIORITY so that no new holder joins; every other
 * transaction dies rather than wait for it. Nobody waits for it, and it waits only for transactions
 * that finish (no other writing commit passes the escalation check), so it cannot deadlock.
 */

/**
 * One store's lock-taking rules for {@link RwLockWord} words: the deadlock policy, the wait bound
 * and the wait-die age counter. Thread-safe; one instance serves every thread of the store. The
 * acquire methods answer with an outcome code instead of throwing, so that each protocol chooses
 * its abort cause and can count the conflicts it met.
 */
public final class RwLocks {
    /** Outcome: the lock was taken without meeting a conflicting holder. */
    public static final int ACQUIRED = 0;
    /** Outcome: the lock was taken after waiting for a conflicting holder. */
    public static final int ACQUIRED_AFTER_WAIT = 1;
    /** Outcome: the item is retired; nothing was taken (its value is final). */
    public static final int RETIRED_ITEM = 2;
    /** Outcome: the policy refused to wait (any longer) for a conflicting holder; nothing was taken. */
    public static final int BUSY = 3;

    /** Polls of a lock held outside transactions before a requester gives up (such holders may wait while holding). */
    private static final int NON_TX_POLLS = 256;

    private final DeadlockPolicy policy;
    /** Polls of a lock held by younger transactions before a wait-die requester gives up. */
    private final int waitSpins;

    public RwLocks(DeadlockPolicy policy, int waitSpins) {
        if (waitSpins < 1) {
            throw new IllegalArgumentException("waitSpins must be at least 1, was " + waitSpins);
        }
        this.policy = policy;
        this.waitSpins = waitSpins;
    }

    /** @return the deadlock policy */
    public DeadlockPolicy policy() {
        return policy;
    }

    /**
     * The age this attempt's locks record: the transaction's store-wide age shifted past the
     * reserved ages (looked up at the first lock), 1 if escalated, the no-wait age under no-wait.
     */
    private long age(RwLockState s) {
        if (s.escalated) {
            return RwLockWord.ESCALATED_AGE;
        }
        if (policy == DeadlockPolicy.NO_WAIT) {
            return RwLockWord.NO_WAIT_AGE;
        }
        long a = s.age;
        if (a == 0) {
            a = Math.min(s.txn.age() + RwLockWord.NO_WAIT_AGE, RwLockWord.MAX_AGE);
            s.age = a;
        }
        return a;
    }

    /**
     * Takes the shared lock of {@code item} for {@code e}: on success flags the entry
     * {@code PROTOCOL_FLAG_0} and counts it in {@code s}. The caller checked that the entry holds
     * no lock of the item yet.
     *
     * @return {@link #ACQUIRED}, {@link #ACQUIRED_AFTER_WAIT}, {@link #RETIRED_ITEM} or {@link #BUSY}
     */
    public int lockShared(TxItem item, Entry e, RwLockState s) {
        for (int spins = 0;; spins++) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0) {
                return RETIRED_ITEM;
            }
            if ((w & (WRITER | PRIORITY)) == 0 && !RwLockWord.readersFull(w)) {
                if (Items.casWord(item, w, RwLockWord.joinShared(w, age(s)))) {
                    e.addFlags(Entry.PROTOCOL_FLAG_0);
                    s.shared++;
                    return spins == 0 ? ACQUIRED : ACQUIRED_AFTER_WAIT;
                }
                continue;
            }
            if (!mayWait(s, w, spins)) {
                return BUSY;
            }
            Waits.pause(spins);
        }
    }

    /**
     * Takes the exclusive lock of {@code e}'s item, upgrading the entry's own shared lock when it
     * holds one (flag {@code PROTOCOL_FLAG_0}); on success records the word it replaced as the
     * entry's locked word and sets {@code Entry.LOCKED}.
     *
     * @return {@link #ACQUIRED}, {@link #ACQUIRED_AFTER_WAIT}, {@link #RETIRED_ITEM} (a committed
     *         delete retired the item) or {@link #BUSY}
     */
    public int lockExclusive(Entry e, RwLockState s) {
        TxItem item = e.item();
        boolean upgrade = e.has(Entry.PROTOCOL_FLAG_0);
        int own = upgrade ? 1 : 0;
        for (int spins = 0;; spins++) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0) {
                return RETIRED_ITEM;
            }
            if ((w & WRITER) == 0 && RwLockWord.readers(w) == own
                    && ((w & PRIORITY) == 0 || s.escalated)) {
                if (Items.casWord(item, w, RwLockWord.exclusive(w, age(s)))) {
                    if (upgrade) {
                        e.clearFlags(Entry.PROTOCOL_FLAG_0);
                        s.shared--;
                    }
                    e.setLockedWord(w);
                    e.addFlags(Entry.LOCKED);
                    return spins == 0 ? ACQUIRED : ACQUIRED_AFTER_WAIT;
                }
                continue;
            }
            if (!mayWait(s, w, spins)) {
                if (s.escalated) {
                    clearPriority(item);
                }
                return BUSY;
            }
            if (s.escalated && (w & (PRIORITY | WRITER)) == 0) {
                // Keep new holders out while the readers drain (only the escalated attempt marks).
                Items.casWord(item, w, w | PRIORITY);
            }
            Waits.pause(spins);
        }
    }

    /**
     * The deadlock policy: may a requester that met the conflicting word {@code w} after
     * {@code spins} polls keep waiting? The escalated transaction always may; a word the escalated
     * transaction holds or waits for sends everyone else away; otherwise no-wait never waits and
     * wait-die waits, boundedly, only for younger holders (and briefly for non-transactional ones).
     */
    public boolean mayWait(RwLockState s, long w, int spins) {
        if (RwLockWord.isNonTxWriter(w)) {
            // It may be waiting for a lock of ours (a record's multi-group write): bounded for all.
            return spins < NON_TX_POLLS;
        }
        if (s.escalated) {
            return true;
        }
        if (s.txn.abortRequested()) {
            // Another protocol of the store (SwissTM's contention manager) asked this attempt to
            // give way, and may be waiting for a lock it holds: stop waiting, and abort.
            return false;
        }
        if (policy == DeadlockPolicy.NO_WAIT || (w & PRIORITY) != 0) {
            return false;
        }
        long holder = RwLockWord.age(w);
        return holder != RwLockWord.ESCALATED_AGE && age(s) <= holder && spins < waitSpins;
    }

    /** The escalated attempt gave up waiting (a non-transactional holder): take its mark back. */
    private static void clearPriority(TxItem item) {
        for (;;) {
            long w = Items.wordVolatile(item);
            if ((w & PRIORITY) == 0 || Items.casWord(item, w, w & ~PRIORITY)) {
                return;
            }
        }
    }

    /** Releases one shared lock of {@code item} (a CAS loop: other readers join and leave meanwhile). */
    public static void releaseShared(TxItem item) {
        for (;;) {
            long w = Items.wordVolatile(item);
            if (Items.casWord(item, w, RwLockWord.leaveShared(w))) {
                return;
            }
        }
    }

    /**
     * Takes the exclusive lock of {@code item} for a write outside transactions, waiting as long
     * as needed (such a holder records the largest age, so transactions wait for it only briefly).
     *
     * @return the word it replaced, or {@code ConcurrencyControl.RETIRED_ITEM} for a retired item
     */
    public static long lockNonTx(TxItem item) {
        return lockNonTx(item, Integer.MAX_VALUE);
    }

    /**
     * {@link #lockNonTx} without waiting beyond spin hints: the caller holds other items' locks
     * (ConcurrencyControl.tryLockNonTx), and the holder may be a transaction waiting for one of them.
     *
     * @return as {@link #lockNonTx}, or {@code ConcurrencyControl.NON_TX_BUSY} if held
     */
    public static long tryLockNonTx(TxItem item) {
        return lockNonTx(item, Waits.SPIN_POLLS);
    }

    private static long lockNonTx(TxItem item, int maxPolls) {
        for (int polls = 0;; polls++) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0) {
                return ConcurrencyControl.RETIRED_ITEM;
            }
            if (!RwLockWord.isHeld(w) && (w & PRIORITY) == 0
                    && Items.casWord(item, w, RwLockWord.exclusive(w, RwLockWord.NON_TX_AGE))) {
                return w;
            }
            if (polls >= maxPolls) {
                return ConcurrencyControl.NON_TX_BUSY;
            }
            Waits.pause(polls);
        }
    }

    /** A one-item load's shared lock (it never waits while holding); false for a retired item, which needs none. */
    private static boolean lockSharedNonTx(TxItem item) {
        for (int spins = 0;; spins++) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0) {
                return false;
            }
            if ((w & (WRITER | PRIORITY)) == 0 && !RwLockWord.readersFull(w)
                    && Items.casWord(item, w, RwLockWord.joinShared(w, RwLockWord.NON_TX_AGE))) {
                return true;
            }
            Waits.pause(spins);
        }
    }

    /** Reads {@code item}'s committed value outside transactions, under a momentary shared lock. */
    public static Object loadRef(RefItem item) {
        boolean held = lockSharedNonTx(item);
        try {
            return item.valueAcquire();
        } finally {
            if (held) {
                releaseShared(item);
            }
        }
    }

    /** The {@code long} form of {@link #loadRef}. */
    public static long loadLong(LongItem item) {
        boolean held = lockSharedNonTx(item);
        try {
            return item.valueAcquire();
        } finally {
            if (held) {
                releaseShared(item);
            }
        }
    }

    /** @return null if {@code w} is a free, unmarked word, else what is wrong (for {@code checkQuiescent}) */
    public static String checkFree(long w) {
        if (RwLockWord.isHeld(w) || (w & PRIORITY) != 0 || RwLockWord.age(w) != 0) {
            return "lock still held or marked: " + RwLockWord.describe(w);
        }
        return null;
    }
}
