package io.jato.stm;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A value private to one transaction attempt, like a {@link ThreadLocal} scoped to a
 * transaction: each attempt starts from the initial value (computed on the attempt's first
 * {@link #get}), sees only its own {@link #set}s, and loses them when it ends. An attempt that
 * rolls back and runs again therefore starts afresh, as transactional objects do: nothing a
 * rolled-back attempt did is seen by the next one. Blocks nested in a transaction
 * share the transaction's value. Use it to carry state between the body and its
 * {@linkplain Txn#beforeCommit before-commit hooks}, or between layers that share a transaction
 * without passing the state around.
 *
 * <p>A local is not tied to a store: it works in any store's transactions. Values are kept in
 * the thread's reusable transaction object in a table indexed by the local's id, so {@code get}
 * and {@code set} take no lock and allocate nothing once the table has grown; declare locals as
 * constants (each one created takes a slot in every thread's table), not per transaction.
 *
 * @param <T> the value type (values may be null)
 */
public final class TxnLocal<T> {
    private static final AtomicInteger IDS = new AtomicInteger();

    /** Dense index of this local in each transaction's table. */
    final int id;
    private final Supplier<? extends T> initial;

    private TxnLocal(Supplier<? extends T> initial) {
        this.initial = initial;
        this.id = IDS.getAndIncrement();
    }

    /**
     * @param initialValue computes the value an attempt starts from, once per attempt that reads
     *                     the local before setting it (it runs inside the attempt)
     * @return a new transaction-local value
     * @throws NullPointerException if {@code initialValue} is null
     */
    public static <T> TxnLocal<T> withInitial(Supplier<? extends T> initialValue) {
        return new TxnLocal<>(Objects.requireNonNull(initialValue, "initialValue"));
    }

    /**
     * @return the value this attempt of {@code txn} holds: the last one it set, or else the
     *         initial value (computed now, and kept for the rest of the attempt)
     * @throws NullPointerException  if {@code txn} is null
     * @throws IllegalStateException if the transaction is not active on the calling thread
     */
    public T get(Txn txn) {
        return Objects.requireNonNull(txn, "txn").localGet(this);
    }

    /**
     * Sets the value this attempt of {@code txn} holds, until the attempt ends.
     *
     * @throws NullPointerException  if {@code txn} is null
     * @throws IllegalStateException if the transaction is not active on the calling thread
     */
    public void set(Txn txn, T value) {
        Objects.requireNonNull(txn, "txn").localSet(this, value);
    }

    T initialValue() {
        return initial.get();
    }

    @Override
    public String toString() {
        return "TxnLocal#" + id;
    }
}
