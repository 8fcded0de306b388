package io.jato.stm;

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
}
