package io.jato.stm;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The kind of a transaction (TPC-C's new-order, payment...), given when it starts:
 * {@code stm.run(NEW_ORDER, txn -> ...)}. Statistics are kept per type
 * ({@link Stm#statistics(TxnType)}), and protocols see it ({@code Txn.type()}) — Tebaldi-style
 * hierarchical concurrency control groups transactions by type, and contention managers may
 * weigh it. A transaction started without one has {@link #UNTYPED}.
 *
 * <p>Types are interned by name for the whole JVM: {@code of("payment")} always returns the same
 * instance, which is what identity and {@code equals} compare. Declare them once, as constants:
 * {@code of} takes a lock-free map lookup and is not meant for a transaction's hot path. Each type
 * has a small dense {@link #id()} (per-thread statistics are arrays indexed by it), and at most
 * {@value #MAX_TYPES} types can exist.
 */
public final class TxnType {
    /** The most types one JVM may declare, {@link #UNTYPED} included. */
    public static final int MAX_TYPES = 1024;

    private static final ConcurrentHashMap<String, TxnType> BY_NAME = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    /** The type of a transaction started without one (id 0). */
    public static final TxnType UNTYPED = of("untyped");

    private final String name;
    private final int id;

    private TxnType(String name, int id) {
        this.name = name;
        this.id = id;
    }

    /**
     * @param name the type's name: non-empty, printable, no whitespace (it appears in reports)
     * @return the type of that name, created on first use
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if the name is empty or has whitespace or control
     *                                  characters, or {@value #MAX_TYPES} types exist already
     */
    public static TxnType of(String name) {
        Objects.requireNonNull(name, "name");
        TxnType t = BY_NAME.get(name);
        if (t != null) {
            return t;
        }
        if (name.isEmpty() || name.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new IllegalArgumentException("a transaction type's name must be non-empty, without whitespace or"
                    + " control characters, got '" + name + "'");
        }
        return BY_NAME.computeIfAbsent(name, n -> {
            int id = NEXT_ID.getAndIncrement();
            if (id >= MAX_TYPES) {
                NEXT_ID.decrementAndGet();
                throw new IllegalArgumentException("too many transaction types: at most " + MAX_TYPES
                        + " can exist; declare types as constants, not per transaction (refused '" + n + "')");
            }
            return new TxnType(n, id);
        });
    }

    /** @return every type declared so far, in id order (a copy) */
    public static java.util.List<TxnType> all() {
        TxnType[] out = BY_NAME.values().toArray(new TxnType[0]);
        java.util.Arrays.sort(out, java.util.Comparator.comparingInt(TxnType::id));
        return java.util.List.of(out);
    }

    /** @return the type's name */
    public String name() {
        return name;
    }

    /** @return the type's dense index, 0 for {@link #UNTYPED}, below {@value #MAX_TYPES} */
    public int id() {
        return id;
    }

    @Override
    public String toString() {
        return name;
    }
}
