package io.jato.stm.internal;

import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.ProtocolContext;

/** What a store runs: its concurrency control and the context the store hands its transactions. */
public final class StoreProtocol {
    private final ConcurrencyControl control;
    private final ProtocolContext context;

    public StoreProtocol(ConcurrencyControl control, ProtocolContext context) {
        this.control = control;
        this.context = context;
    }

    public ConcurrencyControl control() {
        return control;
    }

    public ProtocolContext context() {
        return context;
    }
}
