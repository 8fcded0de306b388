package io.jato.stm.internal;

import io.jato.stm.Capabilities;
import io.jato.stm.Stm;
import io.jato.stm.TxnCallable;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnLongFunction;
import io.jato.stm.TxnRunnable;
import io.jato.stm.TxnType;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.TxnContext;

import java.util.List;
import java.util.Map;

/**
 * How {@link Stm} reaches the store-only side of a {@link TxnContext} (creating one, running a
 * transaction in it, reading its statistics). Those entry points are package-private in
 * {@code io.jato.stm.spi}, so that no data type or user can call them; the SPI package implements
 * this class once and registers the instance when {@code TxnContext} is initialized (the shared-
 * secrets idiom: Java has no friend packages). Not for use outside the store.
 */
public abstract class StoreAccess {
    private static volatile StoreAccess instance;

    /** Only the SPI package's implementation. */
    protected StoreAccess() {
    }

    /** Called once, by the SPI package's implementation. */
    protected static synchronized void register(StoreAccess access) {
        if (instance != null) {
            throw new IllegalStateException("store access already registered");
        }
        instance = access;
    }

    /** @return the registered implementation (initializing {@code TxnContext} if needed) */
    public static StoreAccess get() {
        StoreAccess a = instance;
        if (a == null) {
            try {
                Class.forName(TxnContext.class.getName(), true, TxnContext.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            a = instance;
        }
        return a;
    }

    /**
     * Creates a context in {@code stm}: the calling platform thread's own ({@code pool} null), or
     * one of {@code pool}'s, which virtual threads borrow ({@link #bind}) a transaction at a time.
     *
     * @param settings the store's settings: {@code backoffBaseNanos, backoffMaxNanos, maxAttempts, escalateAfter}
     */
    public abstract TxnContext newContext(Stm stm, ConcurrencyControl cc, ProtocolContext protocolContext,
                                          boolean statistics, long[] settings, StoreContexts pool);

    /** Makes the calling thread the owner of pooled context {@code c}, which it took from the pool. */
    public abstract void bind(TxnContext c);

    /** Makes pooled context {@code c} ownerless before the calling thread, its owner, gives it back. */
    public abstract void unbind(TxnContext c);

    /**
     * @return the context of the calling thread's running transaction if it is one of
     *         {@code pool}'s (a block nested in it joins it), else null
     */
    public abstract TxnContext running(StoreContexts pool);

    /** @return true if {@code c} belongs to a pool (virtual threads borrow it), false if to a platform thread */
    public abstract boolean pooled(TxnContext c);

    /** @return {@code c}'s position in its store's list of contexts (guarded by the store) */
    public abstract int storeIndex(TxnContext c);

    /** Sets {@code c}'s position in its store's list of contexts (guarded by the store). */
    public abstract void setStoreIndex(TxnContext c, int index);

    /**
     * Runs a body (exactly one of {@code fn} and {@code body} non-null) with retries, or joins the
     * running transaction; a pooled context that began the transaction goes back to its pool when
     * it ends, however it ends.
     */
    public abstract <T> T execute(TxnContext c, TxnType type, TxnFunction<T> fn, TxnRunnable body,
                                  boolean declaredReadOnly);

    /**
     * Runs a body declared read-only whose snapshot may be up to {@code maxStalenessNanos} old, as
     * {@link #execute} does; inside a running transaction it joins it and the bound does not apply.
     */
    public abstract <T> T executeStale(TxnContext c, TxnType type, TxnFunction<T> fn, long maxStalenessNanos);

    /** Runs a body returning a {@code long} as {@link #execute} does, without boxing or allocating. */
    public abstract long executeLong(TxnContext c, TxnType type, TxnLongFunction fn, boolean declaredReadOnly);

    /** Runs a body that may throw a checked exception as {@link #execute} does; the exception passes unchanged. */
    public abstract Object executeChecked(TxnContext c, TxnType type, TxnCallable<?, ?> fn, boolean declaredReadOnly);

    /** Adds {@code c}'s per-type counters into {@code acc[type id]} (rows created as needed). */
    public abstract void addTypeStatisticsTo(TxnContext c, long[][] acc);

    /** @return true from the start of an attempt of {@code c} to its end */
    public abstract boolean isInside(TxnContext c);

    /** Drops {@code c}, whose thread died or whose pool was full: its protocol state leaves the store's registry. */
    public abstract void retire(TxnContext c);

    /** @return the thread that owns {@code c} (null for an idle pooled context) */
    public abstract Thread owner(TxnContext c);

    /**
     * Creates the concurrency control of a store whose objects are bound to several protocols:
     * {@code protocols.get(d)} serves domain {@code d} (0: the default) with {@code options.get(d)}.
     *
     * @param capabilities what every transaction of the store gets (the store's declaration)
     */
    public abstract StoreProtocol newMixedStore(String name, Capabilities capabilities, List<Protocol> protocols,
                                                List<Map<String, String>> options, long epochPeriodNanos,
                                                int lockSpinLimit, int readSpinLimit);

    /** Adds {@code c}'s counters into {@code acc} = [starts, commits, aborts by cause...]. */
    public abstract void addStatisticsTo(TxnContext c, long[] acc);
}
