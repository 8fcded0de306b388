package io.jato.protocols.suite.faulty;

import io.jato.stm.Capabilities;
import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;

import java.util.ServiceLoader;

/**
 * A TEST-ONLY protocol: a {@link FaultyControl} around an instance of a real protocol, which it
 * delegates every call to, except that it throws an armed {@code Throwable} at the k-th call of an
 * armed commit hook. Registered once, under {@value #NAME}; the protocol it wraps is chosen per
 * store by {@link #store(String)} (a {@link ServiceLoader} provider needs a class per name, so one
 * registered name and a per-build setting cover every protocol, present and future).
 *
 * <p>Its name starts with {@code test-faulty}, which keeps it out of the protocol list the suites
 * run over ({@code Protocols.FAULTY_PREFIX}).
 */
public final class FaultyProtocol implements Protocol {
    public static final String NAME = "test-faulty";

    /** The protocol the store being built on this thread wraps; set only inside {@link #store}. */
    private static final ThreadLocal<String> INNER = new ThreadLocal<>();

    /** @return a fresh store whose protocol is a {@link FaultyControl} around {@code innerProtocol} */
    public static Stm store(String innerProtocol) {
        INNER.set(innerProtocol);
        try {
            return Stm.builder().protocol(NAME).name(NAME + "-" + innerProtocol).build();
        } finally {
            INNER.remove();
        }
    }

    /** @return the fault-injecting protocol instance of a store built by {@link #store} */
    public static FaultyControl control(Stm stm) {
        return (FaultyControl) stm.concurrencyControl();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "TEST ONLY: wraps a real protocol and throws at a chosen call of a chosen commit hook";
    }

    /** The wrapped protocol's capabilities while a store is being built; serializable otherwise. */
    @Override
    public Capabilities capabilities() {
        String inner = INNER.get();
        if (inner != null) {
            for (Protocol p : ServiceLoader.load(Protocol.class, FaultyProtocol.class.getClassLoader())) {
                if (p.name().equals(inner)) {
                    return p.capabilities();
                }
            }
        }
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE);
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        String inner = INNER.get();
        if (inner == null) {
            throw new IllegalStateException("build " + NAME + " stores with FaultyProtocol.store(innerProtocol)");
        }
        if (inner.equals(NAME)) {
            throw new IllegalArgumentException(NAME + " cannot wrap itself");
        }
        // Found by name rather than by class: OCC's classes are internal to stm-core.
        for (Protocol p : ServiceLoader.load(Protocol.class, FaultyProtocol.class.getClassLoader())) {
            if (p.name().equals(inner)) {
                return new FaultyControl(p.create(context.child(p)));
            }
        }
        throw new IllegalArgumentException("protocol '" + inner + "' not found");
    }
}
