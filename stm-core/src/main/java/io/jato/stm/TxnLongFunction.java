package io.jato.stm;

/**
 * A transaction body that returns a {@code long} without boxing it ({@link Stm#atomicLong},
 * {@link Stm#readOnlyLong}); the same rules as {@link TxnFunction} apply.
 */
@FunctionalInterface
public interface TxnLongFunction {
    /** @return the transaction's result */
    long applyAsLong(Txn txn);
}
