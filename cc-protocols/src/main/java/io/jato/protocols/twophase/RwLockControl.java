package io.jato.protocols.twophase;

import io.jato.stm.AbortCause;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

/**
 * What the protocols whose primary word is an {@link RwLockWord} share (2PL and the adaptive
 * lock): the store's {@link RwLocks}, non-transactional locks and loads, the release of an
 * attempt's shared locks, and the diagnostics. Thread-safe; one instance serves every thread of
 * the store. Each store still runs one concrete class, so the hooks stay monomorphic.
 */
public abstract class RwLockControl extends ConcurrencyControl {
    /** The store's lock-taking rules. */
    protected final RwLocks locks;
    protected final ProtocolContext context;
    /** Where the per-transaction {@link RwLockState} is ({@link TxnContext#ccState(int)}). */
    protected final int stateSlot;

    protected RwLockControl(ProtocolContext context, DeadlockPolicy policy, int waitSpins) {
        this.locks = new RwLocks(policy, waitSpins);
        this.context = context;
        this.stateSlot = context.stateSlot();
    }

    /** Releases the exclusive lock an aborting attempt took, restoring the item's version. */
    @Override
    public final void unlock(TxnContext txn, Entry e) {
        Items.setWordRelease(e.item(), RwLockWord.released(e.lockedWord(), false));
    }

    /** Releases the attempt's shared locks, committed or not. */
    @Override
    public final void finish(TxnContext txn, boolean committed, AbortCause cause) {
        releaseSharedLocks(txn, (RwLockState) txn.ccState(stateSlot), committed);
    }

    /**
     * Releases the shared lock of every entry of this protocol that holds one (flag
     * {@code PROTOCOL_FLAG_0}), stopping once {@code s} counts none; calls {@link #releasedShared}
     * for each.
     */
    private void releaseSharedLocks(TxnContext txn, RwLockState s, boolean committed) {
        for (int i = 0, n = txn.size(); s.shared() > 0 && i < n; i++) {
            Entry e = txn.entryAt(i);
            if (e.has(Entry.PROTOCOL_FLAG_0) && context.owns(e)) {
                RwLocks.releaseShared(e.item());
                e.clearFlags(Entry.PROTOCOL_FLAG_0);
                s.releasedShared();
                releasedShared(s, e.item(), committed);
            }
        }
    }

    /** Called after one shared lock of the attempt was released; nothing by default. */
    protected void releasedShared(RwLockState s, TxItem item, boolean committed) {
    }

    @Override
    public final long lockNonTx(TxItem item) {
        return RwLocks.lockNonTx(item);
    }

    @Override
    public final long tryLockNonTx(TxItem item) {
        return RwLocks.tryLockNonTx(item);
    }

    @Override
    public final Object loadRef(RefItem item) {
        return RwLocks.loadRef(item);
    }

    @Override
    public final long loadLong(LongItem item) {
        return RwLocks.loadLong(item);
    }

    @Override
    public final boolean isLocked(TxItem item) {
        return RwLockWord.isHeld(Items.wordVolatile(item));
    }

    @Override
    public final boolean isRetired(TxItem item) {
        return RwLockWord.isRetired(Items.wordVolatile(item));
    }
}
