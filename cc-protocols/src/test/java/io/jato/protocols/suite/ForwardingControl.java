package io.jato.protocols.suite;

import io.jato.stm.AbortCause;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import java.util.ServiceLoader;

/**
 * A protocol that forwards every hook to a real one; test protocols extend it and override the
 * hooks they break or observe. Every hook of {@link ConcurrencyControl} is forwarded, so a test
 * protocol built on it behaves exactly like the wrapped one apart from its overrides.
 */
public abstract class ForwardingControl extends ConcurrencyControl {
    protected final ConcurrencyControl inner;

    protected ForwardingControl(ConcurrencyControl inner) {
        this.inner = inner;
    }

    /**
     * @return a new instance of the registered protocol {@code name}, in a child context of the
     *         wrapper's (its own options at their defaults); found by name: OCC's classes are
     *         internal to stm-core
     */
    public static ConcurrencyControl create(String name, ProtocolContext context) {
        for (Protocol p : ServiceLoader.load(Protocol.class, ForwardingControl.class.getClassLoader())) {
            if (p.name().equals(name)) {
                return p.create(context.child(p));
            }
        }
        throw new IllegalStateException("protocol '" + name + "' not found");
    }

    @Override
    public boolean ordersByTimestamp() {
        return inner.ordersByTimestamp();
    }

    @Override
    public boolean validatesEveryRead() {
        return inner.validatesEveryRead();
    }

    /**
     * Declared, not forwarded: a test protocol intercepts the read and validate hooks (to inject
     * faults, break validation, serve older versions), and word-logged reads would bypass them, so
     * its read-only transactions keep entries. The word hooks below are then never called.
     */
    @Override
    public boolean logsReadWords() {
        return false;
    }

    @Override
    public long stableWord(TxItem item) {
        return inner.stableWord(item);
    }

    @Override
    public AbortCause validateWord(TxItem item, long word) {
        return inner.validateWord(item, word);
    }

    @Override
    public Object newTxnState(TxnContext txn) {
        return inner.newTxnState(txn);
    }

    @Override
    public void retireTxnState(Object state) {
        inner.retireTxnState(state);
    }

    @Override
    public void begin(TxnContext txn) {
        inner.begin(txn);
    }

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        return inner.readRef(txn, item, e);
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        return inner.readLong(txn, item, e);
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        inner.observe(txn, item, e);
    }

    @Override
    public Object readUnchangingRef(TxnContext txn, RefItem item) {
        return inner.readUnchangingRef(txn, item);
    }

    @Override
    public Object readRefAtSnapshot(TxnContext txn, RefItem item) {
        return inner.readRefAtSnapshot(txn, item);
    }

    @Override
    public long readLongAtSnapshot(TxnContext txn, LongItem item) {
        return inner.readLongAtSnapshot(txn, item);
    }

    @Override
    public AbortCause onWrite(TxnContext txn, Entry e) {
        return inner.onWrite(txn, e);
    }

    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        return inner.isCurrent(txn, e);
    }

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        return inner.lock(txn, e);
    }

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        return inner.commitTimestamp(txn, readOnly);
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        return inner.validate(txn, e, commitTimestamp);
    }

    @Override
    public AbortCause prepare(TxnContext txn, long commitTimestamp) {
        return inner.prepare(txn, commitTimestamp);
    }

    @Override
    public void install(TxnContext txn, Entry e, long commitTimestamp) {
        inner.install(txn, e, commitTimestamp);
    }

    @Override
    public void installRef(RefItem item, Object value) {
        inner.installRef(item, value);
    }

    @Override
    public void installLong(LongItem item, long value) {
        inner.installLong(item, value);
    }

    @Override
    public Object lockedRef(RefItem item) {
        return inner.lockedRef(item);
    }

    @Override
    public long lockedLong(LongItem item) {
        return inner.lockedLong(item);
    }

    @Override
    public boolean keepsDeleted(TxnContext txn, Entry e) {
        return inner.keepsDeleted(txn, e);
    }

    @Override
    public void retire(TxnContext txn, Entry e, long commitTimestamp) {
        inner.retire(txn, e, commitTimestamp);
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        inner.publish(txn, e, commitTimestamp);
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        inner.unlock(txn, e);
    }

    @Override
    public void unlockChanged(TxnContext txn, Entry e, long commitTimestamp) {
        inner.unlockChanged(txn, e, commitTimestamp);
    }

    @Override
    public void finish(TxnContext txn, boolean committed, AbortCause cause) {
        inner.finish(txn, committed, cause);
    }

    @Override
    public long lockNonTx(TxItem item) {
        return inner.lockNonTx(item);
    }

    @Override
    public long tryLockNonTx(TxItem item) {
        return inner.tryLockNonTx(item);
    }

    @Override
    public void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire) {
        inner.unlockNonTx(item, lockedWord, changed, retire);
    }

    @Override
    public Object loadRef(RefItem item) {
        return inner.loadRef(item);
    }

    @Override
    public long loadLong(LongItem item) {
        return inner.loadLong(item);
    }

    @Override
    public boolean isLocked(TxItem item) {
        return inner.isLocked(item);
    }

    @Override
    public String checkQuiescent(TxItem item) {
        return inner.checkQuiescent(item);
    }

    @Override
    public boolean isRetired(TxItem item) {
        return inner.isRetired(item);
    }
}
