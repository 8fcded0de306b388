package io.jato.stm.spi;

import io.jato.stm.Capabilities;
import io.jato.stm.Stm;
import io.jato.stm.TxnCallable;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnLongFunction;
import io.jato.stm.TxnRunnable;
import io.jato.stm.TxnType;
import io.jato.stm.internal.StoreAccess;
import io.jato.stm.internal.StoreContexts;
import io.jato.stm.internal.StoreProtocol;

import java.util.List;
import java.util.Map;

/** The SPI package's side of {@link StoreAccess}: the store-only entry points of {@link TxnContext}. */
final class StoreAccessImpl extends StoreAccess {

    static void install() {
        register(new StoreAccessImpl());
    }

    @Override
    public TxnContext newContext(Stm stm, ConcurrencyControl cc, ProtocolContext protocolContext, boolean statistics,
                                 long[] settings, StoreContexts pool) {
        return new TxnContext(stm, cc, protocolContext, statistics, settings, pool);
    }

    // A pooled context goes back to its pool when the transaction it began ends: only when it was
    // idle on entry (an outermost transaction); a nested block that joined it leaves it borrowed.

    @Override
    public <T> T execute(TxnContext c, TxnType type, TxnFunction<T> fn, TxnRunnable body, boolean declaredReadOnly) {
        StoreContexts pool = c.pool;
        if (pool == null || c.status != TxnContext.IDLE) {
            return c.execute(type, fn, body, declaredReadOnly);
        }
        try {
            return c.execute(type, fn, body, declaredReadOnly);
        } finally {
            pool.release(c);
        }
    }

    @Override
    public <T> T executeStale(TxnContext c, TxnType type, TxnFunction<T> fn, long maxStalenessNanos) {
        // Only the outermost transaction's begin reads it; restored for an enclosing one.
        long outer = c.maxStalenessNanos;
        c.maxStalenessNanos = maxStalenessNanos;
        try {
            return c.execute(type, fn, null, true);
        } finally {
            c.maxStalenessNanos = outer;
        }
    }

    @Override
    public long executeLong(TxnContext c, TxnType type, TxnLongFunction fn, boolean declaredReadOnly) {
        StoreContexts pool = c.pool;
        if (pool == null || c.status != TxnContext.IDLE) {
            return c.bodies.executeLong(c, type, fn, declaredReadOnly);
        }
        try {
            return c.bodies.executeLong(c, type, fn, declaredReadOnly);
        } finally {
            pool.release(c);
        }
    }

    @Override
    public Object executeChecked(TxnContext c, TxnType type, TxnCallable<?, ?> fn, boolean declaredReadOnly) {
        StoreContexts pool = c.pool;
        if (pool == null || c.status != TxnContext.IDLE) {
            return c.bodies.executeChecked(c, type, fn, declaredReadOnly);
        }
        try {
            return c.bodies.executeChecked(c, type, fn, declaredReadOnly);
        } finally {
            pool.release(c);
        }
    }

    @Override
    public void bind(TxnContext c) {
        c.bind();
    }

    @Override
    public void unbind(TxnContext c) {
        c.unbind();
    }

    @Override
    public TxnContext running(StoreContexts pool) {
        ThreadTransactions thread = ThreadTransactions.current();
        TxnContext r = thread.running;
        return thread.busy && r != null && r.pool == pool ? r : null;
    }

    @Override
    public boolean pooled(TxnContext c) {
        return c.pool != null;
    }

    @Override
    public int storeIndex(TxnContext c) {
        return c.storeIndex;
    }

    @Override
    public void setStoreIndex(TxnContext c, int index) {
        c.storeIndex = index;
    }

    @Override
    public void addTypeStatisticsTo(TxnContext c, long[][] acc) {
        c.counters.addTypesTo(acc);
    }

    @Override
    public boolean isInside(TxnContext c) {
        // After-rollback hooks run outside the attempt: single() views work there.
        return c.status != TxnContext.IDLE && c.status != TxnContext.HOOKS;
    }

    @Override
    public void retire(TxnContext c) {
        c.retire();
    }

    @Override
    public Thread owner(TxnContext c) {
        return c.owner;
    }

    @Override
    public StoreProtocol newMixedStore(String name, Capabilities capabilities, List<Protocol> protocols,
                                       List<Map<String, String>> options, long epochPeriodNanos, int lockSpinLimit,
                                       int readSpinLimit) {
        ProtocolContext root = ProtocolContext.mixedRoot(name, capabilities, epochPeriodNanos, lockSpinLimit,
                readSpinLimit);
        int n = protocols.size();
        ConcurrencyControl[] children = new ConcurrencyControl[n];
        ProtocolContext[] contexts = new ProtocolContext[n];
        for (int d = 0; d < n; d++) {
            contexts[d] = root.mixedChild(protocols.get(d), options.get(d), d);
            children[d] = protocols.get(d).create(contexts[d]);
        }
        return new StoreProtocol(new MixedControl(name, children, contexts), root);
    }

    @Override
    public void addStatisticsTo(TxnContext c, long[] acc) {
        c.counters.addTo(acc);
    }
}
