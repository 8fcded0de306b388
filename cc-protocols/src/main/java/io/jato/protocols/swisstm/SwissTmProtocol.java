package io.jato.protocols.swisstm;

import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;

import java.util.List;

/**
 * Registers SwissTM ({@link SwissTmControl}) under {@value #NAME}: eager write locks, invisible
 * reads validated against a global commit counter, and the two-phase contention manager.
 * Serializable and opaque; it aborts other transactions remotely. Option {@value #GREEDY_AFTER}.
 */
public final class SwissTmProtocol implements Protocol {
    public static final String NAME = "swisstm";
    /** Option: writes after which a transaction stops being timid and takes a greedy timestamp. */
    public static final String GREEDY_AFTER = "greedyAfter";
    public static final int GREEDY_AFTER_DEFAULT = 10;

    private static final List<ProtocolOption> OPTIONS = List.of(ProtocolOption.of(GREEDY_AFTER, GREEDY_AFTER_DEFAULT,
            "writes after which a transaction takes a greedy timestamp (before: it aborts itself on a write conflict)"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "SwissTM: eager write locks, commit-counter validation, timid-then-greedy contention manager (seed 000)";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE, Capabilities.Feature.OPACITY,
                Capabilities.Feature.EAGER_LOCKING, Capabilities.Feature.REMOTE_ABORT);
    }

    @Override
    public List<ProtocolOption> options() {
        return OPTIONS;
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new SwissTmControl(context, context.intOption(GREEDY_AFTER, 1, Integer.MAX_VALUE));
    }
}
