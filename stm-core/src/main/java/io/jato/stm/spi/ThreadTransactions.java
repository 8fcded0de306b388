package io.jato.stm.spi;

/**
 * What one thread is running, across every store: the context whose transaction runs on the
 * thread now, if {@code busy}. A store runs a transaction only when none runs or its own does (then the
 * inner block joins it); a transaction of another store inside it is refused, because its commit
 * could not be atomic with the outer one and every retry of the outer one would run — and commit —
 * it again.
 *
 * <p>A platform thread's is looked up once per (thread, store), when the store creates the thread's
 * context, never on a transaction's path. A virtual thread's is looked up when it borrows a pooled
 * context (once per outermost transaction): through it a nested block finds the borrowed context,
 * and it is all an idle virtual thread keeps of Jato. The fields are read and written by their
 * thread only.
 */
final class ThreadTransactions {
    private static final ThreadLocal<ThreadTransactions> CURRENT = ThreadLocal.withInitial(ThreadTransactions::new);

    /**
     * The context that last ran a transaction on this thread, kept after it ends so that the retry
     * loop writes this reference only when the thread switches stores (it keeps that context, not
     * its store, reachable until then); cleared when a virtual thread gives a pooled context back.
     * Owner thread only.
     */
    TxnContext running;
    /** True while {@link #running}'s transaction runs; owner thread only. */
    boolean busy;

    private ThreadTransactions() {
    }

    /** @return the calling thread's instance */
    static ThreadTransactions current() {
        return CURRENT.get();
    }
}
