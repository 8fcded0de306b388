package io.jato.stm.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

abstract class MixedClockLhsPadding {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

abstract class MixedClockValue extends MixedClockLhsPadding {
    /** Written by CAS only (strictly increasing); read with volatile semantics. */
    @SuppressWarnings("unused") // accessed through MixedClock.VALUE
    volatile long value;
}

abstract class MixedClockRhsPadding extends MixedClockValue {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

/**
 * The clock that orders the commits of transactions spanning several protocols of one store (see
 * {@code docs/mixed-protocols.md}): every such commit takes, by one successful CAS, a value
 * strictly above every value taken before it and at least what its timestamp-ordered protocols
 * proposed. Taken between "every write locked" and "first read validated", so its order agrees
 * with the real-time order of those commits' serialization points. Padded on both sides: every
 * core that commits a spanning transaction writes it. Transactions of one protocol never touch it.
 */
public final class MixedClock extends MixedClockRhsPadding {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(MixedClockValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * @return a value greater than every value returned before this call began and at least
     *         {@code atLeast}; lock-free (one CAS per try)
     */
    public long next(long atLeast) {
        for (;;) {
            long v = value;
            long next = Math.max(v + 1, atLeast);
            if (VALUE.compareAndSet(this, v, next)) {
                return next;
            }
        }
    }

    /** @return the last value handed out (diagnostics and tests) */
    public long current() {
        return value;
    }
}
