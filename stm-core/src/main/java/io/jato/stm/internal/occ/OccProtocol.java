package io.jato.stm.internal.occ;

import io.jato.stm.Capabilities;
import io.jato.stm.internal.Tunables;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;

import java.util.List;

/** Registers the default protocol, Silo-style OCC, under the name {@value #NAME}. */
public final class OccProtocol implements Protocol {
    public static final String NAME = "occ";
    /** Option: lock attempts per further write lock once the commit holds one (see {@link OccControl}). */
    public static final String HELD_LOCK_SPINS = "heldLockSpins";

    private static final Capabilities CAPABILITIES = Capabilities.of(Capabilities.Isolation.SERIALIZABLE);
    private static final List<ProtocolOption> OPTIONS = List.of(ProtocolOption.of(HELD_LOCK_SPINS,
            Tunables.HELD_LOCK_SPINS, "lock attempts for each further write lock once the commit holds one"
                    + " (capped by lockSpinLimit); waiting while holding can be a deadlock"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Silo-style OCC: invisible reads, bounded-spin commit locking, epoch-based TIDs (seed 002 §2.1)";
    }

    @Override
    public Capabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public List<ProtocolOption> options() {
        return OPTIONS;
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new OccControl(context);
    }
}
