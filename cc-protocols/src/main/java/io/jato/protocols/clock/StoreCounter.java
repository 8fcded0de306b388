package io.jato.protocols.clock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

abstract class StoreCounterLhs {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

abstract class StoreCounterValue extends StoreCounterLhs {
    /** Written only by {@link StoreCounter#next()} (an atomic add) and read with volatile loads. */
    @SuppressWarnings("unused") // accessed through StoreCounter.VALUE
    volatile long value;
}

abstract class StoreCounterRhs extends StoreCounterValue {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

/**
 * A store-wide counter alone on its cache lines (128 bytes of padding on each side), for the
 * values several cores take from one sequence: SwissTM's commit counter and greedy timestamps
 * (transaction ages, which every protocol of a store shares, are the core's TxnContext.age).
 * {@link #next()} returns each value once, in increasing order; every thread may call every method.
 */
public final class StoreCounter extends StoreCounterRhs {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(StoreCounterValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** @param initial the value {@link #current()} returns before the first {@link #next()} */
    public StoreCounter(long initial) {
        VALUE.setVolatile(this, initial);
    }

    /** @return a value no other call returned, larger than every value returned before (an atomic add) */
    public long next() {
        return (long) VALUE.getAndAdd(this, 1L) + 1;
    }

    /** @return the last value {@link #next()} returned, or the initial value (a volatile load) */
    public long current() {
        return (long) VALUE.getVolatile(this);
    }
}
