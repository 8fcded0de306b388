package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.RollbackSignal;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import io.jato.stm.TxnTimeoutException;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/*
 * What a transaction body can ask of its Txn beyond reading and writing objects: abort, hooks,
 * blocking retry and orElse, deadlines and validate, and the protocols' views of escalation and
 * age. A layer of the context's class chain, as the access set, the commit driver and the retry
 * loop are (see CommitDriver for why layers and not objects): its fields are the context's own.
 * None of it is on the path of a transaction that uses none of it: the retry loop checks
 * pendingHooks and hasDeadline, two fields of this object.
 */

/**
 * The user-facing operations of a {@link TxnContext}: {@link Txn#abort}, hooks, {@link Txn#retry}
 * and {@link Txn#orElse}, deadlines, {@link Txn#validate}, escalation and age. A layer of the
 * context's class chain ({@code Txn} &lt;- {@link AccessSet} &lt;- {@link ScratchPool} &lt;-
 * {@link CommitDriver} &lt;- {@link RetryLoop} &lt;- {@code UserTxn} &lt;- {@code TxnContext}).
 * Owner thread only.
 */
abstract class UserTxn extends RetryLoop {
    /** The running transaction holds the store's escalation token; owner thread only (the retry loop sets it). */
    boolean escalated;
    /** The running transaction's age ({@link #age}); 0 until drawn. Owner thread only; reset by the retry loop. */
    long age;
    /** The polls argument of the last {@link #escalatedWaits} call; owner thread. */
    private int escalatedWaitPolls;
    /** When the wait {@link #escalatedWaits} is timing began ({@code System.nanoTime}); owner thread. */
    private long escalatedWaitStart;
    /**
     * Hooks registered in this attempt ({@link #beforeCommit}, {@link #afterCommit},
     * {@link #afterRollback}); 0 when none, which is all the retry loop checks.
     */
    int pendingHooks;
    /** The hook lists, created on first registration and reused by later transactions. */
    TxnHooks hooks;
    /** Why the last attempt rolled back (set by the commit driver; read by after-rollback hooks). */
    AbortCause endCause;

    // Blocking retry and orElse. Owner thread only.
    /** Nesting depth of orElse alternatives that may still be skipped (Savepoints.orElse sets it). */
    int altDepth;
    /** Set by a retry that skips to the next alternative of the innermost orElse. */
    boolean altRetry;

    /** The running transaction's deadline in System.nanoTime() terms, valid while {@link #hasDeadline}. */
    long deadline;
    boolean hasDeadline;
    /** Opaque stores: the commit count at which this attempt's reads were last found current. */
    long validAt;

    UserTxn(ConcurrencyControl cc, ProtocolContext protocolContext, boolean statistics, long[] settings) {
        super(cc, protocolContext, statistics, settings);
    }

    /**
     * @return true if the running attempt holds the store's escalation token: its transaction
     *         aborted {@link Stm.Builder#escalateAfter} times, and no other transaction of the store
     *         commits a write until it ends. Protocols give it priority: it waits for locks instead
     *         of aborting, and nobody waits for it ({@code docs/lock-family.md}). Owner thread; a
     *         plain field read.
     */
    public boolean isEscalated() {
        return escalated;
    }

    /**
     * @return true if the store runs with opacity ({@code Stm.Builder.opacity}): a read must never
     *         hand the body a value that, with the others it read, no commit order explains. A
     *         protocol that may return a version still being replaced (and leave the rest to
     *         commit-time validation) must not do so here: the store-wide commit counter the
     *         opacity checks read moves before the installs, so it cannot tell. Owner thread.
     */
    public boolean isOpaque() {
        return opaque;
    }

    /**
     * The running transaction's age, for protocols that order conflicting transactions by when they
     * started (wait-die, wound-wait): drawn from the store's age sequence at the transaction's first
     * call, then the same for all of its attempts, and reset when the thread's next transaction
     * begins. Smaller is older. One sequence serves every protocol of a store, so that a store whose
     * objects are bound to several lock-taking protocols orders any two transactions the same way in
     * each of them (separate sequences let two transactions each be the older one in a different
     * protocol and wait for each other). Owner thread; a plain field read after the first call, one
     * atomic add on the store's padded sequence at the first.
     *
     * @return the age, at least 1
     */
    public long age() {
        long a = age;
        if (a == 0) {
            a = protocolContext.ages.next();
            age = a;
        }
        return a;
    }

    /** How long an escalated transaction waits for one holder before it gives up ({@link #escalatedWaits}). */
    public static final long ESCALATED_WAIT_NANOS = 250_000_000L;

    /**
     * Whether an escalated transaction goes on waiting for the holder of an item, at the
     * {@code polls}-th poll of one wait (a wait's polls are consecutive numbers, pausing with
     * {@link LockBitWords#pause}, which yields after a short spin; any other number starts a new
     * wait). It waits up to {@link #ESCALATED_WAIT_NANOS}: long enough to wait out a committer
     * descheduled while it holds the item, but bounded, because a non-transactional operation that
     * locks several items (a record's groups) waits for each while holding the ones before it, so
     * an escalated transaction that waited for it without a bound while holding one of those items
     * would deadlock with it. Past the bound the protocol aborts as it would without escalation;
     * the transaction stays escalated. Reads the clock on every call: escalated waits only.
     *
     * @return true if this attempt is escalated and its current wait is younger than the bound;
     *         owner thread
     */
    public boolean escalatedWaits(int polls) {
        if (!escalated) {
            return false;
        }
        long now = System.nanoTime();
        if (polls != escalatedWaitPolls + 1) {
            escalatedWaitStart = now;
        }
        escalatedWaitPolls = polls;
        return now - escalatedWaitStart < ESCALATED_WAIT_NANOS;
    }

    @Override
    public RuntimeException abort() {
        txn().checkActive();
        throw txn().rollback(AbortCause.USER_ABORT);
    }

    @Override
    public void beforeCommit(TxnRunnable hook) {
        hooksToRegister(hook).addBefore(hook);
    }

    @Override
    public void afterCommit(Runnable hook) {
        hooksToRegister(hook).addAfter(hook);
    }

    @Override
    public void afterRollback(Consumer<? super AbortCause> hook) {
        hooksToRegister(hook).addRollback(hook);
    }

    @Override
    public RuntimeException retry() {
        txn().checkActive();
        throw retryNow();
    }

    @Override
    public void retryFor(long timeout, TimeUnit unit) {
        checkTimeout("retryFor timeout", timeout, unit);
        if (txn().retryWait.beforeDeadline(timeout, unit)) {
            throw retryNow();
        }
    }

    @Override
    public void timeout(long timeout, TimeUnit unit) {
        checkTimeout("timeout", timeout, unit);
        long d = System.nanoTime() + Math.min(unit.toNanos(timeout), Long.MAX_VALUE / 4);
        if (!hasDeadline || d - deadline < 0) {
            deadline = d;
            hasDeadline = true;
        }
    }

    /** Checks the running transaction and a duration argument named {@code what}; changes nothing. */
    private void checkTimeout(String what, long timeout, TimeUnit unit) {
        txn().checkActive();
        Objects.requireNonNull(unit, "unit");
        if (timeout < 0) {
            throw new IllegalArgumentException(what + " must be >= 0, got " + timeout + " " + unit);
        }
    }

    @Override
    public void validate() {
        txn().checkActive();
        if (hasDeadline && System.nanoTime() - deadline >= 0) {
            throw timedOut(null);
        }
        if (!isReadSetCurrent()) {
            throw txn().rollback(AbortCause.READ_VALIDATION);
        }
    }

    /** The exception of a transaction whose deadline passed; {@code cause}: why its last attempt ended, if it did. */
    TxnTimeoutException timedOut(AbortCause cause) {
        return new TxnTimeoutException("transaction of store '" + txn().storeName() + "' passed its deadline after "
                + (txn().attempt + 1) + " attempt(s)" + (cause == null ? "" : "; last abort: " + cause)
                + "; it was rolled back", cause, txn().attempt + 1);
    }

    /**
     * Opaque stores, after a read that went to shared memory: if a writing commit started since
     * the reads were last found current, checks them all again and rolls back if one changed.
     * The counter is loaded after the read, so a value installed by a commit is never seen without
     * that commit's increment (see {@link io.jato.stm.internal.CommitCounter}).
     */
    final void opaqueCheck() {
        long c = protocolContext.commits.current();
        if (c != validAt) {
            if (!isReadSetCurrent()) {
                throw txn().rollback(AbortCause.READ_VALIDATION);
            }
            validAt = c;
        }
    }

    /** Starts an attempt's opacity bookkeeping (the retry loop, opaque stores only). */
    void beginOpaque() {
        validAt = protocolContext.commits.current();
    }

    /** Skips to the next orElse alternative if one is open; else arms the wait and rolls back. */
    private RuntimeException retryNow() {
        if (altDepth != 0) {
            altRetry = true;
            throw RollbackSignal.INSTANCE;
        }
        if (readCount() == 0 && !txn().retryWait.hasDeadline()) {
            throw new IllegalStateException("retry() in a transaction of store '" + txn().storeName() + "' that has read"
                    + " nothing: no commit could ever wake it (retry after reading the state you wait for)");
        }
        txn().retryWait.arm();
        throw txn().rollback(AbortCause.RETRY);
    }

    @Override
    public <T> T orElse(TxnFunction<T> first, TxnFunction<T> second) {
        txn().checkActive();
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        return txn().savepoints.orElse(txn(), first, second);
    }

    /** Runs a block nested in this running transaction (closed nesting; see {@link Savepoints#runNested}). */
    <T> T runNested(TxnFunction<T> fn, TxnRunnable body) {
        return txn().savepoints.runNested(txn(), fn, body);
    }

    /** @return the hook lists, or null if no hook was ever registered on this context */
    TxnHooks hooks() {
        return hooks;
    }

    /** Transaction-local values for {@link Savepoints} (the protected methods of {@link Txn}). */
    int localsOpen() {
        return openLocals();
    }

    void localsRollback(int mark) {
        rollbackLocals(mark);
    }

    void localsClose() {
        closeLocals();
    }

    private TxnHooks hooksToRegister(Object hook) {
        txn().checkActive();
        Objects.requireNonNull(hook, "hook");
        TxnHooks h = hooks;
        if (h == null) {
            hooks = h = new TxnHooks();
        }
        pendingHooks++;
        return h;
    }
}
