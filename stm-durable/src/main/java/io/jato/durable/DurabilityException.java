package io.jato.durable;

/**
 * The log cannot make commits durable any more (a write or sync failed: the disk is full, the
 * file system went read-only), or a transaction's log record cannot be accepted. Thrown by
 * {@link DurableStore#atomic} in {@link DurabilityMode#DURABLE} mode and by
 * {@link DurableStore#awaitDurable()} for commits that may not have reached the disk, and by every
 * later transaction that writes a durable map (which is then rolled back, nothing changed).
 */
public final class DurabilityException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DurabilityException(String message, Throwable cause) {
        super(message, cause);
    }

    public DurabilityException(String message) {
        super(message);
    }
}
