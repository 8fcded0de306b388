package io.jato.protocols.globallock;

import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;

/** Registers {@link GlobalLockControl} under the name {@value #NAME}. */
public final class GlobalLockProtocol implements Protocol {
    public static final String NAME = "global-lock";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "one store-wide lock held for a whole transaction: trivially serializable, the test oracle";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE, Capabilities.Feature.OPACITY);
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new GlobalLockControl();
    }
}
