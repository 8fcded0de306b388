package io.jato.protocols.maat;

import io.jato.stm.spi.ThreadPadding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The published half of one transaction's timestamp range: its upper bound while it runs, its
 * commit timestamp once it has fixed one. Other transactions narrow the upper bound
 * ({@link #narrow}) when they commit a write to an item this transaction soft-locked for reading;
 * the owner fixes its timestamp ({@link #freeze}) in {@code prepare}. Both are CASes on one word,
 * so of a narrowing and a freeze exactly one comes first: either the freeze respects the narrowed
 * bound, or the narrower sees the frozen timestamp and orders itself after it.
 *
 * <p>Beside it, a second word publishes what others know of the lower bound: a transaction that
 * commits at {@code ts} and must come before this one (it read, or wrote first, an item this one
 * soft-write-locked) {@linkplain #pushLower pushes} it to {@code ts + 1}. The owner folds the
 * pushed bound into the lower bound it computes at commit ({@code commitTimestamp}); a writer
 * about to narrow this range reads it so as not to narrow below it when it can go above instead.
 * It is a bound others learned early, not the ordering itself: a push that arrives after the owner
 * computed its timestamp is not checked at the freeze, because the pusher's own soft locks and
 * the items' rts already order the two (docs/maat.md), so no Dekker pair hangs on this word.
 *
 * <pre>
 * bound word
 *  63                                                                   1   0
 * +-----------------------------------------------------------------------+---+
 * |   value (63-bit two's complement): the upper bound, or the commit ts   | F |
 * +-----------------------------------------------------------------------+---+
 *
 *  F = 0 (open)    the attempt runs; value = the largest timestamp it may commit at (inclusive),
 *                  {@link #UNBOUNDED} after {@link #reset}; it only decreases until the next reset.
 *  F = 1 (frozen)  the attempt fixed its commit timestamp = value; final until the next reset.
 * </pre>
 *
 * Writers: the owner thread (reset with volatile stores at the start of each attempt, freeze by
 * CAS); any committing thread (narrow and push by CAS). Readers: every one of them, with volatile loads. A
 * narrowing aimed at an earlier attempt that lands on a later one only makes that attempt abort or
 * commit lower than it had to; it never makes a history unserializable (docs/maat.md).
 *
 * <p>Padded by inheritance: the owner writes the word every attempt and other cores CAS it.
 */
public final class MaatRange extends ThreadPadding {
    private static final VarHandle BOUND;
    private static final VarHandle LOWER;

    static {
        try {
            BOUND = MethodHandles.lookup().findVarHandle(MaatRange.class, "bound", long.class);
            LOWER = MethodHandles.lookup().findVarHandle(MaatRange.class, "lower", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The largest timestamp the word can carry: a fresh attempt's upper bound ("infinity"). */
    public static final long UNBOUNDED = Long.MAX_VALUE >> 1;
    /** {@link #narrow}: the range was open; its upper bound is now at most the limit. */
    public static final long NARROWED = -1L;

    private static final long FROZEN = 1L;

    @SuppressWarnings("unused") // through BOUND
    private volatile long bound = UNBOUNDED << 1;
    /** The published lower bound: only grows (CAS to the maximum) until the owner's next reset. */
    @SuppressWarnings("unused") // through LOWER
    private volatile long lower;
    // Trailing padding: other cores CAS the word; keep the next object's fields off its line.
    @SuppressWarnings("unused")
    private long tail1, tail2, tail3, tail4, tail5, tail6, tail7;

    /** Opens the range for a new attempt: upper bound {@link #UNBOUNDED}, nothing frozen. Owner only. */
    public void reset() {
        LOWER.setVolatile(this, 0L);
        BOUND.setVolatile(this, UNBOUNDED << 1);
    }

    /**
     * Makes the owner commit at or above {@code min}, as far as it has not computed its timestamp
     * yet: raises the published lower bound (CAS to the maximum). Called by a transaction that
     * commits at {@code min - 1} and must come before the owner. A push aimed at an earlier attempt
     * that lands on a later one only raises that attempt's timestamp.
     */
    public void pushLower(long min) {
        for (;;) {
            long l = (long) LOWER.getVolatile(this);
            if (l >= min || LOWER.compareAndSet(this, l, min)) {
                return;
            }
        }
    }

    /** @return the published lower bound (0 unless pushed in this attempt); a volatile load */
    public long lower() {
        return (long) LOWER.getVolatile(this);
    }

    /**
     * Makes the owner commit at or below {@code limit}, unless it already fixed its timestamp.
     * Called by a transaction that will commit above {@code limit} and overwrites something the
     * owner read. {@code limit} may be negative (then the owner cannot commit at all).
     *
     * @return {@link #NARROWED} if the range was open (its upper bound is now at most
     *         {@code limit}), else the owner's frozen commit timestamp (never negative): the caller
     *         must then commit above it
     */
    public long narrow(long limit) {
        for (;;) {
            long b = (long) BOUND.getVolatile(this);
            if ((b & FROZEN) != 0) {
                return b >> 1;
            }
            if ((b >> 1) <= limit || BOUND.compareAndSet(this, b, limit << 1)) {
                return NARROWED;
            }
        }
    }

    /**
     * Fixes the owner's commit timestamp at {@code ts} if the range still reaches it. Owner only,
     * once per attempt.
     *
     * @return true if frozen at {@code ts}; false if the upper bound is below {@code ts} (the
     *         range is empty: the attempt must abort)
     */
    public boolean freeze(long ts) {
        for (;;) {
            long b = (long) BOUND.getVolatile(this);
            if ((b & FROZEN) != 0) {
                return (b >> 1) == ts;
            }
            if ((b >> 1) < ts) {
                return false;
            }
            if (BOUND.compareAndSet(this, b, (ts << 1) | FROZEN)) {
                return true;
            }
        }
    }

    /** @return the current upper bound, or the frozen timestamp; a volatile load */
    public long upper() {
        return (long) BOUND.getVolatile(this) >> 1;
    }

    /** {@link #frozenAt}: the range is open. */
    public static final long OPEN = -1L;

    /** @return the frozen commit timestamp, or {@link #OPEN}; one volatile load */
    public long frozenAt() {
        long b = (long) BOUND.getVolatile(this);
        return (b & FROZEN) != 0 ? b >> 1 : OPEN;
    }

    /** @return true once {@link #freeze} succeeded in this attempt; a volatile load */
    public boolean isFrozen() {
        return ((long) BOUND.getVolatile(this) & FROZEN) != 0;
    }

    @Override
    public String toString() {
        long b = (long) BOUND.getVolatile(this);
        return (b & FROZEN) != 0 ? "frozen at " + (b >> 1) : "[" + lower() + ", " + (b >> 1) + "]";
    }
}
