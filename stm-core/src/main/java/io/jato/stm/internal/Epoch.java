package io.jato.stm.internal;

/**
 * A store's global epoch: a coarse clock that commit timestamps carry in their high bits (Silo).
 * There is no epoch thread: committing threads call {@link #tick} every few thousand commits and
 * the first to notice that the period elapsed advances the epoch by CAS, so an idle store costs
 * nothing and no commit ever writes a contended counter. The word is padded on both sides because
 * every committing core reads it.
 */
public final class Epoch extends PaddedLong {
    private final long periodNanos;
    /**
     * Written by the CAS winner right after its advance (plain: a stale read only delays the next
     * advance); read by {@link #tick}. Outside the padded word: written once per period.
     */
    private long lastAdvanceNanos;

    public Epoch(long periodNanos) {
        super(1);
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
        if (nowNanos - lastAdvanceNanos >= periodNanos && casValue(e, e + 1)) {
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
            if (casValue(e, target)) {
                return target;
            }
        }
    }
}
