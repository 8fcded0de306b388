package io.jato.stm.internal;

import io.jato.stm.spi.ThreadPadding;

import java.util.concurrent.locks.LockSupport;

/**
 * Randomized exponential backoff between the attempts of one transaction (seed paper 002 §4.1),
 * owned by one thread's transaction context.
 *
 * <h2>Interrupts</h2>
 * {@code Stm.atomic} is not an interruptible operation: like {@code synchronized} or
 * {@code Lock.lock()} it neither throws on an interrupt nor loses one. {@code LockSupport.parkNanos}
 * returns at once while the thread's interrupt flag is set, which would turn every backoff into a
 * hot retry loop (an interrupted oversubscribed thread then never lets the lock holder it conflicts
 * with run). So a wait here clears the flag, keeps waiting for the rest of its delay, and remembers
 * that it saw one; {@link #restoreInterrupt()}, called when the transaction returns or throws, sets
 * the flag again. The interrupt is therefore delivered to the caller exactly as it was pending, after
 * the transaction — never swallowed, never a reason to spin.
 */
public final class Backoff extends ThreadPadding {
    /** Delays below this are spun (a park's wake-up latency would dominate them). */
    private static final long SPIN_LIMIT_NANOS = 20_000;

    private final long baseNanos;
    private final long maxNanos;
    private long rng;
    /** Set when a wait consumed the thread's interrupt flag; owner thread only. */
    private boolean interrupted;

    /**
     * @param baseNanos the first attempt's delay bound (0 disables backoff)
     * @param maxNanos  the bound the doubling stops at
     * @param seed      a non-zero seed for this thread's delays
     */
    public Backoff(long baseNanos, long maxNanos, long seed) {
        this.baseNanos = baseNanos;
        this.maxNanos = maxNanos;
        this.rng = seed | 1L;
    }

    /** Waits a random time in {@code [0, min(max, base * 2^attempt))} after the given failed attempt. */
    public void pause(int attempt) {
        pause(attempt, Long.MAX_VALUE);
    }

    /**
     * {@link #pause(int)}, waiting at most {@code limitNanos} (a transaction's deadline is that
     * close): the random delay is drawn as usual and cut to the limit.
     */
    public void pause(int attempt, long limitNanos) {
        long cap = Math.min(maxNanos, baseNanos << Math.min(attempt, 20));
        if (cap <= 0) {
            return;
        }
        long x = rng;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        rng = x;
        long delay = Math.min((x >>> 1) % cap, Math.max(0, limitNanos));
        long end = System.nanoTime() + delay;
        if (delay < SPIN_LIMIT_NANOS) {
            while (System.nanoTime() - end < 0) {
                Thread.onSpinWait();
            }
            return;
        }
        for (long left = delay; left > 0; left = end - System.nanoTime()) {
            // Clear a pending interrupt first: park returns at once while the flag is set.
            if (Thread.interrupted()) {
                interrupted = true;
            }
            LockSupport.parkNanos(this, left);
        }
        if (Thread.interrupted()) {
            interrupted = true;
        }
    }

    /** Sets the thread's interrupt flag again if a wait consumed it; called as the transaction ends. */
    public void restoreInterrupt() {
        if (interrupted) {
            interrupted = false;
            Thread.currentThread().interrupt();
        }
    }
}
