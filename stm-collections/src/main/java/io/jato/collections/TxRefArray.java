package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

/**
 * A transactional array of references of fixed length (elements may be null). Each element is
 * versioned on its own, so transactions touching different elements never conflict. Elements
 * should be immutable: the STM versions the reference. An index outside {@code [0, length())}
 * throws {@link IndexOutOfBoundsException} naming the index and the length, and changes nothing.
 *
 * @param <E> element type
 */
public final class TxRefArray<E> {
    private final Stm stm;
    private final RefItem[] cells;
    private final Single<E> single = new Single<>(this);

    /** Creates an array of {@code length} nulls in {@code stm}. */
    public TxRefArray(Stm stm, int length) {
        this.stm = Objects.requireNonNull(stm, "stm");
        int domain = stm.protocolDomain();
        this.cells = new RefItem[TxLongArray.checkLength(length)];
        for (int i = 0; i < length; i++) {
            cells[i] = new RefItem(null, domain);
        }
    }

    /** @return the number of elements (fixed) */
    public int length() {
        return cells.length;
    }

    /** @return element {@code index} as of this transaction */
    @SuppressWarnings("unchecked")
    public E get(Txn txn, int index) {
        return (E) TxnContext.of(txn, stm).readRef(cells[Objects.checkIndex(index, cells.length)]);
    }

    /** Sets element {@code index}; visible to others when the transaction commits. */
    public void set(Txn txn, int index, E value) {
        TxnContext.of(txn, stm).writeRef(cells[Objects.checkIndex(index, cells.length)], value);
    }

    /** Sets element {@code index} and returns the element before (a read and a write). */
    @SuppressWarnings("unchecked")
    public E getAndSet(Txn txn, int index, E value) {
        TxnContext ctx = TxnContext.of(txn, stm);
        RefItem cell = cells[Objects.checkIndex(index, cells.length)];
        E old = (E) ctx.readRef(cell);
        ctx.writeRef(cell, value);
        return old;
    }

    /** @return the store this array belongs to */
    public Stm stm() {
        return stm;
    }

    /**
     * Diagnostics for tests: null if the protocol finds every element's metadata quiescent, else
     * the first problem. Call only while no transaction runs.
     */
    public String checkQuiescent() {
        return SingleOps.checkCells(stm.concurrencyControl(), cells);
    }

    /** @return the non-transactional view */
    public Single<E> single() {
        return single;
    }

    /**
     * Non-transactional single operations on one element, each atomic and linearizable with
     * transactions; refused inside a transaction of the same store.
     *
     * @param <E> element type
     */
    public static final class Single<E> {
        private final TxRefArray<E> array;

        private Single(TxRefArray<E> array) {
            this.array = array;
        }

        /** @return the committed element {@code index} */
        @SuppressWarnings("unchecked")
        public E get(int index) {
            return (E) SingleOps.getRef(array.stm, array.cells[Objects.checkIndex(index, array.cells.length)]);
        }

        /** Sets element {@code index}. */
        public void set(int index, E value) {
            SingleOps.updateRef(array.stm, array.cells[Objects.checkIndex(index, array.cells.length)], null, value,
                    false);
        }

        /** Sets element {@code index} to {@code update} if it is {@code expect} (identity); returns whether it did. */
        public boolean compareAndSet(int index, E expect, E update) {
            return SingleOps.casRef(array.stm, array.cells[Objects.checkIndex(index, array.cells.length)], expect,
                    update);
        }
    }
}
