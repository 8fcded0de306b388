package io.jato.protocols.maat;

import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;

import java.util.List;

/**
 * Registers MaaT ({@link MaatControl}) under {@value #NAME}: per-transaction timestamp ranges
 * narrowed at commit through non-blocking soft read and write locks, a commit timestamp chosen from what is
 * left, an abort only when nothing is (seed 004). Serializable. Option {@value #SOFT_LOCK_SLOTS}.
 */
public final class MaatProtocol implements Protocol {
    public static final String NAME = "maat";
    /** Option: how many contexts hold soft-lock slots (0 to 64); the rest validate like TicToc. */
    public static final String SOFT_LOCK_SLOTS = "softLockSlots";
    public static final int SOFT_LOCK_SLOTS_DEFAULT = SoftLocks.SLOTS;

    private static final List<ProtocolOption> OPTIONS = List.of(ProtocolOption.of(SOFT_LOCK_SLOTS,
            SOFT_LOCK_SLOTS_DEFAULT, "contexts (threads) that take soft locks, at most 64;"
                    + " the others validate their reads as TicToc does"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "MaaT: dynamic timestamp ranges narrowed through soft read and write locks, commit inside the range (seed 004)";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE);
    }

    @Override
    public List<ProtocolOption> options() {
        return OPTIONS;
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new MaatControl(context, context.intOption(SOFT_LOCK_SLOTS, 0, SoftLocks.SLOTS));
    }
}
