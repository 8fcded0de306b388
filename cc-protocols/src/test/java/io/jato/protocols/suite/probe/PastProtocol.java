package io.jato.protocols.suite.probe;

import io.jato.protocols.suite.ForwardingControl;
import io.jato.stm.AbortCause;
import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test-only protocol that exercises the versioned-read hook the way a multi-version protocol
 * will: OCC that, when a commit locks an item whose data type keeps values in its own fields,
 * keeps the participant's copy of the values about to be overwritten
 * ({@code TxParticipant.captureVersion}), and while {@link Control#servePast} is on serves reads
 * of such an item from that copy ({@code Entry.VERSION}); and that answers
 * {@code ConcurrencyControl.NO_VERSION} for reference reads of the values in
 * {@link Control#hiddenValues}, as a multi-version reader does for an entry inserted after its
 * snapshot. Validation is OCC's: the version served
 * validates as long as nobody committed to the item since the read, which is enough for tests
 * that read in the past only while nothing writes.
 */
public final class PastProtocol implements Protocol {
    public static final String NAME = "test-past";

    /** The instance most recently created. */
    public static volatile Control lastCreated;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "TEST ONLY: OCC that keeps the previous version of in-place items and can serve reads from it";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE);
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        Control c = new Control(ForwardingControl.create("occ", context));
        lastCreated = c;
        return c;
    }

    /** The per-store instance. */
    public static final class Control extends ForwardingControl {
        /** The values each in-place item had before its last commit. */
        public final Map<TxItem, Object> previous = new ConcurrentHashMap<>();
        /** When set, the next {@code newTxnState} throws it (then it is cleared). */
        public volatile RuntimeException failNewTxnState;
        /** When true, reads of an item with a kept version are served from it. */
        public volatile boolean servePast;
        /** Reference reads that find one of these values answer that no version is visible. */
        public final java.util.Set<Object> hiddenValues = ConcurrentHashMap.newKeySet();

        Control(ConcurrencyControl occ) {
            super(occ);
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Object newTxnState(TxnContext txn) {
            RuntimeException fail = failNewTxnState;
            if (fail != null) {
                failNewTxnState = null;
                throw fail;
            }
            return super.newTxnState(txn);
        }

        @Override
        public AbortCause lock(TxnContext txn, Entry e) {
            AbortCause c = super.lock(txn, e);
            if (c == null && e.participant() != null) {
                Object version = e.participant().captureVersion(txn, e);
                if (version != null) {
                    previous.put(e.item(), version);
                }
            }
            return c;
        }

        @Override
        public Object readRef(TxnContext txn, RefItem item, Entry e) {
            Object v = super.readRef(txn, item, e);
            return hiddenValues.contains(v) ? ConcurrencyControl.NO_VERSION : v;
        }

        @Override
        public void observe(TxnContext txn, TxItem item, Entry e) {
            super.observe(txn, item, e);
            Object version = servePast ? previous.get(item) : null;
            if (version != null) {
                e.setReadRef(version);
                e.addFlags(Entry.VERSION);
            }
        }
    }
}
