package io.jato.stm;

/** A transaction body with no result; the same rules as {@link TxnFunction} apply. */
@FunctionalInterface
public interface TxnRunnable {
    void run(Txn txn);
}
