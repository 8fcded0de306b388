package io.jato.stm.spi;

/**
 * What one thread is running, across every store: the context whose transaction runs on the
 * thread now, or null. A store runs a transaction only when none runs or its own does (then the
 * inner block joins it); a transaction of another store inside it is refused, because its commit
 * could not be atomic with the outer one and every retry of the outer one would run — and commit —
 * it again.
 *
 * <p>Looked up once per (thread, store), when the store creates the thread's context, never on a
 * transaction's path; the field is read and written by its thread only.
 */
final class ThreadTransactions {
    private static final ThreadLocal<ThreadTransactions> CURRENT = ThreadLocal.withInitial(ThreadTransactions::new);

    /** The context whose transaction runs on this thread, or null; owner thread only. */
    TxnContext running;

    private ThreadTransactions() {
    }

    /** @return the calling thread's instance */
    static ThreadTransactions current() {
        return CURRENT.get();
    }
}
