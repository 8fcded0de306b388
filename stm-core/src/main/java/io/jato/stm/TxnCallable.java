package io.jato.stm;

/**
 * A transaction body that may throw a checked exception ({@link Stm#call}); the same rules as
 * {@link TxnFunction} apply. An exception it throws on a consistent state rolls the transaction
 * back and reaches the caller of {@code call} unchanged, as its declared type.
 *
 * @param <T> the result type
 * @param <X> the checked exception the body may throw
 */
@FunctionalInterface
public interface TxnCallable<T, X extends Exception> {
    /** @return the transaction's result */
    T call(Txn txn) throws X;
}
