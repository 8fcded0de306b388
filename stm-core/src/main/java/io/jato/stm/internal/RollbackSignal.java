package io.jato.stm.internal;

/**
 * The one preallocated throwable that unwinds user code when an attempt must end (a conflict seen
 * during execution, or {@code Txn.abort()}). It has no stack trace, no suppression list and no
 * state, so throwing it costs a jump; the reason travels in the transaction, not in the throwable.
 *
 * <p>User code that catches and swallows it gains nothing: the transaction is already marked
 * doomed, every further operation rethrows, and commit refuses.
 */
public final class RollbackSignal extends Error {
    private static final long serialVersionUID = 1L;

    /** The single instance. */
    public static final RollbackSignal INSTANCE = new RollbackSignal();

    private RollbackSignal() {
        super("transaction rollback (internal control flow; do not catch)", null, false, false);
    }
}
