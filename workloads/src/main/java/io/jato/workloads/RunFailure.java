package io.jato.workloads;

/**
 * A run that could not finish: a loader or worker thread threw, or the check itself failed to run.
 * Unlike a {@link UsageException} this is a fault worth a stack trace (usually of the cause).
 */
public final class RunFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RunFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
