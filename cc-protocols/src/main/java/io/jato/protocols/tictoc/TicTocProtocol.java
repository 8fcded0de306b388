package io.jato.protocols.tictoc;

import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;

import java.util.List;

/**
 * Registers TicToc under {@value #NAME} (serializable); {@link Si} and {@link Rr} register the
 * weaker isolation levels of seed 001 §5.4 under {@value #SI_NAME} and {@value #RR_NAME}.
 */
public class TicTocProtocol implements Protocol {
    public static final String NAME = "tictoc";
    public static final String SI_NAME = "tictoc-si";
    public static final String RR_NAME = "tictoc-rr";

    private final String name;
    private final Isolation isolation;

    public TicTocProtocol() {
        this(NAME, Isolation.SERIALIZABLE);
    }

    private TicTocProtocol(String name, Isolation isolation) {
        this.name = name;
        this.isolation = isolation;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return "TicToc at " + isolation.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                + ": data-driven commit timestamps from per-item wts/rts, no-wait locking, preemptive abort (seed 001)";
    }

    @Override
    public final Capabilities capabilities() {
        switch (isolation) {
            case SNAPSHOT:
                return Capabilities.of(Capabilities.Isolation.SNAPSHOT_ISOLATION);
            case REPEATABLE_READ:
                return Capabilities.of(Capabilities.Isolation.REPEATABLE_READ);
            default:
                return Capabilities.of(Capabilities.Isolation.SERIALIZABLE);
        }
    }

    @Override
    public final List<ProtocolOption> options() {
        return TicTocOptions.DECLARED;
    }

    @Override
    public final ConcurrencyControl create(ProtocolContext context) {
        return new TicTocControl(name, context, isolation, TicTocOptions.from(context));
    }

    /** TicToc at snapshot isolation: not serializable (write skew). */
    public static final class Si extends TicTocProtocol {
        public Si() {
            super(SI_NAME, Isolation.SNAPSHOT);
        }
    }

    /** TicToc at repeatable read: not serializable (read skew, write skew, phantoms). */
    public static final class Rr extends TicTocProtocol {
        public Rr() {
            super(RR_NAME, Isolation.REPEATABLE_READ);
        }
    }
}
