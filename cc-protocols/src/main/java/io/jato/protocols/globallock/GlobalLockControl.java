package io.jato.protocols.globallock;

import io.jato.stm.AbortCause;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import java.util.concurrent.locks.ReentrantLock;

/*
 * The simplest correct protocol: every transaction attempt holds one store-wide lock from begin to
 * finish, so transactions run one at a time and nothing needs validating. It exists as the oracle
 * of differential tests (STYLE: "a trivially correct protocol serves as the oracle") and as proof
 * that a protocol with execution-time locking plugs into the core through begin/finish alone.
 *
 * Item word: bit 0 = RETIRED, bits 1..63 = version (the store clock at the item's last write).
 * The clock is guarded by the lock.
 */

/** One store's global-lock protocol instance. Thread-safe. */
public final class GlobalLockControl extends ConcurrencyControl {
    private static final long RETIRED = 1L;

    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}. */
    private long clock;

    @Override
    public String name() {
        return GlobalLockProtocol.NAME;
    }

    @Override
    public void begin(TxnContext txn) {
        lock.lock();
    }

    @Override
    public void finish(TxnContext txn, boolean committed, AbortCause cause) {
        lock.unlock();
    }

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        e.setObserved(Items.wordAcquire(item));
        return item.valueAcquire();
    }

    /** Transactions run one at a time, so a value nobody can change again needs no version. */
    @Override
    public Object readUnchangingRef(TxnContext txn, RefItem item) {
        return item.valueAcquire();
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        e.setObserved(Items.wordAcquire(item));
        return item.valueAcquire();
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        e.setObserved(Items.wordAcquire(item));
    }

    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        return true;
    }

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        if ((Items.wordAcquire(e.item()) & RETIRED) != 0) {
            return AbortCause.DELETED;
        }
        return null;
    }

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        return readOnly ? clock : ++clock;
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        return null;
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        long w = commitTimestamp << 1;
        if (e.has(Entry.RETIRE)) {
            w |= RETIRED;
        }
        Items.setWordRelease(e.item(), w);
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        // Items are never locked individually.
    }

    @Override
    public long lockNonTx(TxItem item) {
        lock.lock();
        long w = Items.wordAcquire(item);
        if ((w & RETIRED) != 0) {
            lock.unlock();
            return RETIRED_ITEM;
        }
        return w;
    }

    @Override
    public void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire) {
        try {
            long w = changed ? (++clock) << 1 : lockedWord;
            if (retire) {
                w |= RETIRED;
            }
            Items.setWordRelease(item, w);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Object loadRef(RefItem item) {
        lock.lock();
        try {
            return item.valueAcquire();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long loadLong(LongItem item) {
        lock.lock();
        try {
            return item.valueAcquire();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isLocked(TxItem item) {
        return false;
    }

    @Override
    public boolean isRetired(TxItem item) {
        return (Items.wordAcquire(item) & RETIRED) != 0;
    }

    @Override
    public String checkQuiescent(TxItem item) {
        return lock.isLocked() ? "the store-wide lock is still held" : null;
    }
}
