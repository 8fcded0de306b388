package io.jato.stm;

/**
 * What unwinds a transaction body when its attempt must end: a conflict seen while it runs, or
 * {@link Txn#abort()}. It is part of the API so that code which catches every {@code Throwable}
 * inside a body can name it and let it pass:
 *
 * <pre>{@code
 * try {
 *     risky(txn);
 * } catch (RollbackSignal s) {
 *     throw s;              // the store's control flow: never swallow it
 * } catch (Throwable t) {
 *     log(t);
 * }
 * }</pre>
 *
 * <p>There is one preallocated instance, thrown only by the library. It has no stack trace, no
 * suppression list and no state, so throwing it costs a jump; the reason travels in the
 * transaction, not in the throwable. Code that swallows it gains nothing: the transaction is
 * already marked doomed, every further operation rethrows it, and the commit refuses.
 */
public final class RollbackSignal extends Error {
    private static final long serialVersionUID = 1L;

    /** The single instance; thrown only by the store and its data types. */
    public static final RollbackSignal INSTANCE = new RollbackSignal();

    private RollbackSignal() {
        super("transaction rollback (internal control flow; do not catch)", null, false, false);
    }
}
