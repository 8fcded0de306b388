package io.jato.stm;

/**
 * Why a transaction attempt ended without committing. Every cause is counted in
 * {@link StmStatistics}; all but {@link #USER_ABORT}, {@link #USER_EXCEPTION} and
 * {@link #INTERNAL_FAILURE} make
 * {@link Stm#atomic} retry the transaction after a randomized exponential backoff.
 */
public enum AbortCause {
    /** An item the transaction read was changed by another commit before this one validated. */
    READ_VALIDATION,
    /** An item the transaction read was locked by another committing transaction at validation. */
    READ_LOCKED,
    /** A write lock was not acquired within the spin bound (suspected deadlock; no write-set sort). */
    LOCK_BUSY,
    /** An execution-time read found its item locked for longer than the read spin bound. */
    READ_BUSY,
    /** An item the transaction used was deleted (retired) by a concurrent commit. */
    DELETED,
    /** A timestamp-ordering protocol could not find a commit timestamp consistent with the reads. */
    TIMESTAMP_ORDER,
    /**
     * Another thread's transaction aborted this one (a contention manager, e.g. an older
     * transaction that wins a conflict), before this one reached its point of no return.
     */
    REMOTE_ABORT,
    /** User code threw after observing inconsistent state: the exception is discarded and retried. */
    INCONSISTENT_READ,
    /** The user called {@link Txn#abort()}: rolled back, not retried. */
    USER_ABORT,
    /** User code threw on a consistent state: rolled back, not retried, the exception rethrown. */
    USER_EXCEPTION,
    /**
     * Something other than user code failed while the transaction began or committed — the
     * protocol, a data type's participant, or the VM ({@code OutOfMemoryError},
     * {@code StackOverflowError}): rolled back, not retried, the throwable rethrown. A failure
     * before the first install leaves nothing written; one during install or publish leaves what
     * was installed under new versions, so no transaction that overlapped it can commit on what it
     * read before.
     */
    INTERNAL_FAILURE,
    /**
     * The body called {@link Txn#retry()} (or {@link Txn#retryFor}): the attempt rolled back and
     * the transaction waits until an item it read changes, then runs again. Not a conflict: it
     * neither backs off nor counts towards {@link Stm.Builder#maxAttempts}.
     */
    RETRY;

    private static final AbortCause[] VALUES = values();

    /** @return the cause with the given ordinal (no allocation, unlike {@code values()}) */
    public static AbortCause of(int ordinal) {
        return VALUES[ordinal];
    }

    /** @return the number of causes */
    public static int count() {
        return VALUES.length;
    }

    /** @return true if {@link Stm#atomic} retries the transaction after this cause */
    public boolean isRetried() {
        return this != USER_ABORT && this != USER_EXCEPTION && this != INTERNAL_FAILURE;
    }
}
