package io.jato.stm;

/**
 * A transaction body that returns a result. It may run several times (once per attempt), so it
 * must have no effects outside transactional objects, and must tolerate reading a state that will
 * fail validation: the store retries it rather than reporting an exception thrown from such a state.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface TxnFunction<T> {
    T apply(Txn txn);
}
