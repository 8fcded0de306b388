package io.jato.stm.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

abstract class EpochLhsPadding {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

abstract class EpochValue extends EpochLhsPadding {
    /** Written by CAS only (monotonic); read with volatile semantics by every commit. */
    @SuppressWarnings("unused") // accessed through Epoch.VALUE
    volatile long value = 1;
    /** Written together with {@code value} by the CAS winner (plain; a stale read only delays an advance). */
    long lastAdvanceNanos;
}

abstract class EpochRhsPadding extends EpochValue {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

/**
 * A store's global epoch: a coarse clock that commit timestamps carry in their high bits (Silo).
 * There is no epoch thread: committing threads call {@link #tick} every few thousand commits and
 * the first to notice that the period elapsed advances the epoch by CAS, so an idle store costs
 * nothing and no commit ever writes a contended counter. The word is padded on both sides because
 * every committing core reads it.
 */
public final class Epoch extends EpochRhsPadding {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(EpochValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long periodNanos;

    public Epoch(long periodNanos) {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("epoch period must be positive: " + periodNanos);
        }
        this.periodNanos = periodNanos;
        this.lastAdvanceNanos = System.nanoTime();
    }

    /** @return the current epoch (≥ 1) */
    public long current() {
        return value;
    }

    /** Advances the epoch by one if its period has elapsed since the last advance. */
    public void tick(long nowNanos) {
        long e = value;
        if (nowNanos - lastAdvanceNanos >= periodNanos && VALUE.compareAndSet(this, e, e + 1)) {
            lastAdvanceNanos = nowNanos;
        }
    }

    /** Advances the epoch to at least {@code target}; returns the epoch afterwards. */
    public long advanceTo(long target) {
        for (;;) {
            long e = value;
            if (e >= target) {
                return e;
            }
            if (VALUE.compareAndSet(this, e, target)) {
                return target;
            }
        }
    }
}
