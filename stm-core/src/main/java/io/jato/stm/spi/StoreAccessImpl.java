package io.jato.stm.spi;

import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import io.jato.stm.TxnType;
import io.jato.stm.internal.StoreAccess;

/** The SPI package's side of {@link StoreAccess}: the store-only entry points of {@link TxnContext}. */
final class StoreAccessImpl extends StoreAccess {

    static void install() {
        register(new StoreAccessImpl());
    }

    @Override
    public TxnContext newContext(Stm stm, ConcurrencyControl cc, ProtocolContext protocolContext, boolean statistics,
                                 long[] settings) {
        return new TxnContext(stm, cc, protocolContext, statistics, settings);
    }

    @Override
    public <T> T execute(TxnContext c, TxnType type, TxnFunction<T> fn, TxnRunnable body, boolean declaredReadOnly) {
        return c.loop.execute(type, fn, body, declaredReadOnly);
    }

    @Override
    public void addTypeStatisticsTo(TxnContext c, long[][] acc) {
        c.counters.addTypesTo(acc);
    }

    @Override
    public boolean isInside(TxnContext c) {
        return c.status != TxnContext.IDLE;
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
    public void addStatisticsTo(TxnContext c, long[] acc) {
        c.counters.addTo(acc);
    }
}
