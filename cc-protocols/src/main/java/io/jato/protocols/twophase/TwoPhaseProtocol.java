package io.jato.protocols.twophase;

import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;

import java.util.List;

/**
 * Registers strict two-phase locking ({@link TwoPhaseControl}) under {@value #NAME}: serializable
 * and opaque (a transaction only ever reads values it holds locked, so even a doomed attempt sees
 * a consistent state). Options: {@value #DEADLOCK} ({@code wait-die}, the default, or
 * {@code no-wait}) and {@value #WAIT_SPINS}.
 */
public final class TwoPhaseProtocol implements Protocol {
    public static final String NAME = "2pl";
    /** Option: the deadlock policy, {@code wait-die} (default) or {@code no-wait}. */
    public static final String DEADLOCK = "deadlock";
    /** Option: polls of a lock held by a younger transaction before a wait-die requester aborts. */
    public static final String WAIT_SPINS = "waitSpins";
    public static final int WAIT_SPINS_DEFAULT = 1 << 14;

    /** The options of every protocol that takes {@link RwLocks} locks: {@value #DEADLOCK} and {@value #WAIT_SPINS}. */
    public static final List<ProtocolOption> LOCK_OPTIONS = List.of(
            ProtocolOption.of(DEADLOCK, DeadlockPolicy.WAIT_DIE.optionValue(),
                    "wait-die: wait only for younger holders, ages survive retries; no-wait: abort on any conflict"),
            ProtocolOption.of(WAIT_SPINS, WAIT_SPINS_DEFAULT,
                    "polls (spin, then yield) of a lock held by younger transactions before a wait-die requester aborts"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "strict two-phase locking: reader-writer locks taken at access time, wait-die or no-wait (seed 000)";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE, Capabilities.Feature.OPACITY,
                Capabilities.Feature.EAGER_LOCKING);
    }

    @Override
    public List<ProtocolOption> options() {
        return LOCK_OPTIONS;
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new TwoPhaseControl(context, DeadlockPolicy.parse(context.option(DEADLOCK)),
                context.intOption(WAIT_SPINS, 1, Integer.MAX_VALUE));
    }
}
