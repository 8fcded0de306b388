package io.jato.protocols.suite.broken;

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
 * A deliberately BROKEN protocol, registered by the test sources only: the default OCC with its
 * commit-time read validation removed. Writes are still locked and installed atomically, so every
 * single item stays consistent, but a transaction commits whatever it read, however stale: lost
 * updates, write skew, torn reads and phantoms all become possible.
 *
 * <p>It exists to prove that the anomaly and serializability suites are not vacuous:
 * {@code BrokenProtocolDetectionTest} asserts that they catch it. Its name starts with
 * {@code test-broken-}, which keeps it out of the protocol list the suites run over.
 */
public final class NoValidationProtocol implements Protocol {
    public static final String NAME = "test-broken-no-validation";
    private static final String BASE = "occ";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "TEST ONLY, NOT SERIALIZABLE: OCC without read validation, to prove the test suites can fail";
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        // Found by name rather than by class: OCC's classes are internal to stm-core.
        for (Protocol p : ServiceLoader.load(Protocol.class, NoValidationProtocol.class.getClassLoader())) {
            if (p.name().equals(BASE)) {
                return new NoValidationControl(p.create(context));
            }
        }
        throw new IllegalStateException("protocol '" + BASE + "' not found");
    }

    /** Delegates everything to OCC except {@link #validate}. */
    private static final class NoValidationControl extends ConcurrencyControl {
        private final ConcurrencyControl occ;

        NoValidationControl(ConcurrencyControl occ) {
            this.occ = occ;
        }

        @Override
        public String name() {
            return NAME;
        }

        /** THE BUG: every read validates, however stale. */
        @Override
        public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
            return null;
        }

        @Override
        public Object newTxnState(TxnContext txn) {
            return occ.newTxnState(txn);
        }

        @Override
        public void begin(TxnContext txn) {
            occ.begin(txn);
        }

        @Override
        public Object readRef(TxnContext txn, RefItem item, Entry e) {
            return occ.readRef(txn, item, e);
        }

        @Override
        public long readLong(TxnContext txn, LongItem item, Entry e) {
            return occ.readLong(txn, item, e);
        }

        @Override
        public void observe(TxnContext txn, TxItem item, Entry e) {
            occ.observe(txn, item, e);
        }

        @Override
        public AbortCause onWrite(TxnContext txn, Entry e) {
            return occ.onWrite(txn, e);
        }

        @Override
        public boolean isCurrent(TxnContext txn, Entry e) {
            return occ.isCurrent(txn, e);
        }

        @Override
        public AbortCause lock(TxnContext txn, Entry e) {
            return occ.lock(txn, e);
        }

        @Override
        public long commitTimestamp(TxnContext txn, boolean readOnly) {
            return occ.commitTimestamp(txn, readOnly);
        }

        @Override
        public void install(TxnContext txn, Entry e, long commitTimestamp) {
            occ.install(txn, e, commitTimestamp);
        }

        @Override
        public void publish(TxnContext txn, Entry e, long commitTimestamp) {
            occ.publish(txn, e, commitTimestamp);
        }

        @Override
        public void unlock(TxnContext txn, Entry e) {
            occ.unlock(txn, e);
        }

        @Override
        public void finish(TxnContext txn, boolean committed) {
            occ.finish(txn, committed);
        }

        @Override
        public long lockNonTx(TxItem item) {
            return occ.lockNonTx(item);
        }

        @Override
        public void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire) {
            occ.unlockNonTx(item, lockedWord, changed, retire);
        }

        @Override
        public Object loadRef(RefItem item) {
            return occ.loadRef(item);
        }

        @Override
        public long loadLong(LongItem item) {
            return occ.loadLong(item);
        }

        @Override
        public boolean isLocked(TxItem item) {
            return occ.isLocked(item);
        }

        @Override
        public String checkQuiescent(TxItem item) {
            return occ.checkQuiescent(item);
        }

        @Override
        public boolean isRetired(TxItem item) {
            return occ.isRetired(item);
        }
    }
}
