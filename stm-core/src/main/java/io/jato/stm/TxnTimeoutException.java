package io.jato.stm;

/**
 * Thrown by {@link Stm#atomic} (and the other transaction forms) when a transaction's deadline
 * passed before it committed: the store's {@link Stm.Builder#timeout default} or the body's
 * {@link Txn#timeout}. The deadline is checked before each attempt after the first, while the
 * transaction waits in {@link Txn#retry()}, and by {@link Txn#validate()}; a body that runs past
 * it without calling {@code validate} is not interrupted, and an attempt that reaches its commit
 * commits. When it is thrown the transaction was rolled back: nothing it wrote is visible and it
 * holds no lock.
 */
public final class TxnTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient AbortCause lastCause;
    private final int attempts;

    /**
     * @param message   what timed out
     * @param lastCause why the last attempt rolled back, or null if it was still running
     * @param attempts  how many attempts were made
     */
    public TxnTimeoutException(String message, AbortCause lastCause, int attempts) {
        // No stack trace: giving up at a deadline is ordinary control flow for the caller.
        super(message, null, false, false);
        this.lastCause = lastCause;
        this.attempts = attempts;
    }

    /** @return why the last attempt rolled back, or null if it was still running (a {@link Txn#validate()}) */
    public AbortCause lastCause() {
        return lastCause;
    }

    /** @return how many attempts were made, the one that gave up included */
    public int attempts() {
        return attempts;
    }
}
