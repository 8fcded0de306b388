package io.jato.protocols.suite.broken;

import io.jato.protocols.suite.ForwardingControl;
import io.jato.stm.AbortCause;
import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.TxnContext;

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

    /** Claims what OCC guarantees, and breaks it: the suites must notice. */
    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE);
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new NoValidationControl(ForwardingControl.create(BASE, context));
    }

    /** Forwards everything to OCC except {@link #validate}. */
    private static final class NoValidationControl extends ForwardingControl {
        NoValidationControl(ConcurrencyControl occ) {
            super(occ);
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
    }
}
