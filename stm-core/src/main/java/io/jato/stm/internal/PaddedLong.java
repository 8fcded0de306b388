package io.jato.stm.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

abstract class PaddedLongLhs {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

abstract class PaddedLongValue extends PaddedLongLhs {
    /** Written by CAS only (see the subclass for its order); read with volatile semantics. */
    volatile long value;
}

abstract class PaddedLongRhs extends PaddedLongValue {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

/**
 * A volatile long alone on its cache lines (128 bytes of padding on each side, enough for
 * adjacent-line prefetch): the base of the store-wide words that every committing core reads or
 * CASes ({@link Epoch}, {@link MixedClock}), so that their traffic never invalidates a neighbour's
 * line. Subclasses' own fields lie after the right-hand padding, away from the hot word.
 */
abstract class PaddedLong extends PaddedLongRhs {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedLongValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    PaddedLong(long initial) {
        this.value = initial;
    }

    /** Atomic add with volatile semantics; returns the value before. */
    final long getAndAddValue(long delta) {
        return (long) VALUE.getAndAdd(this, delta);
    }

    /** CAS with volatile semantics. */
    final boolean casValue(long expected, long next) {
        return VALUE.compareAndSet(this, expected, next);
    }
}
