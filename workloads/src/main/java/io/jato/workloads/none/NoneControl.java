package io.jato.workloads.none;

import io.jato.stm.AbortCause;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

/*
 * What is left when concurrency control is taken away: transactions still run through the same
 * TxnContext (access set, buffered writes, read-your-own-writes, rollback on user abort, commit-time
 * updaters applied at commit) - that is the data types' and the workload's own cost - but reads
 * record no version, nothing is locked or validated, and no version word is ever written. Correct
 * only with a single thread, which newTxnState enforces: a store running this protocol refuses a
 * second thread.
 */

/** The {@code none} protocol: no versions, no locks, no validation; single-threaded only. */
final class NoneControl extends ConcurrencyControl {
    /** The one thread allowed to run transactions; set by the first. */
    private volatile Thread owner;

    @Override
    public String name() {
        return NoneProtocol.NAME;
    }

    @Override
    public synchronized Object newTxnState(TxnContext txn) {
        Thread t = Thread.currentThread();
        if (owner != null && owner != t) {
            throw new IllegalStateException("protocol 'none' has no concurrency control and runs on one thread only;"
                    + " thread '" + t.getName() + "' is the second (the first was '" + owner.getName() + "')");
        }
        owner = t;
        return null;
    }

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        return item.valueAcquire();
    }

    /** No concurrency control: the same read as {@link #readRef}, without the entry. */
    @Override
    public Object readUnchangingRef(TxnContext txn, RefItem item) {
        return item.valueAcquire();
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        return item.valueAcquire();
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
    }

    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        return true;
    }

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        return null;
    }

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        return 0L;
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        return null;
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
    }

    @Override
    public long lockNonTx(TxItem item) {
        return 0L;
    }

    @Override
    public void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire) {
    }

    @Override
    public Object loadRef(RefItem item) {
        return item.valueAcquire();
    }

    @Override
    public long loadLong(LongItem item) {
        return item.valueAcquire();
    }

    @Override
    public boolean isLocked(TxItem item) {
        return false;
    }

    @Override
    public boolean isRetired(TxItem item) {
        return false;
    }

    @Override
    public String checkQuiescent(TxItem item) {
        return null;
    }
}
