package io.jato.protocols.wait;

import java.util.concurrent.locks.LockSupport;

/**
 * How the lock protocols wait for a lock another transaction holds at execution time (2PL, SwissTM)
 * — a wait that may last as long as the holder's whole transaction, unlike a commit lock's:
 * spin hints first, then yields, then parks of growing length (10 µs doubling to 1 ms), so that a
 * long wait costs little CPU and shows the thread as waiting, not running. Stateless.
 */
public final class Waits {
    private static final int SPINS = 64;

    /**
     * Polls that {@link #pause} spends on spin hints alone: a bound for tries that must not yield
     * or park (a non-transactional operation's {@code tryLockNonTx} of a held item).
     */
    public static final int SPIN_POLLS = SPINS;
    private static final int YIELDS = 128;
    private static final long FIRST_PARK_NANOS = 10_000;
    private static final long MAX_PARK_NANOS = 1_000_000;

    private Waits() {
    }

    /** Waits once; {@code polls} counts the polls of this wait so far (from 0). */
    public static void pause(int polls) {
        if (polls < SPINS) {
            Thread.onSpinWait();
        } else if (polls < YIELDS) {
            Thread.yield();
        } else {
            int k = Math.min(polls - YIELDS, 7);
            LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, FIRST_PARK_NANOS << k));
        }
    }
}
