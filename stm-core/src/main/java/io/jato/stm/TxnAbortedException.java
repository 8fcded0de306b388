package io.jato.stm;

/**
 * Thrown by {@link Stm#atomic} when a transaction ended without committing and will not be retried:
 * the user called {@link Txn#abort()}, or the store's attempt limit was reached. Nothing the
 * transaction wrote is visible.
 */
public final class TxnAbortedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient AbortCause cause;
    private final int attempts;

    public TxnAbortedException(String message, AbortCause cause, int attempts) {
        // No stack trace: user aborts are ordinary control flow (TPC-C rolls back 1% of new-orders).
        super(message, null, false, false);
        this.cause = cause;
        this.attempts = attempts;
    }

    /** @return the cause of the last attempt's abort */
    public AbortCause abortCause() {
        return cause;
    }

    /** @return how many attempts were made */
    public int attempts() {
        return attempts;
    }
}
