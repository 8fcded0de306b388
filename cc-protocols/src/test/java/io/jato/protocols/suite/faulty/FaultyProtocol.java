package io.jato.protocols.suite.faulty;

import io.jato.protocols.suite.Protocols;
import io.jato.stm.Capabilities;
import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.WeakHashMap;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A TEST-ONLY protocol: a {@link FaultyControl} around an instance of a real protocol, which it
 * delegates every call to, except that it throws an armed {@code Throwable} at the k-th call of an
 * armed commit hook. Registered once, under {@value #NAME}; the protocol it wraps is chosen per
 * store by {@link #store(String)} (a {@link ServiceLoader} provider needs a class per name, so one
 * registered name and a per-build setting cover every protocol, present and future).
 *
 * <p>A store may also mix it with real protocols ({@code docs/mixed-protocols.md}): as its default
 * protocol beside object protocols ({@link #store(String)} with a pairing {@code "inner+other"}),
 * or as an object protocol behind a real default one ({@link #storeAsObjectProtocol}). The
 * store's control is then the core's dispatcher, not the {@link FaultyControl}, so the one of each
 * store built here is recorded for {@link #control}.
 *
 * <p>Its name starts with {@code test-faulty}, which keeps it out of the protocol list the suites
 * run over ({@code Protocols.FAULTY_PREFIX}).
 */
public final class FaultyProtocol implements Protocol {
    public static final String NAME = "test-faulty";

    /** The protocol the store being built on this thread wraps; set only inside {@link #build}. */
    private static final ThreadLocal<String> INNER = new ThreadLocal<>();
    /** The instance {@link #create} made for the store being built on this thread. */
    private static final ThreadLocal<FaultyControl> CREATED = new ThreadLocal<>();
    /**
     * The fault-injecting instance of every store built here that mixes protocols, keyed by the
     * store and each of its views (weakly: a test's store is collected with its entry). A store
     * has no {@code equals}, so the keys are identities.
     */
    private static final Map<Stm, FaultyControl> MIXED = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * A fresh store whose default protocol is a {@link FaultyControl} around a real one.
     *
     * @param spec one protocol (or a variant, {@code Protocols.VARIANTS}), the one to wrap; or a pairing {@code "inner+other"}
     *             ({@code Protocols.PAIR_SEPARATOR}): the faulty protocol wraps {@code inner} and
     *             {@code other} is an object protocol of the store, without rotation, so the objects
     *             created on the store itself are the faulty protocol's and those created through
     *             {@code stm.withProtocol(other)} are {@code other}'s
     */
    public static Stm store(String spec) {
        String[] names = spec.split(Pattern.quote(Protocols.PAIR_SEPARATOR));
        Stm.Builder b = Stm.builder().protocol(NAME).name(NAME + "-" + spec);
        for (int i = 1; i < names.length; i++) {
            b.objectProtocol(names[i]);
        }
        return build(b, names[0]);
    }

    /** As {@link #store} for one protocol, with {@code configure} applied to the builder (escalation, ...). */
    public static Stm store(String protocol, UnaryOperator<Stm.Builder> configure) {
        return build(configure.apply(Stm.builder().protocol(NAME).name(NAME + "-" + protocol)), protocol);
    }

    /**
     * A fresh store whose default protocol is {@code defaultProtocol}, with a {@link FaultyControl}
     * around {@code innerProtocol} as its object protocol {@value #NAME}: the faulty protocol is the
     * store's second, begun, asked and finished after the default one. Objects created through
     * {@code stm.withProtocol(FaultyProtocol.NAME)} are the faulty protocol's.
     */
    public static Stm storeAsObjectProtocol(String defaultProtocol, String innerProtocol) {
        return build(Stm.builder().protocol(defaultProtocol).objectProtocol(NAME)
                .name(defaultProtocol + Protocols.PAIR_SEPARATOR + NAME + "-" + innerProtocol), innerProtocol);
    }

    private static Stm build(Stm.Builder builder, String innerProtocol) {
        INNER.set(innerProtocol);
        try {
            Stm stm = builder.build();
            if (!(stm.concurrencyControl() instanceof FaultyControl)) {
                FaultyControl created = CREATED.get();
                for (String p : stm.protocols()) {
                    MIXED.put(stm.withProtocol(p), created);
                }
            }
            return stm;
        } finally {
            INNER.remove();
            CREATED.remove();
        }
    }

    /**
     * @return the fault-injecting protocol instance of a store built by {@link #store} or
     *         {@link #storeAsObjectProtocol} (or of one of its views)
     * @throws IllegalArgumentException if the store was not built here
     */
    public static FaultyControl control(Stm stm) {
        if (stm.concurrencyControl() instanceof FaultyControl) {
            return (FaultyControl) stm.concurrencyControl();
        }
        FaultyControl c = MIXED.get(stm);
        if (c == null) {
            throw new IllegalArgumentException("store '" + stm.name() + "' was not built by FaultyProtocol");
        }
        return c;
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
            String name = Protocols.protocolName(inner);
            for (Protocol p : ServiceLoader.load(Protocol.class, FaultyProtocol.class.getClassLoader())) {
                if (p.name().equals(name)) {
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
        // Found by name rather than by class: OCC's classes are internal to stm-core. A variant's
        // options (Protocols.VARIANTS) go to the wrapped protocol.
        String name = Protocols.protocolName(inner);
        for (Protocol p : ServiceLoader.load(Protocol.class, FaultyProtocol.class.getClassLoader())) {
            if (p.name().equals(name)) {
                FaultyControl c = new FaultyControl(p.create(context.child(p, Protocols.variantOptions(inner))));
                CREATED.set(c);
                return c;
            }
        }
        throw new IllegalArgumentException("protocol '" + name + "' not found");
    }
}
