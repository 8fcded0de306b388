package io.jato.protocols.twophase;

import io.jato.stm.AbortCause;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import static io.jato.protocols.twophase.RwLockWord.RETIRED;

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
 * Conflicts are resolved by the store's DeadlockPolicy, and the escalated transaction waits for
 * every transactional holder: RwLocks, which the adaptive lock shares, has the rules and why no
 * deadlock can form.
 *
 * Phantoms: data types observe a version of what a lookup or scan depended on (the absence stripe
 * of a hash-map key found absent, every sorted-map leaf a scan or absent lookup visited) and write
 * that version when they insert, so under 2PL a lookup's shared lock on the stripe or leaf excludes
 * every insert of a key it covers until the reader finishes (see docs/lock-family.md).
 */

/** One store's 2PL instance. Thread-safe; one instance serves every thread of the store. */
public final class TwoPhaseControl extends RwLockControl {
    TwoPhaseControl(ProtocolContext context, DeadlockPolicy policy, int waitSpins) {
        super(context, policy, waitSpins);
    }

    @Override
    public String name() {
        return TwoPhaseProtocol.NAME;
    }

    /** @return the store's deadlock policy */
    public DeadlockPolicy policy() {
        return locks.policy();
    }

    @Override
    public Object newTxnState(TxnContext txn) {
        return new RwLockState();
    }

    @Override
    public void begin(TxnContext txn) {
        state(txn).begin(txn);
    }

    private RwLockState state(TxnContext txn) {
        return (RwLockState) txn.ccState(stateSlot);
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
        int outcome = locks.lockShared(item, e, state(txn));
        if (outcome == RwLocks.BUSY) {
            throw txn.rollback(AbortCause.READ_BUSY);
        }
        e.setObserved(outcome == RwLocks.RETIRED_ITEM ? RETIRED : 0);
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
        switch (locks.lockExclusive(e, state(txn))) {
            case RwLocks.RETIRED_ITEM:
                return AbortCause.DELETED;
            case RwLocks.BUSY:
                return AbortCause.LOCK_BUSY;
            default:
                return null;
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

    // ------------------------------------------------------------------ non-transactional

    @Override
    public void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire) {
        long free = RwLockWord.released(lockedWord, changed);
        Items.setWordRelease(item, retire ? free | RETIRED : free);
    }

    // ------------------------------------------------------------------ diagnostics

    @Override
    public String checkQuiescent(TxItem item) {
        return RwLocks.checkFree(Items.wordVolatile(item));
    }
}
