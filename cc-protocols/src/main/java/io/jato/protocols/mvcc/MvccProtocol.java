package io.jato.protocols.mvcc;

import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;

/**
 * Registers multi-version concurrency control in the style of Cicada and MSTO (seed 002 §2.2)
 * under {@value #NAME}: serializable, every data type supported, mixable with other serializable
 * protocols in one store; transactions declared read-only ({@code stm.readOnly}) read a stable
 * snapshot in the recent past, keep no read set and do not validate. See {@code docs/mvcc.md}.
 */
public final class MvccProtocol implements Protocol {
    public static final String NAME = "mvcc";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "MVCC (Cicada/MSTO): version chains behind an inlined newest version, read-only snapshots"
                + " in the recent past that never validate (seed 002)";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE, Capabilities.Feature.SNAPSHOT_READS);
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new MvccControl(context);
    }
}
