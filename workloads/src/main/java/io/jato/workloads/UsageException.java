package io.jato.workloads;

/**
 * A command line the runner cannot run: an unknown or malformed option, a value out of range, an
 * unknown protocol or workload. {@link Main} prints the message on one line with a hint to the
 * usage and exits with status 2; it never shows a stack trace for it.
 */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        // No stack trace: this is an answer to the user, not a diagnostic.
        super(message, null, false, false);
    }
}
