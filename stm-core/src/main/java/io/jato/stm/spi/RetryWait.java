package io.jato.stm.spi;

import io.jato.stm.TxnInterruptedException;
import io.jato.stm.internal.Backoff;
import io.jato.stm.internal.Tunables;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/*
 * Blocking retry (Txn.retry, Txn.retryFor): the attempt registers its thread on the wait stripes
 * of every item it read, rolls back, and parks until a writing commit to one of those stripes
 * wakes it, a recheck period passes (a write outside transactions wakes nobody), the retryFor
 * deadline or the transaction's deadline passes, or the thread is interrupted. See WaitRegistry
 * for why no wake-up is missed. Cold code: a transaction that never retries only pays for the
 * context's reference to this object.
 */

/** The blocking-retry wait of one {@link TxnContext}. Owner thread only. */
final class RetryWait {
    /** How long a retry waits at most before the body runs again (writes outside transactions wake nobody). */
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(Tunables.RETRY_RECHECK_MILLIS);

    private final TxnContext txn;
    /** This thread's wait in retry, created on its first retry. */
    private WaitRegistry.Waiter waiter;
    /** The deadline retryFor set, in System.nanoTime() terms, valid for transaction {@link #deadlineTxn}. */
    private long retryDeadline;
    /** The transaction (its first attempt's id) that set {@link #retryDeadline}; -1 for none. */
    private long deadlineTxn = -1;

    RetryWait(TxnContext txn) {
        this.txn = txn;
    }

    /** A pooled context moved to thread {@code t}: a waiter wakes its own thread, so the next one is made for t. */
    void bind(Thread t) {
        if (waiter != null && waiter.thread != t) {
            waiter = null;
        }
    }

    /** @return the id of the running transaction: its first attempt's id, the same in every attempt */
    private long transactionId() {
        return txn.attemptId - txn.attempt;
    }

    /**
     * {@code Txn.retryFor}: the first call of a transaction sets its retry deadline.
     *
     * @return true if the deadline has not passed (the caller retries), false if it has
     */
    boolean beforeDeadline(long timeout, TimeUnit unit) {
        long now = System.nanoTime();
        long id = transactionId();
        if (deadlineTxn != id) {
            deadlineTxn = id;
            retryDeadline = now + Math.min(unit.toNanos(timeout), Long.MAX_VALUE / 4);
        }
        return retryDeadline - now > 0;
    }

    /** @return true if the running transaction set a retryFor deadline (it may wait having read nothing) */
    boolean hasDeadline() {
        return deadlineTxn == transactionId();
    }

    /**
     * Registers this thread as waiting on the stripes of every item the attempt read, then
     * re-validates the reads: if one changed already the wait is over before it starts.
     */
    void arm() {
        WaitRegistry.Waiter w = waiter;
        if (w == null) {
            waiter = w = new WaitRegistry.Waiter(txn.owner);
        }
        w.reset();
        int n = txn.readCount();
        for (int k = 0; k < n; k++) {
            w.add(txn.readAt(k).item);
        }
        WaitRegistry waits = txn.protocolContext.waits;
        waits.register(w);
        try {
            for (int k = 0; k < n; k++) {
                if (!txn.cc.isCurrent(txn, txn.readAt(k))) {
                    w.woken = true;
                    break;
                }
            }
        } catch (Throwable t) {
            waits.deregister(w);
            throw t;
        }
    }

    /**
     * Waits, after an attempt that retried ended, until a commit wakes this thread, the retry
     * deadline passes, or {@code jato.retryRecheckMillis} (50 ms) elapse (a write outside
     * transactions may have changed a read item: the body runs again and decides). Throws
     * {@link TxnInterruptedException} if the thread is interrupted. Always leaves the registry.
     */
    void await(Backoff backoff) {
        WaitRegistry.Waiter w = waiter;
        if (w == null || !w.registered) {
            return;
        }
        try {
            backoff.restoreInterrupt();
            long end = System.nanoTime() + RECHECK_NANOS;
            if (hasDeadline() && retryDeadline - end < 0) {
                end = retryDeadline;
            }
            if (txn.hasDeadline && txn.deadline - end < 0) {
                // The retry loop throws TxnTimeoutException before the next attempt.
                end = txn.deadline;
            }
            while (!w.woken) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new TxnInterruptedException("interrupted while a transaction of store '" + txn.storeName()
                            + "' waited in retry; it was rolled back");
                }
                long left = end - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                LockSupport.parkNanos(w, left);
            }
        } finally {
            txn.protocolContext.waits.deregister(w);
        }
    }

    /** Leaves the registry if a retry armed a wait that will not be awaited (the transaction ended by a throw). */
    void disarm() {
        if (waiter != null) {
            txn.protocolContext.waits.deregister(waiter);
        }
    }
}
