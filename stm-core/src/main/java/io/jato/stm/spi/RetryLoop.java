package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.TxnAbortedException;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import io.jato.stm.TxnType;
import io.jato.stm.internal.Backoff;
import io.jato.stm.internal.jfr.Events;

/*
 * The retry loop. Run the body, then commit. Conflicts found while the body runs unwind it with
 * the preallocated RollbackSignal; conflicts found by the commit come back as an AbortCause return
 * value. Either way the attempt's locks are released, the abort is counted by cause and the body
 * runs again after a randomized exponential backoff (seed paper 002 §4.1). A user exception is
 * reported only if the reads so far are still current: an exception caused by an inconsistent
 * snapshot (OCC reads are not opaque) is discarded and the transaction retried.
 */

/**
 * The retry loop of a {@link TxnContext}: attempts, retries, backoff. The layer of the context's
 * class chain above the {@link CommitDriver}, for the same reason (see there). Owner thread only.
 */
abstract class RetryLoop extends CommitDriver {
    /** How a transaction ended, as its JFR event says ({@code internal.jfr.TransactionEvent}). */
    private static final String OUTCOME_COMMITTED = "committed";
    private static final String OUTCOME_USER_ABORT = "user-abort";
    private static final String OUTCOME_GAVE_UP = "gave-up";
    /** The body's exception, or an internal failure: the throwable the caller receives. */
    private static final String OUTCOME_EXCEPTION = "exception";

    private final Backoff backoff;
    private final int maxAttempts;
    /** Aborts after which a transaction takes the store's escalation token (0: never). */
    private final int escalateAfter;
    /** The store's default deadline per transaction in nanoseconds; 0: none. */
    private final long timeoutNanos;

    /**
     * {@code settings}: the store's backoff minimum and maximum (ns), attempts, escalation
     * threshold, default timeout (ns) and opacity (non-zero: opaque), in that order.
     */
    RetryLoop(ConcurrencyControl cc, ProtocolContext protocolContext, boolean statistics, long[] settings) {
        super(cc, protocolContext, statistics, settings[5] != 0);
        this.backoff = new Backoff(settings[0], settings[1],
                System.nanoTime() ^ ((long) System.identityHashCode(this) << 32));
        this.maxAttempts = (int) settings[2];
        this.escalateAfter = (int) settings[3];
        this.timeoutNanos = settings[4];
    }

    /**
     * Runs a transaction body (exactly one of {@code fn} and {@code body} is non-null) with retries;
     * inside a running transaction it runs as a nested block of it (closed nesting, keeping the outer
     * type; see {@link TxnContext#runNested}).
     */
    final <T> T execute(TxnType type, TxnFunction<T> fn, TxnRunnable body, boolean declaredReadOnly) {
        final TxnContext txn = txn();
        final ThreadTransactions thread = txn.thread;
        TxnContext running = thread.running;
        if (thread.busy && running != txn) {
            throw new IllegalStateException("a transaction of store '" + txn.storeName()
                    + "' cannot run inside a transaction of store '" + running.storeName()
                    + "' on the same thread: transactions of two stores are not joined (the inner commit would not be"
                    + " atomic with the outer one, and each retry of the outer one would commit it again); keep"
                    + " objects updated together in one store, or run the second transaction after the first");
        }
        if (txn.status != TxnContext.IDLE) {
            return joinNested(fn, body, declaredReadOnly);
        }
        // JFR (internal.jfr.Events): null unless a recording wants transaction events; the outcome
        // and attempts are what the event reports when the transaction ends, however it ends.
        Object event = Events.beginTransaction();
        String outcome = OUTCOME_EXCEPTION;
        int attempts = 0;
        // Attempts that ended in a conflict or failure, not in a blocking retry: what escalation
        // and maxAttempts count (a consumer waiting in retry is not starving).
        int conflicts = 0;
        long firstAbortNanos = 0;
        try {
            // Inside the try: the first transaction of a type on this thread allocates its
            // statistics row, and an OutOfMemoryError there must not leave the thread marked running.
            // References are written only when they change: per transaction, only primitives.
            if (running != txn) {
                thread.running = txn;
            }
            thread.busy = true;
            if (txn.type != type) {
                txn.type = type;
            }
            counters.type(type);
            if (timeoutNanos != 0) {
                txn.deadline = System.nanoTime() + timeoutNanos;
                txn.hasDeadline = true;
            } else {
                txn.hasDeadline = false;
            }
            AbortCause last = null;
            for (int a = 0;; a++) {
                T result = null;
                AbortCause cause;
                if (a != 0 && txn.hasDeadline && System.nanoTime() - txn.deadline >= 0) {
                    // Between attempts: the last one rolled back and released everything.
                    txn.attempt = a - 1;
                    outcome = OUTCOME_GAVE_UP;
                    throw txn.timedOut(last);
                }
                attempts = a + 1;
                try {
                    beginAttempt(declaredReadOnly, a, conflicts);
                    if (fn != null) {
                        result = fn.apply(txn);
                    } else {
                        body.run(txn);
                    }
                    if (txn.pendingHooks != 0 && txn.status == TxnContext.ACTIVE) {
                        runBeforeCommit();
                    }
                    // DOOMED here: the body caught the rollback signal and returned normally.
                    cause = txn.status == TxnContext.DOOMED ? txn.doomCause : null;
                } catch (Throwable t) {
                    cause = bodyFailed(t);
                }
                if (cause == null) {
                    cause = commit();
                    if (cause == null) {
                        outcome = OUTCOME_COMMITTED;
                        if (txn.pendingHooks != 0) {
                            afterCommitted(thread);
                        }
                        return result;
                    }
                } else {
                    endAttempt(cause, null);
                    if (cause == AbortCause.USER_ABORT) {
                        outcome = OUTCOME_USER_ABORT;
                        throw new TxnAbortedException("transaction aborted by the user", cause, a + 1);
                    }
                }
                last = cause;
                if (txn.pendingHooks != 0) {
                    afterRolledBack(cause);
                }
                if (cause == AbortCause.RETRY) {
                    // Not a conflict: wait for a change to what the attempt read, no backoff. An
                    // escalated transaction gives the token back first: the writers it waits for
                    // would otherwise wait for the token.
                    if (txn.escalated) {
                        txn.escalated = false;
                        escalation.release();
                    }
                    txn.retryWait.await(backoff);
                    continue;
                }
                conflicts++;
                if (conflicts >= maxAttempts) {
                    outcome = OUTCOME_GAVE_UP;
                    throw new TxnAbortedException("transaction gave up after " + (a + 1) + " attempts; last abort: "
                            + cause, cause, a + 1);
                }
                // Off the commit path: only a transaction that aborted reads the clock, once.
                if (a == 0) {
                    firstAbortNanos = System.nanoTime();
                } else if (Events.isStarvationMark(a + 1)) {
                    Events.starving(txn.storeName(), cc.name(), txn.type, a + 1, cause,
                            System.nanoTime() - firstAbortNanos);
                }
                // Holding nothing now: while a starving transaction runs escalated, wait for it. The
                // escalated one backs off too: what aborted it is a commit in flight when it took
                // the token (at most one per thread), which the pause lets finish.
                escalation.awaitFree(txn);
                if (txn.hasDeadline) {
                    // Never sleep past the deadline: the next round gives up at once then.
                    backoff.pause(a, txn.deadline - System.nanoTime());
                } else {
                    backoff.pause(a);
                }
            }
        } catch (Throwable t) {
            // The attempt ended by a throw (the body's exception, an abort, a failure): its
            // after-rollback hooks still run, and what they throw is suppressed into t.
            if (txn.pendingHooks != 0) {
                CommitDriver.addSuppressed(t, runAfterRollback(txn.endCause));
            }
            txn.retryWait.disarm();
            throw t;
        } finally {
            if (txn.escalated) {
                txn.escalated = false;
                escalation.release();
            }
            thread.busy = false;
            backoff.restoreInterrupt();
            if (event != null) {
                Events.endTransaction(event, txn.storeName(), cc.name(), txn.type, attempts, outcome,
                        declaredReadOnly);
            }
        }
    }

    /** Runs the after-commit hooks outside the finished transaction; rethrows the first failure. */
    private void afterCommitted(ThreadTransactions thread) {
        thread.busy = false;
        Throwable failure = runAfterCommit();
        if (failure != null) {
            throw CommitDriver.sneakyThrow(failure);
        }
    }

    /** Runs the after-rollback hooks of an attempt that will be retried; a failure ends the transaction. */
    private void afterRolledBack(AbortCause cause) {
        Throwable failure = runAfterRollback(cause);
        if (failure != null) {
            throw CommitDriver.sneakyThrow(failure);
        }
    }

    /** Runs the attempt's before-commit hooks (the retry loop, after the body returned normally). */
    private void runBeforeCommit() {
        final TxnContext txn = txn();
        txn.hooks.runBefore(txn);
    }

    /**
     * Runs the after-commit hooks of the transaction that just committed (context idle, locks
     * released) and drops every registration; returns the first failure, or null. The lists are
     * detached while they run: a hook may run a transaction of this store, which registers into
     * lists of its own.
     */
    private Throwable runAfterCommit() {
        final TxnContext txn = txn();
        TxnHooks h = txn.hooks;
        txn.pendingHooks = 0;
        txn.hooks = null;
        try {
            return h.runAfter();
        } finally {
            h.clear();
            if (txn.hooks == null) {
                txn.hooks = h;
            }
        }
    }

    /**
     * Runs the after-rollback hooks of the attempt that just ended with {@code cause} and drops
     * every registration; returns the first failure, or null. Meanwhile the context refuses to be
     * used or joined.
     */
    private Throwable runAfterRollback(AbortCause cause) {
        final TxnContext txn = txn();
        TxnHooks h = txn.hooks;
        txn.pendingHooks = 0;
        txn.status = TxnContext.HOOKS;
        try {
            return h.runRollback(cause);
        } finally {
            h.clear();
            txn.status = TxnContext.IDLE;
        }
    }

    private void beginAttempt(boolean declaredReadOnly, int a, int conflicts) {
        final TxnContext txn = txn();
        txn.readOnly = declaredReadOnly;
        txn.declaredReadOnly = declaredReadOnly;
        txn.beginSet(declaredReadOnly && txn.readLogs, txn.wordLogs);
        txn.attempt = a;
        if (a == 0) {
            txn.age = 0;
        }
        txn.doomCause = null;
        if (conflicts >= escalateAfter && escalateAfter > 0 && !txn.escalated) {
            // Starving: take the store's escalation token for the rest of this transaction.
            escalation.acquire(txn);
            txn.escalated = true;
        }
        txn.attemptId++;
        if (txn.remoteAborts) {
            txn.publishAttempt();
        }
        counters.started();
        if (txn.opaque) {
            txn.beginOpaque();
        }
        txn.snapshotCells = false;
        cc.begin(txn);
        // Only now: a begin that threw leaves the context IDLE (see bodyFailed).
        txn.status = TxnContext.ACTIVE;
    }

    /**
     * The body (or the protocol's begin) threw {@code t}. Returns the cause to retry with, or ends
     * the attempt and rethrows {@code t}: a user exception on a consistent snapshot is the caller's.
     */
    private AbortCause bodyFailed(Throwable t) {
        final TxnContext txn = txn();
        if (txn.status == TxnContext.IDLE) {
            // The protocol's begin threw: by contract it holds nothing, so there is nothing to finish.
            counters.aborted(AbortCause.INTERNAL_FAILURE);
            Events.abort(txn.storeName(), cc.name(), txn.type, AbortCause.INTERNAL_FAILURE, txn.attempt + 1);
            try {
                txn.clear();
            } catch (Throwable bug) {
                CommitDriver.addSuppressed(t, bug);
            }
            throw CommitDriver.sneakyThrow(t);
        }
        if (txn.status == TxnContext.DOOMED) {
            return txn.doomCause;
        }
        boolean current;
        try {
            current = isReadSetCurrent();
        } catch (Throwable bug) {
            CommitDriver.addSuppressed(t, bug);
            endAttempt(AbortCause.INTERNAL_FAILURE, t);
            throw CommitDriver.sneakyThrow(t);
        }
        if (!current) {
            return AbortCause.INCONSISTENT_READ;
        }
        endAttempt(AbortCause.USER_EXCEPTION, t);
        throw CommitDriver.sneakyThrow(t);
    }

    private <T> T joinNested(TxnFunction<T> fn, TxnRunnable body, boolean declaredReadOnly) {
        final TxnContext txn = txn();
        txn.checkActive();
        // A read-only block inside a writing transaction makes the transaction read-only for
        // the block's duration: a write in it throws, as it would at the top level.
        boolean outer = txn.readOnly;
        txn.readOnly = outer | declaredReadOnly;
        try {
            return txn.runNested(fn, body);
        } finally {
            txn.readOnly = outer;
        }
    }
}
