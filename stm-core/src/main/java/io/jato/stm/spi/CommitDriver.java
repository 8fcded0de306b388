package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.Capabilities;
import io.jato.stm.RollbackSignal;
import io.jato.stm.internal.Tunables;
import io.jato.stm.internal.jfr.Events;

import java.lang.invoke.VarHandle;

/*
 * The commit driver: the same phases for every protocol (see ConcurrencyControl). Lock the write
 * set in first-write order with the protocol's own waiting policy (no sort: a lock that cannot be
 * had is treated as a possible deadlock and the attempt aborts), take the commit timestamp,
 * validate the read set, run the participants' checks, let the protocol prepare (its last word,
 * once per commit, read-only and write-only ones included), pass the point of no return (a CAS
 * that a remote abort can win, only for protocols that declare REMOTE_ABORT), install every
 * value, then publish every version. Each phase walks its own list of the access set (writes, reads, checks), not the whole
 * set. The protocol is a final class per store, so each hook call is monomorphic while one
 * protocol is in use; simple cells are installed by a switch on the entry kind, not a virtual call.
 *
 * Failure atomicity. Until the first install, a failure (an abort cause, or any Throwable from the
 * protocol, a participant's check or a commit-time updater) undoes nothing but the locks: their old
 * words come back, nothing else was written. From the first install on, nothing is undone under an
 * old word: built-in installs put their old values back while still locked, and every write not yet
 * published gets a new version (ConcurrencyControl.unlockChanged), so each reader that overlapped
 * the failed commit fails validation; the throwable reaches the caller (counted INTERNAL_FAILURE).
 *
 * Why a layer of the context's class chain, not an object the context holds: the driver walks the
 * access set and reads the attempt's state after every volatile load of an item's word, when the
 * JIT must load fields again. Held in an object of its own, each of those loads went through one
 * more reference (the driver's to the context), and the retry loop's call into it through another;
 * as one object, small transactions took 8-14% less time in JMH (docs/benchmarks/2026-11-perfasm.md,
 * "commit driver and retry loop as layers of the context").
 *
 * Package-private in the SPI package, not in internal: it manages Entry's package-private state.
 */

/**
 * The commit driver of a {@link TxnContext}: commits and rolls back its attempts. A layer of the
 * context's class chain ({@code Txn} &lt;- {@link AccessSet} &lt;- {@link ScratchPool} &lt;-
 * {@code CommitDriver} &lt;- {@link RetryLoop} &lt;- {@link UserTxn} &lt;- {@code TxnContext}), so that the driver's fields and the access set it
 * walks are the context's own (see the note above the class). Owner thread only.
 */
abstract class CommitDriver extends ScratchPool {
    private static final int PHASE_LOCK = 0;
    private static final int PHASE_VALIDATE = 1;
    private static final int PHASE_CHECK = 2;
    private static final int PHASE_PREPARE = 3;
    private static final int PHASE_INSTALL = 4;
    private static final int PHASE_PUBLISH = 5;

    /** The store's protocol: a final class per store, so every hook call below is monomorphic. */
    final ConcurrencyControl cc;
    /** The store's shared services (wait registry, commit counter, epoch, escalation gate); set once at creation. */
    final ProtocolContext protocolContext;
    /** Statistics: an object of their own, padded, since other threads read them. */
    final TxnCounters counters;
    /** True if the protocol declared {@link Capabilities.Feature#REMOTE_ABORT}: poll before locking, and pass the point of no return by CAS. */
    final boolean remoteAborts;
    /** The store is opaque ({@link io.jato.stm.Stm.Builder#opacity}): writing commits count themselves in the store's commit counter, and reads re-validate when it moved. */
    final boolean opaque;
    /** The store's escalation token: a writing commit aborts while another transaction holds it. */
    final EscalationGate escalation;
    private int commitCount;
    /** Serial number of the current attempt, counted per context; owner thread only (the retry loop counts it). */
    long attemptId;

    /*
     * Remote aborts (only with a protocol that declares REMOTE_ABORT). (attemptId << 2) | state,
     * state RUNNING, ABORT_REQUESTED or COMMIT_POINT. The owner stores attemptId << 2 with release
     * when an attempt begins and CASes RUNNING -> COMMIT_POINT at its point of no return; another
     * thread CASes RUNNING -> ABORT_REQUESTED for the attempt it names. Whoever's CAS wins decides
     * whether the attempt commits: a requester never aborts an attempt past its point of no return,
     * nor a later attempt than the one it saw.
     */
    private static final VarHandle REMOTE;
    private static final long RUNNING = 0;
    private static final long ABORT_REQUESTED = 1;
    private static final long COMMIT_POINT = 2;
    @SuppressWarnings("unused") // accessed through REMOTE
    private volatile long remote;

    static {
        try {
            REMOTE = java.lang.invoke.MethodHandles.lookup().findVarHandle(CommitDriver.class, "remote", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    CommitDriver(ConcurrencyControl cc, ProtocolContext protocolContext, boolean statistics, boolean opaque) {
        this.cc = cc;
        this.protocolContext = protocolContext;
        this.counters = new TxnCounters(statistics);
        this.remoteAborts = protocolContext.capabilities().has(Capabilities.Feature.REMOTE_ABORT);
        this.opaque = opaque;
        this.escalation = protocolContext.escalation;
    }

    /**
     * This object as the context the protocol's hooks take. A cast, not a field: the chain's only
     * concrete class is the final {@code TxnContext}, so the cast compares the object's class word,
     * and every access stays on this one object.
     */
    final TxnContext txn() {
        return (TxnContext) this;
    }

    /**
     * @return the serial number of the current attempt of this context (owner thread; a protocol
     *         records it in its state so that another thread can name the attempt to
     *         {@link #requestAbort})
     */
    public long attemptId() {
        return attemptId;
    }

    /**
     * Asks that attempt {@code attemptId} of this context not commit; callable from any thread, by
     * a protocol that declared {@link Capabilities.Feature#REMOTE_ABORT} (a contention manager).
     * The owner notices at its next poll ({@link #abortRequested()}, which the protocol's hooks
     * call where it wants the abort to take effect, and the commit driver calls before locking),
     * or at the latest at its point of no return, and ends the attempt with
     * {@link AbortCause#REMOTE_ABORT}, releasing its locks. Lock-free; never blocks.
     *
     * @return true if the attempt will not commit; false if it already passed its point of no
     *         return, already ended, or a later attempt runs (nothing is then changed)
     * @throws IllegalStateException if the store's protocol did not declare REMOTE_ABORT
     */
    public boolean requestAbort(long attemptId) {
        if (!remoteAborts) {
            throw new IllegalStateException("protocol '" + cc.name() + "' did not declare REMOTE_ABORT in its capabilities");
        }
        long attempt = attemptId << 2;
        for (;;) {
            long w = (long) REMOTE.getVolatile(this);
            if (w == (attempt | ABORT_REQUESTED)) {
                return true;
            }
            if (w != (attempt | RUNNING)) {
                return false;
            }
            if (REMOTE.compareAndSet(this, w, attempt | ABORT_REQUESTED)) {
                return true;
            }
        }
    }

    /** @return true if another thread asked that the current attempt not commit (owner thread; a volatile load) */
    public boolean abortRequested() {
        return ((long) REMOTE.getVolatile(this) & 3) == ABORT_REQUESTED;
    }

    /** Begins an attempt's remote-abort word (owner; only with remote aborts). */
    void publishAttempt() {
        REMOTE.setRelease(this, attemptId << 2 | RUNNING);
    }

    /**
     * Passes the point of no return (owner; only with remote aborts): false if a remote abort won,
     * and the attempt must end with {@link AbortCause#REMOTE_ABORT}.
     */
    boolean passCommitPoint() {
        long running = attemptId << 2 | RUNNING;
        return REMOTE.compareAndSet(this, running, attemptId << 2 | COMMIT_POINT);
    }

    /** Commits the current attempt; returns null on success or the cause after rolling back. */
    final AbortCause commit() {
        final TxnContext txn = txn();
        final ConcurrencyControl cc = this.cc;
        txn.status = TxnContext.COMMITTING;
        final int writes = txn.writeCount();
        AbortCause cause = null;
        int phase = PHASE_LOCK;
        int done = 0;
        long ts = 0;
        boolean wake = false;
        if (remoteAborts && txn.abortRequested()) {
            endAttempt(AbortCause.REMOTE_ABORT, null);
            return AbortCause.REMOTE_ABORT;
        }
        try {
            for (int k = 0; k < writes; k++) {
                Entry e = txn.writeAt(k);
                if ((e.flags & Entry.LOCKED) == 0) {
                    cause = cc.lock(txn, e);
                    if (cause != null) {
                        break;
                    }
                }
            }
            if (cause == null && writes != 0 && escalation.heldByOther(txn)) {
                // A starving transaction runs escalated: no other write commits until it ends (read
                // after the lock CASes, the Dekker pair of EscalationGate).
                cause = AbortCause.LOCK_BUSY;
            }
            if (cause == null) {
                ts = cc.commitTimestamp(txn, writes == 0);
                phase = PHASE_VALIDATE;
                for (int k = 0, n = txn.readCount(); k < n; k++) {
                    cause = cc.validate(txn, txn.readAt(k), ts);
                    if (cause != null) {
                        break;
                    }
                }
            }
            if (cause == null) {
                for (int k = 0, n = txn.logCount(); k < n; k++) {
                    cause = cc.validateWord(txn.logItem(k), txn.logWord(k));
                    if (cause != null) {
                        break;
                    }
                }
            }
            if (cause == null) {
                phase = PHASE_CHECK;
                for (int k = 0, n = txn.checkCount(); k < n; k++) {
                    Entry e = txn.checkAt(k);
                    if (!e.participant.check(txn, e)) {
                        cause = AbortCause.READ_VALIDATION;
                        break;
                    }
                }
            }
            if (cause == null) {
                phase = PHASE_PREPARE;
                cause = cc.prepare(txn, ts);
            }
            if (cause == null && remoteAborts && !txn.passCommitPoint()) {
                cause = AbortCause.REMOTE_ABORT;
            }
            if (cause == null && writes != 0) {
                if (opaque) {
                    // After every write lock, before the first install: see CommitCounter.
                    protocolContext.commits.increment();
                }
                // After every write lock: see WaitRegistry for why no waiter is missed.
                wake = protocolContext.waits.hasWaiters();
                phase = PHASE_INSTALL;
                txn.installsComplete = false;
                for (int k = 0; k < writes; k++) {
                    cc.install(txn, txn.writeAt(k), ts);
                }
                phase = PHASE_PUBLISH;
                txn.installsComplete = true;
                for (int k = 0; k < writes; k++) {
                    Entry e = txn.writeAt(k);
                    done = k;
                    cc.publish(txn, e, ts);
                    e.flags &= ~Entry.LOCKED;
                }
            }
        } catch (Throwable t) {
            return commitFailed(t, phase, ts, done);
        }
        if (cause != null) {
            endAttempt(cause, null);
            return cause;
        }
        if (wake) {
            protocolContext.waits.wake(txn);
        }
        counters.committed();
        if ((++commitCount & Tunables.EPOCH_CHECK_MASK) == 0) {
            protocolContext.tickEpoch(System.nanoTime());
        }
        // Committed: a participant's cleanup that throws must still leave the context reusable.
        finishAndClear(null, null);
        return null;
    }

    /**
     * Something threw inside {@link #commit} during {@code phase}. Before the install phase the
     * attempt is rolled back like an abort; a throw from a participant's check (a commit-time
     * updater is user code) on a snapshot that no longer validates is retried like an exception
     * from the body. From the install phase on, every write not yet published gets a new version.
     * Returns a cause to retry with, or rethrows {@code t}.
     */
    private AbortCause commitFailed(Throwable t, int phase, long ts, int firstUnpublished) {
        final TxnContext txn = txn();
        if (phase < PHASE_INSTALL) {
            if (t == RollbackSignal.INSTANCE) {
                // A participant's check asked to roll back (through Txn.abort or a protocol read).
                AbortCause cause = txn.doomCause != null ? txn.doomCause : AbortCause.READ_VALIDATION;
                endAttempt(cause, null);
                return cause;
            }
            Throwable bug = releaseLocks(null);
            AbortCause cause = AbortCause.INTERNAL_FAILURE;
            if (phase == PHASE_CHECK && bug == null) {
                try {
                    cause = isReadSetCurrent() ? AbortCause.USER_EXCEPTION : AbortCause.INCONSISTENT_READ;
                } catch (Throwable b) {
                    bug = b;
                }
            }
            if (cause == AbortCause.INCONSISTENT_READ) {
                endAttempt(cause, null);
                return cause;
            }
            addSuppressed(t, bug);
            endAttempt(cause, t);
            throw sneakyThrow(t);
        }
        // Past the point of no return: never restore an old word. A failure while installing puts
        // the old values of built-in installs back while the items are still locked (a custom
        // install is not undone). A failure while publishing undoes nothing: every value is in
        // place and some are already visible, so the rest of the publication is completed. Either
        // way every write not yet published gets a new version.
        final int writes = txn.writeCount();
        if (phase == PHASE_INSTALL) {
            for (int k = 0; k < writes; k++) {
                Entry e = txn.writeAt(k);
                if ((e.flags & Entry.UNDO) != 0) {
                    try {
                        e.undoInstall(txn);
                    } catch (Throwable bug) {
                        addSuppressed(t, bug);
                    }
                }
            }
        }
        for (int k = phase == PHASE_PUBLISH ? firstUnpublished : 0; k < writes; k++) {
            Entry e = txn.writeAt(k);
            try {
                cc.unlockChanged(txn, e, ts);
            } catch (Throwable bug) {
                addSuppressed(t, bug);
            }
            e.flags &= ~Entry.LOCKED;
        }
        endAttempt(AbortCause.INTERNAL_FAILURE, t);
        throw sneakyThrow(t);
    }

    /**
     * Rolls back the current attempt: releases locks, lets the protocol finish, runs cleanups,
     * counts the cause, and always leaves the context idle. With a {@code primary} throwable, that
     * one is thrown at the end with any failure of those steps suppressed into it; without one, the
     * first such failure is thrown once every step has run.
     */
    final void endAttempt(AbortCause cause, Throwable primary) {
        final TxnContext txn = txn();
        txn.endCause = cause;
        counters.aborted(cause);
        // Never throws (an event that cannot be recorded is dropped), so the release below runs.
        Events.abort(txn.storeName(), cc.name(), txn.type, cause, txn.attempt + 1);
        Throwable bug = releaseLocks(null);
        if (primary != null) {
            addSuppressed(primary, bug);
            bug = primary;
        }
        finishAndClear(cause, bug);
    }

    /**
     * Releases every lock the attempt holds, each in its own try; returns the first failure. Locks
     * are held on written entries, and (for protocols that lock at read time) on read ones.
     */
    private Throwable releaseLocks(Throwable failure) {
        final TxnContext txn = txn();
        for (int k = 0, n = txn.writeCount(); k < n; k++) {
            failure = unlock(txn.writeAt(k), failure);
        }
        for (int k = 0, n = txn.readCount(); k < n; k++) {
            failure = unlock(txn.readAt(k), failure);
        }
        return failure;
    }

    private Throwable unlock(Entry e, Throwable failure) {
        final TxnContext txn = txn();
        if ((e.flags & Entry.LOCKED) != 0) {
            try {
                cc.unlock(txn, e);
            } catch (Throwable t) {
                failure = failure == null ? t : addSuppressed(failure, t);
            }
            e.flags &= ~Entry.LOCKED;
        }
        return failure;
    }

    /**
     * Calls the protocol's finish and every participant cleanup (each in its own try), then clears
     * the context whatever happened; rethrows the first failure ({@code pending} first) at the end.
     */
    private void finishAndClear(AbortCause cause, Throwable pending) {
        final TxnContext txn = txn();
        Throwable failure = pending;
        boolean committed = cause == null;
        try {
            try {
                cc.finish(txn, committed, cause);
            } catch (Throwable t) {
                failure = failure == null ? t : addSuppressed(failure, t);
            }
            if (txn.needsCleanup) {
                for (int i = 0, n = txn.size(); i < n; i++) {
                    Entry e = txn.at(i);
                    if ((e.flags & Entry.CLEANUP) != 0) {
                        try {
                            e.participant.cleanup(txn, e, committed);
                        } catch (Throwable t) {
                            failure = failure == null ? t : addSuppressed(failure, t);
                        }
                    }
                }
            }
        } finally {
            try {
                txn.clear();
            } catch (Throwable t) {
                // A scratch object's recycle threw; the context is idle and empty regardless.
                failure = failure == null ? t : addSuppressed(failure, t);
            }
        }
        if (failure != null) {
            throw sneakyThrow(failure);
        }
    }

    /** Side-effect-free check that every read is still current (used when user code throws). */
    final boolean isReadSetCurrent() {
        final TxnContext txn = txn();
        for (int k = 0, n = txn.readCount(); k < n; k++) {
            if (!cc.isCurrent(txn, txn.readAt(k))) {
                return false;
            }
        }
        for (int k = 0, n = txn.logCount(); k < n; k++) {
            if (cc.validateWord(txn.logItem(k), txn.logWord(k)) != null) {
                return false;
            }
        }
        return true;
    }

    /** Adds {@code extra} to {@code primary}'s suppressed list if it can (never throws); returns primary. */
    static Throwable addSuppressed(Throwable primary, Throwable extra) {
        if (extra != null && extra != primary) {
            try {
                primary.addSuppressed(extra);
            } catch (Throwable ignored) {
                // Out of memory for the list, or suppression disabled: the primary still wins.
            }
        }
        return primary;
    }

    @SuppressWarnings("unchecked")
    static <E extends Throwable> RuntimeException sneakyThrow(Throwable t) throws E {
        throw (E) t;
    }
}
