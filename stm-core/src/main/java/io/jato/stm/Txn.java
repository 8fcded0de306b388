package io.jato.stm;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The capability to act inside one transaction, handed to the function given to
 * {@link Stm#atomic}. Every transactional operation takes it explicitly, so no operation looks up
 * a thread-local.
 *
 * <p>A {@code Txn} is confined to the thread that runs the transaction. Using it from another
 * thread, or after its transaction ended and before the thread starts another one, throws
 * {@link IllegalStateException}. The object is reused by the thread's later transactions on the
 * same store (that is what keeps transactions allocation-free), so a reference kept past its
 * transaction refers to whatever transaction that thread runs next.
 *
 * <p>Instances are created only by {@link Stm}.
 *
 * <h2>Hooks</h2>
 * A transaction body can register callbacks that run once, outside the commit's locks, in the
 * order they were registered: {@link #beforeCommit} (inside the transaction, after the body),
 * {@link #afterCommit} (after the commit is visible) and {@link #afterRollback} (after an attempt
 * rolled back). Registrations belong to the attempt that made them: an attempt that rolls back
 * discards them, after running its after-rollback hooks. A transaction that registers nothing
 * pays one field check per attempt.
 */
public abstract class Txn {
    /*
     * Padding before the implementation's fields, which its thread writes on every operation: see
     * io.jato.stm.spi.ThreadPadding for why (false sharing between threads' contexts once a garbage
     * collection has copied them side by side).
     */
    @SuppressWarnings("unused")
    private int pad0;
    @SuppressWarnings("unused")
    private long pad1, pad2, pad3, pad4, pad5, pad6, pad7, pad8;

    /** Only the store's own transaction class extends this. */
    protected Txn() {
    }

    /** @return the store this transaction runs in */
    public abstract Stm stm();

    /** @return true if the transaction was declared read-only (writes throw) */
    public abstract boolean isReadOnly();

    /** @return how many attempts ended before this one (0 on the first attempt) */
    public abstract int attempt();

    /**
     * @return the type the transaction was started with ({@link TxnType#UNTYPED} if none); a block
     *         nested in a transaction of the same store runs as part of it, with the outer type
     */
    public abstract TxnType type();

    /**
     * Rolls the transaction back and ends it without retrying: {@link Stm#atomic} throws
     * {@link TxnAbortedException} with cause {@link AbortCause#USER_ABORT}. Never returns.
     *
     * @return nothing; declared so callers can write {@code throw txn.abort()} for flow analysis
     */
    public abstract RuntimeException abort();

    /**
     * Says "not yet": rolls this attempt back and blocks the thread, without spinning, until an
     * item the attempt read changes (a transaction that wrote it commits), then runs the
     * transaction again. The typical body tests a condition and retries while it does not hold:
     * {@code if (queue.isEmpty(txn)) throw txn.retry();}. Inside {@link #orElse} it moves on to
     * the next alternative instead, after rolling back what the current one did.
     *
     * <p>The wait ends early, and the body runs again, if a write that no transaction made (a
     * {@code single()} view) may have changed what it read: such writes wake nobody, so a
     * waiter re-checks every {@code jato.retryRecheckMillis} (50 ms by default). An interrupt while waiting (or pending when the wait would start) ends the transaction
     * with {@link TxnInterruptedException}. Retries neither back off nor count towards
     * {@link Stm.Builder#maxAttempts}; they are counted as {@link AbortCause#RETRY}.
     *
     * @return nothing; declared so callers can write {@code throw txn.retry()}
     * @throws IllegalStateException if the transaction is not active on the calling thread, or
     *                               it has read nothing (no change could ever wake it)
     */
    public abstract RuntimeException retry();

    /**
     * {@link #retry()} with a bound on the waiting: the first call in a transaction sets a
     * deadline {@code timeout} from now, for all of the transaction's attempts. Before the
     * deadline it retries, waiting at most until the deadline; once it has passed it returns
     * normally, and the body goes on (e.g. to return a "timed out" result):
     * {@code if (queue.isEmpty(txn)) txn.retryFor(1, SECONDS); return queue.poll(txn);}.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws NullPointerException     if {@code unit} is null
     * @throws IllegalStateException    if the transaction is not active on the calling thread
     */
    public abstract void retryFor(long timeout, TimeUnit unit);

    /**
     * Runs {@code first}; if it {@linkplain #retry() retries}, rolls back what it did (its writes,
     * inserts, updaters, hooks and transaction-local values: a partial rollback, as when a nested
     * {@code atomic} throws) and runs {@code second} instead, in the same transaction, returning
     * its result. What {@code first} read stays part of the transaction, so the transaction
     * commits {@code second}'s outcome only if {@code first} would still retry; if both retry, the
     * transaction waits for a change to anything either of them read. Alternatives nest:
     * {@code orElse(a, t -> t.orElse(b, c))}. An exception from {@code first} rolls back its
     * effects like a nested block's and propagates; {@code second} is not tried.
     *
     * @throws NullPointerException  if an alternative is null
     * @throws IllegalStateException if the transaction is not active on the calling thread
     */
    public abstract <T> T orElse(TxnFunction<T> first, TxnFunction<T> second);

    /**
     * Gives this transaction a deadline {@code timeout} from now, unless it has an earlier one
     * (the store's {@link Stm.Builder#timeout default}, or an earlier call: calls in later
     * attempts therefore change nothing). Once it passes, the transaction gives up with
     * {@link TxnTimeoutException}, rolled back: the deadline is checked before each further
     * attempt, while it waits in {@link #retry()}, and by {@link #validate()}.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws NullPointerException     if {@code unit} is null
     * @throws IllegalStateException    if the transaction is not active on the calling thread
     */
    public abstract void timeout(long timeout, TimeUnit unit);

    /**
     * Checks now what the commit would check later: if something this attempt read has changed
     * since, the attempt rolls back and the transaction runs again (a conflict, counted as
     * {@link AbortCause#READ_VALIDATION}); and if the transaction's deadline ({@link #timeout})
     * has passed, it throws {@link TxnTimeoutException} (the transaction rolls back and the
     * exception reaches the caller of {@code atomic}). A long body calls it now and then, so
     * that it neither computes on a state that can no longer commit nor runs past its deadline.
     * Costs one check of every read so far.
     *
     * @throws IllegalStateException if the transaction is not active on the calling thread
     */
    public abstract void validate();

    /**
     * Registers {@code hook} to run once the body has returned normally, still inside this
     * attempt and before the commit protocol starts (no lock is held yet). A before-commit hook
     * may read and write in the transaction (it receives it) and register further hooks of any
     * kind; hooks registered meanwhile run after it, in order. It runs as part of the body: an
     * exception from it rolls the transaction back and is rethrown from {@code atomic} (or
     * retried, like the body's, if the attempt had read a state that no longer validates).
     *
     * @throws NullPointerException  if {@code hook} is null
     * @throws IllegalStateException if the transaction is not active on the calling thread
     */
    public abstract void beforeCommit(TxnRunnable hook);

    /**
     * Registers {@code hook} to run once this transaction has committed: after every write is
     * visible and every lock released, on the committing thread, before {@code atomic} returns.
     * The hook runs outside the transaction: it may start transactions of its own (of this store
     * too) and use {@code single()} views. An exception from an after-commit hook never undoes the
     * commit: the remaining after-commit hooks still run, then the first exception is rethrown
     * from {@code atomic} (the transaction's result is lost, its effects are not) with the later
     * ones {@linkplain Throwable#addSuppressed suppressed} into it.
     *
     * @throws NullPointerException  if {@code hook} is null
     * @throws IllegalStateException if the transaction is not active on the calling thread
     */
    public abstract void afterCommit(Runnable hook);

    /**
     * Registers {@code hook} to run when this attempt rolls back, for whatever reason: a conflict
     * (the transaction then runs again, and its next attempt registers its hooks anew), a
     * {@link #abort()}, an exception from the body, or an internal failure. It receives the
     * cause ({@link AbortCause#USER_EXCEPTION} for an exception from the body) and runs after
     * the attempt's locks were released, before the backoff and the next attempt. It runs
     * outside the attempt but inside {@code atomic}: it must not use the transaction nor start
     * one (that throws {@link IllegalStateException}); {@code single()} views may be used.
     *
     * <p>An exception from an after-rollback hook ends the transaction: the remaining hooks of
     * the attempt still run, then the first exception is rethrown from {@code atomic} and the
     * transaction is not retried; if the attempt ended with an exception of its own (the body's,
     * a {@link TxnAbortedException}), that one is rethrown and the hooks' exceptions are
     * suppressed into it.
     *
     * @throws NullPointerException  if {@code hook} is null
     * @throws IllegalStateException if the transaction is not active on the calling thread
     */
    public abstract void afterRollback(Consumer<? super AbortCause> hook);

    /**
     * Checks that this transaction may be used here: on its own thread, inside a running attempt.
     *
     * @throws IllegalStateException if not
     */
    protected abstract void checkActive();

    // ------------------------------------------------------------------ transaction-local values

    /** Values of {@link TxnLocal}s by id; {@link #UNSET} where none was set in this attempt. */
    private Object[] localValues;
    /** Ids of the locals that hold a value in this attempt (to reset only those). */
    private int[] localIds;
    private int localCount;
    private static final Object UNSET = new Object();
    /** While a nested block is open: each set's local id and previous value, to take back on its rollback. */
    private int[] trailIds;
    private Object[] trailValues;
    private int trailCount;
    private boolean localsNested;

    /** @return the value {@code local} holds in this attempt, initializing it on first use */
    @SuppressWarnings("unchecked")
    final <T> T localGet(TxnLocal<T> local) {
        checkActive();
        int id = local.id;
        Object[] values = localValues;
        if (values != null && id < values.length) {
            Object v = values[id];
            if (v != UNSET) {
                return (T) v;
            }
        }
        T v = local.initialValue();
        localPut(id, v);
        return v;
    }

    /** Sets the value {@code local} holds in this attempt. */
    final <T> void localSet(TxnLocal<T> local, T value) {
        checkActive();
        localPut(local.id, value);
    }

    private void localPut(int id, Object value) {
        Object[] values = localValues;
        if (values == null || id >= values.length) {
            int cap = Math.max(id + 1, values == null ? 8 : values.length * 2);
            Object[] grown = values == null ? new Object[cap] : Arrays.copyOf(values, cap);
            Arrays.fill(grown, values == null ? 0 : values.length, cap, UNSET);
            localValues = values = grown;
        }
        if (values[id] == UNSET) {
            int[] ids = localIds;
            if (ids == null) {
                localIds = ids = new int[8];
            } else if (localCount == ids.length) {
                localIds = ids = Arrays.copyOf(ids, localCount * 2);
            }
            ids[localCount++] = id;
        }
        if (localsNested) {
            trailLocal(id, values[id]);
        }
        values[id] = value;
    }

    private void trailLocal(int id, Object previous) {
        int n = trailCount;
        if (trailIds == null) {
            trailIds = new int[8];
            trailValues = new Object[8];
        } else if (n == trailIds.length) {
            int[] ids = Arrays.copyOf(trailIds, n * 2);
            Object[] vs = Arrays.copyOf(trailValues, n * 2);
            trailIds = ids;
            trailValues = vs;
        }
        trailIds[n] = id;
        trailValues[n] = previous;
        trailCount = n + 1;
    }

    /**
     * A nested block opens (the store's savepoints): from now on every set of a local is
     * recorded, so that {@link #rollbackLocals} can take it back.
     *
     * @return the mark to roll back to
     */
    protected final int openLocals() {
        localsNested = true;
        return trailCount;
    }

    /** Takes back every set of a local since {@code mark} (a nested block rolled back). */
    protected final void rollbackLocals(int mark) {
        for (int t = trailCount - 1; t >= mark; t--) {
            localValues[trailIds[t]] = trailValues[t];
            trailValues[t] = null;
        }
        trailCount = mark;
    }

    /** The outermost nested block closed: sets of locals are no longer recorded. */
    protected final void closeLocals() {
        localsNested = false;
        if (trailCount != 0) {
            Arrays.fill(trailValues, 0, trailCount, null);
            trailCount = 0;
        }
    }

    /**
     * Drops every transaction-local value of the attempt that ends (the store calls it at the end
     * of each attempt); one field check when no {@link TxnLocal} was used.
     */
    protected final void clearLocals() {
        int n = localCount;
        if (n != 0) {
            Object[] values = localValues;
            int[] ids = localIds;
            for (int i = 0; i < n; i++) {
                values[ids[i]] = UNSET;
            }
            localCount = 0;
        }
        if (localsNested) {
            closeLocals();
        }
    }
}
