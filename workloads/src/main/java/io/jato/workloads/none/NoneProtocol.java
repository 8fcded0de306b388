package io.jato.workloads.none;

import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;

/**
 * Registers {@link NoneControl} under the name {@value #NAME}: the physical-limit baseline of the
 * workload runner. Lives with the workloads, not in {@code cc-protocols}, because it is not a
 * concurrency control at all and must never be offered to applications or to the proof suites.
 */
public final class NoneProtocol implements Protocol {
    public static final String NAME = "none";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "no concurrency control (one thread only): the same transaction code without versions or"
                + " locks, to measure what CC costs";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE);
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new NoneControl();
    }
}
