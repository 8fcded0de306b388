package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

/**
 * A transactional array of {@code long}s of fixed length. Each element is versioned on its own
 * (one item per element), so transactions touching different elements never conflict; nothing
 * boxes. An index outside {@code [0, length())} throws {@link IndexOutOfBoundsException} naming
 * the index and the length, and changes nothing.
 */
public final class TxLongArray {
    private final Stm stm;
    private final LongItem[] cells;
    private final Single single = new Single(this);

    /** Creates an array of {@code length} zeros in {@code stm}. */
    public TxLongArray(Stm stm, int length) {
        this(stm, new long[checkLength(length)]);
    }

    /** Creates an array in {@code stm} holding a copy of {@code initial}. */
    public TxLongArray(Stm stm, long[] initial) {
        this.stm = Objects.requireNonNull(stm, "stm");
        Objects.requireNonNull(initial, "initial");
        int domain = stm.protocolDomain();
        this.cells = new LongItem[initial.length];
        for (int i = 0; i < initial.length; i++) {
            cells[i] = new LongItem(initial[i], domain);
        }
    }

    static int checkLength(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, got " + length);
        }
        return length;
    }

    /** @return the number of elements (fixed) */
    public int length() {
        return cells.length;
    }

    /** @return element {@code index} as of this transaction */
    public long get(Txn txn, int index) {
        return TxnContext.of(txn, stm).readLong(cells[Objects.checkIndex(index, cells.length)]);
    }

    /** Sets element {@code index}; visible to others when the transaction commits. */
    public void set(Txn txn, int index, long value) {
        TxnContext.of(txn, stm).writeLong(cells[Objects.checkIndex(index, cells.length)], value);
    }

    /**
     * Adds {@code delta} to element {@code index} at commit, without reading it (a commit-time
     * add, as {@link TxLong#add}: adders of one element never invalidate each other).
     */
    public void add(Txn txn, int index, long delta) {
        TxnContext.of(txn, stm).addLong(cells[Objects.checkIndex(index, cells.length)], delta);
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
    public Single single() {
        return single;
    }

    /**
     * Non-transactional single operations on one element, each atomic and linearizable with
     * transactions; refused inside a transaction of the same store.
     */
    public static final class Single {
        private final TxLongArray array;

        private Single(TxLongArray array) {
            this.array = array;
        }

        /** @return the committed value of element {@code index} */
        public long get(int index) {
            return SingleOps.getLong(array.stm, array.cells[Objects.checkIndex(index, array.cells.length)]);
        }

        /** Sets element {@code index}. */
        public void set(int index, long value) {
            SingleOps.setLong(array.stm, array.cells[Objects.checkIndex(index, array.cells.length)], value);
        }

        /** Adds {@code delta} to element {@code index} atomically; returns the value after. */
        public long addAndGet(int index, long delta) {
            return SingleOps.updateLong(array.stm, array.cells[Objects.checkIndex(index, array.cells.length)], null,
                    delta, true);
        }

        /** Sets element {@code index} to {@code update} if it equals {@code expect}; returns whether it did. */
        public boolean compareAndSet(int index, long expect, long update) {
            return SingleOps.casLong(array.stm, array.cells[Objects.checkIndex(index, array.cells.length)], expect,
                    update);
        }
    }
}
