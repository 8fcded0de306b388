package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A transactional reference to one value (which may be null). Reads inside a transaction see the
 * transaction's own writes; the committed value changes only when a writing transaction commits.
 * The referenced object should be immutable: the STM versions the reference, not the object.
 *
 * @param <V> the value type
 */
public final class TxRef<V> {
    private final Stm stm;
    private final RefItem cell;
    private final Single<V> single = new Single<>(this);

    /** Creates a reference in {@code stm} holding {@code initial}. */
    public TxRef(Stm stm, V initial) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.cell = new RefItem(initial, stm.protocolDomain());
    }

    /** @return the value as of this transaction */
    @SuppressWarnings("unchecked")
    public V get(Txn txn) {
        return (V) TxnContext.of(txn, stm).readRef(cell);
    }

    /** Sets the value; visible to others when the transaction commits. */
    public void set(Txn txn, V value) {
        TxnContext.of(txn, stm).writeRef(cell, value);
    }

    /** Sets the value and returns the previous one (a read and a write). */
    public V getAndSet(Txn txn, V value) {
        TxnContext ctx = TxnContext.of(txn, stm);
        @SuppressWarnings("unchecked")
        V old = (V) ctx.readRef(cell);
        ctx.writeRef(cell, value);
        return old;
    }

    /**
     * Diagnostics for tests: null if the protocol finds this object's metadata quiescent (no lock
     * held, version word sane), else what is wrong. Call only while no transaction runs.
     */
    public String checkQuiescent() {
        return stm.concurrencyControl().checkQuiescent(cell);
    }

    /** @return the non-transactional view, for loading and inspection outside transactions */
    public Single<V> single() {
        return single;
    }

    /**
     * Non-transactional single operations: each is atomic on its own and linearizable with
     * transactions. Calling them inside a transaction of the same store throws
     * {@link IllegalStateException}.
     *
     * @param <V> the value type
     */
    public static final class Single<V> {
        private final TxRef<V> ref;

        private Single(TxRef<V> ref) {
            this.ref = ref;
        }

        /** @return the committed value */
        @SuppressWarnings("unchecked")
        public V get() {
            return (V) SingleOps.getRef(ref.stm, ref.cell);
        }

        /** Sets the committed value. */
        public void set(V value) {
            SingleOps.updateRef(ref.stm, ref.cell, null, value, false);
        }

        /** Sets the committed value and returns the one before. */
        @SuppressWarnings("unchecked")
        public V getAndSet(V value) {
            return (V) SingleOps.updateRef(ref.stm, ref.cell, null, value, false);
        }

        /**
         * Sets the value to {@code update} if it is {@code expect}, compared by identity (as
         * {@link java.util.concurrent.atomic.AtomicReference#compareAndSet}).
         *
         * @return true if it was set; false leaves the value and its version as they were
         */
        public boolean compareAndSet(V expect, V update) {
            return SingleOps.casRef(ref.stm, ref.cell, expect, update);
        }

        /**
         * Replaces the value by {@code updateFunction} applied to it, atomically (the function runs
         * once, with the reference locked: keep it short, and do not use the store in it; if it
         * throws, nothing changes).
         *
         * @return the value before
         */
        @SuppressWarnings("unchecked")
        public V getAndUpdate(UnaryOperator<V> updateFunction) {
            return (V) SingleOps.updateRef(ref.stm, ref.cell, (UnaryOperator<Object>) SingleOps.updater(updateFunction),
                    null, false);
        }

        /** As {@link #getAndUpdate}, returning the value after. */
        @SuppressWarnings("unchecked")
        public V updateAndGet(UnaryOperator<V> updateFunction) {
            return (V) SingleOps.updateRef(ref.stm, ref.cell, (UnaryOperator<Object>) SingleOps.updater(updateFunction),
                    null, true);
        }
    }
}
