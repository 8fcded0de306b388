package io.jato.protocols.adaptive;

import io.jato.protocols.twophase.DeadlockPolicy;
import io.jato.protocols.twophase.TwoPhaseProtocol;
import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Registers the adaptive reader-writer lock ({@link AdaptiveControl}) under {@value #NAME}: each
 * item is optimistic (OCC) while its conflict score is low and pessimistic (a strict reader-writer
 * lock, as 2PL) while it is high. Serializable in every mix of modes, including items that change
 * mode while a transaction runs; not opaque (an optimistic read, like OCC's, is validated at
 * commit). Options: {@value #PESSIMISTIC_AT} and {@value #OPTIMISTIC_AT} (the thresholds of
 * {@link ModeSwitch}), {@value #DEADLOCK} and {@value #WAIT_SPINS} (as 2PL's, for every lock wait).
 */
public final class AdaptiveProtocol implements Protocol {
    public static final String NAME = "adaptive";
    /** Option: the score at which an optimistic item turns pessimistic (1 to 63). */
    public static final String PESSIMISTIC_AT = "pessimisticAt";
    public static final int PESSIMISTIC_AT_DEFAULT = 16;
    /** Option: the score at which a pessimistic item turns optimistic again (below {@value #PESSIMISTIC_AT}). */
    public static final String OPTIMISTIC_AT = "optimisticAt";
    public static final int OPTIMISTIC_AT_DEFAULT = 4;
    /** Option: the deadlock policy of every lock wait, {@code wait-die} (default) or {@code no-wait}; as 2PL's. */
    public static final String DEADLOCK = TwoPhaseProtocol.DEADLOCK;
    /** Option: polls of a lock held by a younger transaction before a wait-die requester aborts; as 2PL's. */
    public static final String WAIT_SPINS = TwoPhaseProtocol.WAIT_SPINS;

    private static final List<ProtocolOption> OPTIONS = Stream.concat(Stream.of(
            ProtocolOption.of(PESSIMISTIC_AT, PESSIMISTIC_AT_DEFAULT,
                    "conflict score (a conflict adds 4, a quiet write or sampled read subtracts 1) at which an item turns pessimistic"),
            ProtocolOption.of(OPTIMISTIC_AT, OPTIMISTIC_AT_DEFAULT,
                    "conflict score at which a pessimistic item turns optimistic again")),
            TwoPhaseProtocol.LOCK_OPTIONS.stream()).collect(Collectors.toUnmodifiableList());

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "adaptive reader-writer lock per item: optimistic while uncontended, pessimistic while contended (seed 000)";
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
        ModeSwitch modes = new ModeSwitch(context.intOption(PESSIMISTIC_AT, 1, ModeWord.MAX_SCORE),
                context.intOption(OPTIMISTIC_AT, 0, ModeWord.MAX_SCORE - 1));
        return new AdaptiveControl(context, modes, DeadlockPolicy.parse(context.option(DEADLOCK), NAME),
                context.intOption(WAIT_SPINS, 1, Integer.MAX_VALUE));
    }
}
