package io.jato.stm;

/**
 * Thrown by {@link Stm#atomic} (and the other transaction forms) when the thread is interrupted
 * while the transaction waits in {@link Txn#retry()} or {@link Txn#retryFor}: the transaction
 * was rolled back, holds no lock, and is not run again. The thread's interrupt status stays set
 * (as with {@link java.nio.channels.ClosedByInterruptException}); the {@link #getCause() cause} is
 * an {@link InterruptedException}.
 */
public final class TxnInterruptedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what was interrupted */
    public TxnInterruptedException(String message) {
        super(message, new InterruptedException(message));
    }
}
