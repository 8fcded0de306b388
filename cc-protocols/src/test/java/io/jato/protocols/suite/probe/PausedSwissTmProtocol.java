package io.jato.protocols.suite.probe;

import io.jato.protocols.suite.ForwardingControl;
import io.jato.protocols.swisstm.SwissTmProtocol;
import io.jato.stm.AbortCause;
import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.TxnContext;

/**
 * A test-only SwissTM that lets a test stop a commit between two of its steps: right after the
 * protocol's {@code commitTimestamp} (its read or increment of the commit counter; in a store of
 * several protocols the spanning-commit clock comes next) and right before each
 * {@code validate}. Otherwise SwissTM, hook for hook.
 */
public final class PausedSwissTmProtocol implements Protocol {
    public static final String NAME = "test-paused-swisstm";

    /** What a test runs at the two points; called on the committing thread. */
    public interface Pauses {
        void afterCommitTimestamp(TxnContext txn, boolean readOnly);

        void beforeValidate(TxnContext txn, Entry e);
    }

    /** The pauses of the running test, or null for none. */
    public static volatile Pauses pauses;

    private final SwissTmProtocol swisstm = new SwissTmProtocol();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "TEST ONLY: SwissTM with points where a test can stop a commit";
    }

    @Override
    public Capabilities capabilities() {
        return swisstm.capabilities();
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new ForwardingControl(ForwardingControl.create(SwissTmProtocol.NAME, context)) {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public long commitTimestamp(TxnContext txn, boolean readOnly) {
                long ts = inner.commitTimestamp(txn, readOnly);
                Pauses p = pauses;
                if (p != null) {
                    p.afterCommitTimestamp(txn, readOnly);
                }
                return ts;
            }

            @Override
            public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
                Pauses p = pauses;
                if (p != null) {
                    p.beforeValidate(txn, e);
                }
                return inner.validate(txn, e, commitTimestamp);
            }
        };
    }
}
