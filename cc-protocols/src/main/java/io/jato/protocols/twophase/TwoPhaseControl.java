package io.jato.protocols.twophase;

import io.jato.protocols.clock.StoreCounter;
import io.jato.protocols.wait.Waits;
import io.jato.stm.AbortCause;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import static io.jato.protocols.twophase.RwLockWord.PRIORITY;
import static io.jato.protocols.twophase.RwLockWord.RETIRED;
import static io.jato.protocols.twophase.RwLockWord.WRITER;

/*
 * Strict two-phase locking with reader-writer locks (seed 000 §3.2), taken at access time:
 *
 *  - a read (readRef, readLong, observe) takes the item's shared lock before it loads the value and
 *    flags the entry PROTOCOL_FLAG_0; a retired item is read without a lock (its value is final);
 *  - the first write of an entry (onWrite) takes the exclusive lock, upgrading the transaction's own
 *    shared lock when it has one, and sets Entry.LOCKED; the driver's lock phase then finds every
 *    write locked (lock() exists for an entry that became a write some other way);
 *  - the commit driver's phases: lock has nothing left to do, the timestamp is irrelevant (2PL
 *    orders transactions by the real time of their lock points), validation is trivial (every read
 *    is locked), install writes under the exclusive locks, publish releases each exclusive lock;
 *  - finish releases the shared locks, committed or not; unlock (abort before install) releases an
 *    exclusive lock. Locks are never released before the attempt ends, so the schedule is strict.
 *
 * Readers never see uncommitted data: values are installed only under the exclusive lock, which
 * excludes every shared holder, and released after the last install of the commit.
 *
 * Conflicts are resolved by the store's DeadlockPolicy: no-wait aborts at once; wait-die lets a
 * requester wait only when its age is at most the word's holder-age field (a lower bound of the
 * holders' ages), i.e. when it is older than every holder - so every wait-for edge goes from an
 * older to a younger transaction and no cycle can form. Waiting is still bounded (waitSpins), so a
 * writer that a stream of younger readers keeps out aborts and, after enough aborts, escalates.
 * Holders outside transactions (lockNonTx, loadRef) record the largest age. An exclusive one may
 * wait while holding (a record's write of several groups locks them one by one), so everyone, the
 * escalated transaction included, waits for it only NON_TX_POLLS polls. The escalated transaction
 * (TxnContext.isEscalated, one per store at a time) has age 1: it waits for every transactional
 * holder without bound and marks an item it waits to write PRIORITY so that no new holder joins;
 * every other transaction dies rather than wait for it. Nobody waits for it, and it waits only for
 * transactions that finish (no other writing commit passes the escalation check), so it cannot
 * deadlock.
 *
 * Phantoms: data types observe a version of what a lookup or scan depended on (the absence stripe
 * of a hash-map key found absent, every sorted-map leaf a scan or absent lookup visited) and write
 * that version when they insert, so under 2PL a lookup's shared lock on the stripe or leaf excludes
 * every insert of a key it covers until the reader finishes (see docs/lock-family.md).
 */

/** One store's 2PL instance. Thread-safe; one instance serves every thread of the store. */
public final class TwoPhaseControl extends ConcurrencyControl {
    private final DeadlockPolicy policy;
    /** Polls of a lock held outside transactions before a requester gives up (such holders may wait while holding). */
    private static final int NON_TX_POLLS = 256;
    /** Polls of a lock held by younger transactions before a wait-die requester gives up. */
    private final int waitSpins;
    private final ProtocolContext context;
    private final int stateSlot;
    /** Wait-die ages (2 and up: 1 is the escalated transaction's). */
    private final StoreCounter ages = new StoreCounter(RwLockWord.NO_WAIT_AGE);

    TwoPhaseControl(ProtocolContext context, DeadlockPolicy policy, int waitSpins) {
        this.policy = policy;
        this.waitSpins = waitSpins;
        this.context = context;
        this.stateSlot = context.stateSlot();
    }

    @Override
    public String name() {
        return TwoPhaseProtocol.NAME;
    }

    /** @return the store's deadlock policy */
    public DeadlockPolicy policy() {
        return policy;
    }

    @Override
    public Object newTxnState(TxnContext txn) {
        return new TwoPhaseTxnState();
    }

    @Override
    public void begin(TxnContext txn) {
        TwoPhaseTxnState s = state(txn);
        if (txn.attempt() == 0) {
            s.age = 0;
        }
        s.shared = 0;
        s.escalated = txn.isEscalated();
    }

    private TwoPhaseTxnState state(TxnContext txn) {
        return (TwoPhaseTxnState) txn.ccState(stateSlot);
    }

    /** The age this attempt's locks record: wait-die's (taken at the first lock), 1 if escalated. */
    private long age(TwoPhaseTxnState s) {
        if (s.escalated) {
            return RwLockWord.ESCALATED_AGE;
        }
        if (policy == DeadlockPolicy.NO_WAIT) {
            return RwLockWord.NO_WAIT_AGE;
        }
        long a = s.age;
        if (a == 0) {
            a = Math.min(ages.next(), RwLockWord.MAX_AGE);
            s.age = a;
        }
        return a;
    }

    // ------------------------------------------------------------------ execution-time reads

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        lockShared(txn, item, e);
        return item.valueAcquire();
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        lockShared(txn, item, e);
        return item.valueAcquire();
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        lockShared(txn, item, e);
    }

    /**
     * Takes the shared lock of {@code item} for {@code e} unless the entry already holds a lock of
     * the item (its own exclusive lock: the own-lock read contract) or the item is retired.
     */
    private void lockShared(TxnContext txn, TxItem item, Entry e) {
        if ((e.flags() & (Entry.LOCKED | Entry.PROTOCOL_FLAG_0)) != 0) {
            e.setObserved(0);
            return;
        }
        TwoPhaseTxnState s = state(txn);
        for (int spins = 0;; spins++) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0) {
                e.setObserved(RETIRED);
                return;
            }
            if ((w & (WRITER | PRIORITY)) == 0 && !RwLockWord.readersFull(w)) {
                if (Items.casWord(item, w, RwLockWord.joinShared(w, age(s)))) {
                    e.addFlags(Entry.PROTOCOL_FLAG_0);
                    e.setObserved(0);
                    s.shared++;
                    return;
                }
                continue;
            }
            if (!mayWait(s, w, spins)) {
                throw txn.rollback(AbortCause.READ_BUSY);
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
    private boolean mayWait(TwoPhaseTxnState s, long w, int spins) {
        if (RwLockWord.isNonTxWriter(w)) {
            // It may be waiting for a lock of ours (a record's multi-group write): bounded for all.
            return spins < NON_TX_POLLS;
        }
        if (s.escalated) {
            return true;
        }
        if (policy == DeadlockPolicy.NO_WAIT || (w & PRIORITY) != 0) {
            return false;
        }
        long holder = RwLockWord.age(w);
        return holder != RwLockWord.ESCALATED_AGE && age(s) <= holder && spins < waitSpins;
    }

    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        // Every read holds its item's lock until the attempt ends, or read a retired (final) item.
        return true;
    }

    // ------------------------------------------------------------------ writes and commit

    @Override
    public AbortCause onWrite(TxnContext txn, Entry e) {
        return lockExclusive(txn, e);
    }

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        return lockExclusive(txn, e);
    }

    /** Takes (or upgrades to) the exclusive lock of {@code e}'s item; null or the cause to abort with. */
    private AbortCause lockExclusive(TxnContext txn, Entry e) {
        if (e.has(Entry.LOCKED)) {
            return null;
        }
        TxItem item = e.item();
        TwoPhaseTxnState s = state(txn);
        boolean upgrade = e.has(Entry.PROTOCOL_FLAG_0);
        int own = upgrade ? 1 : 0;
        for (int spins = 0;; spins++) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0) {
                return AbortCause.DELETED;
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
                    return null;
                }
                continue;
            }
            if (!mayWait(s, w, spins)) {
                if (s.escalated) {
                    clearPriority(item);
                }
                return AbortCause.LOCK_BUSY;
            }
            if (s.escalated && (w & (PRIORITY | WRITER)) == 0) {
                // Keep new holders out while the readers drain (only the escalated attempt marks).
                Items.casWord(item, w, w | PRIORITY);
            }
            Waits.pause(spins);
        }
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

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        // Ordered by lock points, not timestamps; nothing reads it.
        return 0L;
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        return null;
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        // Installed under the exclusive lock; releasing it is the new version. A deleted item stays
        // retired and is never locked again.
        long free = RwLockWord.released(e.lockedWord(), true);
        Items.setWordRelease(e.item(), e.has(Entry.RETIRE) ? free | RETIRED : free);
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        Items.setWordRelease(e.item(), RwLockWord.released(e.lockedWord(), false));
    }

    @Override
    public void finish(TxnContext txn, boolean committed, AbortCause cause) {
        TwoPhaseTxnState s = state(txn);
        for (int i = 0, n = txn.size(); s.shared > 0 && i < n; i++) {
            Entry e = txn.entryAt(i);
            if (e.has(Entry.PROTOCOL_FLAG_0) && context.owns(e)) {
                releaseShared(e.item());
                e.clearFlags(Entry.PROTOCOL_FLAG_0);
                s.shared--;
            }
        }
        s.shared = 0;
    }

    private static void releaseShared(TxItem item) {
        for (;;) {
            long w = Items.wordVolatile(item);
            if (Items.casWord(item, w, RwLockWord.leaveShared(w))) {
                return;
            }
        }
    }

    // ------------------------------------------------------------------ non-transactional

    @Override
    public long lockNonTx(TxItem item) {
        for (int spins = 0;; spins++) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0) {
                return RETIRED_ITEM;
            }
            if (!RwLockWord.isHeld(w) && (w & PRIORITY) == 0
                    && Items.casWord(item, w, RwLockWord.exclusive(w, RwLockWord.NON_TX_AGE))) {
                return w;
            }
            Waits.pause(spins);
        }
    }

    @Override
    public void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire) {
        long free = RwLockWord.released(lockedWord, changed);
        Items.setWordRelease(item, retire ? free | RETIRED : free);
    }

    @Override
    public Object loadRef(RefItem item) {
        boolean held = lockSharedNonTx(item);
        try {
            return item.valueAcquire();
        } finally {
            if (held) {
                releaseShared(item);
            }
        }
    }

    @Override
    public long loadLong(LongItem item) {
        boolean held = lockSharedNonTx(item);
        try {
            return item.valueAcquire();
        } finally {
            if (held) {
                releaseShared(item);
            }
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

    // ------------------------------------------------------------------ diagnostics

    @Override
    public boolean isLocked(TxItem item) {
        return RwLockWord.isHeld(Items.wordVolatile(item));
    }

    @Override
    public boolean isRetired(TxItem item) {
        return RwLockWord.isRetired(Items.wordVolatile(item));
    }

    @Override
    public String checkQuiescent(TxItem item) {
        long w = Items.wordVolatile(item);
        if (RwLockWord.isHeld(w) || (w & PRIORITY) != 0 || RwLockWord.age(w) != 0) {
            return "lock still held or marked: " + RwLockWord.describe(w);
        }
        return null;
    }
}
