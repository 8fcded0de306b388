package io.jato.stm.internal.occ;

import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;

/** Registers the default protocol, Silo-style OCC, under the name {@value #NAME}. */
public final class OccProtocol implements Protocol {
    public static final String NAME = "occ";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Silo-style OCC: invisible reads, bounded-spin commit locking, epoch-based TIDs (seed 002 §2.1)";
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new OccControl(context);
    }
}
