package io.jato.stm.spi;

/**
 * What one thread is running, across every store: the context whose transaction runs on the
 * thread now, if {@code busy}. A store runs a transaction only when none runs or its own does (then the
 * inner block joins it); a transaction of another store inside it is refused, because its commit
 * could not be atomic with the outer one and every retry of the outer one would run — and commit —
 * it again.
 *
 * <p>Looked up once per (thread, store), when the store creates the thread's context, never on a
 * transaction's path; the field is read and written by its thread only.
 */
final class ThreadTransactions {
    private static final ThreadLocal<ThreadTransactions> CURRENT = ThreadLocal.withInitial(ThreadTransactions::new);

    /**
     * The context that last ran a transaction on this thread, kept after it ends so that the retry
     * loop writes this reference only when the thread switches stores (it keeps that context, not
     * its store, reachable until then); owner thread only.
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
