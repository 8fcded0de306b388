package io.jato.stm.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/*
 * Design: blocking retry for every protocol, without the protocols' help. A transaction that
 * retries arms a Waiter: the set of item stripes it read (item hash mod 1024), registered here,
 * and only then re-validates its reads; if one changed already it does not wait. A committing
 * writer reads the waiter count after it holds all its write locks and, if it is not zero, wakes
 * every waiter whose stripes its writes touch once they are published.
 *
 * Why no wake-up is lost: both sides order a full-fence read-modify-write before their read of the
 * other's state. The waiter increments the count (getAndAdd) before it reads the items' versions;
 * the writer CASes each item's lock before it reads the count. If the writer's lock comes first,
 * the waiter's re-validation sees the item locked or changed (every protocol's isCurrent fails for
 * an item another transaction locked or changed since the read) and does not wait. If the waiter's
 * increment comes first, the writer sees a non-zero count and wakes it after publishing.
 *
 * Cost when nobody waits: one volatile read per writing commit. Waiters, and commits while some
 * thread waits, take one monitor; the blocking path is not allocation-free the first time a
 * thread waits (its Waiter, and the array growing).
 */

/** A store's waiters in {@code retry}, and their wake-up by committing writers. */
final class WaitRegistry {
    /** Stripes of items a waiter can wait on; a commit to another item of a stripe wakes it too. */
    private static final int STRIPES = 1024;

    private static final VarHandle WAITING;

    static {
        try {
            WAITING = MethodHandles.lookup().findVarHandle(WaitRegistry.class, "waiting", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Registered waiters; read (volatile) by every writing commit. */
    @SuppressWarnings("unused") // accessed through WAITING
    private volatile int waiting;
    private Waiter[] waiters = new Waiter[4];
    private int count;

    /** @return true if some transaction of the store waits in retry (a volatile read) */
    boolean hasWaiters() {
        return (int) WAITING.getVolatile(this) != 0;
    }

    /** Registers {@code w}; a full fence precedes the caller's re-validation of its reads. */
    void register(Waiter w) {
        synchronized (this) {
            if (count == waiters.length) {
                waiters = Arrays.copyOf(waiters, count * 2);
            }
            waiters[count++] = w;
        }
        WAITING.getAndAdd(this, 1);
        w.registered = true;
    }

    /** Removes {@code w} if registered. */
    void deregister(Waiter w) {
        if (!w.registered) {
            return;
        }
        w.registered = false;
        synchronized (this) {
            for (int i = 0; i < count; i++) {
                if (waiters[i] == w) {
                    waiters[i] = waiters[--count];
                    waiters[count] = null;
                    break;
                }
            }
        }
        WAITING.getAndAdd(this, -1);
    }

    /** Wakes every waiter whose stripes the write list of {@code set} touches (its values are published). */
    void wake(AccessSet set) {
        synchronized (this) {
            for (int i = 0; i < count; i++) {
                Waiter w = waiters[i];
                if (!w.woken && w.touchedBy(set)) {
                    w.woken = true;
                    LockSupport.unpark(w.thread);
                }
            }
        }
    }

    /** One thread's wait, reused by its context: the stripes it read and whether a commit woke it. */
    static final class Waiter {
        final Thread thread;
        private final long[] stripes = new long[STRIPES / 64];
        /** Set by a waking writer (under the registry's monitor), read by the waiting thread. */
        volatile boolean woken;
        /** Owner thread only. */
        boolean registered;

        Waiter(Thread thread) {
            this.thread = thread;
        }

        /** Starts a new wait: no stripes, not woken. */
        void reset() {
            Arrays.fill(stripes, 0L);
            woken = false;
        }

        void add(TxItem item) {
            int s = item.itemHash() & (STRIPES - 1);
            stripes[s >>> 6] |= 1L << s;
        }

        boolean touchedBy(AccessSet set) {
            for (int k = 0, n = set.writeCount(); k < n; k++) {
                int s = set.writeAt(k).item.itemHash() & (STRIPES - 1);
                if ((stripes[s >>> 6] & (1L << s)) != 0) {
                    return true;
                }
            }
            return false;
        }
    }
}
