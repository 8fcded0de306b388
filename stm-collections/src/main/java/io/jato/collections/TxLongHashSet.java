package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;

import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * A transactional set of primitive {@code long}s: {@link TxHashSet} without boxing, on
 * {@link TxLongHashMap}'s machinery. Membership tests, adds and removes are serializable including
 * absence (no phantoms on elements); {@link #size} and {@link #forEach} are phantom-safe over the
 * whole set. Lookups take no lock and allocate nothing; an add allocates its node.
 */
public final class TxLongHashSet {
    private static final Object PRESENT = Boolean.TRUE;

    private final TxLongHashMap<Object> map;
    private final Single single = new Single(this);

    /** Creates a set in {@code stm} sized for about a thousand elements. */
    public TxLongHashSet(Stm stm) {
        this(stm, 1024);
    }

    /**
     * Creates a set in {@code stm}.
     *
     * @param expectedSize the number of elements expected; sizes the index and absence stripes
     */
    public TxLongHashSet(Stm stm, int expectedSize) {
        this.map = new TxLongHashMap<>(stm, expectedSize);
    }

    /** @return whether {@code element} is in the set as of this transaction */
    public boolean contains(Txn txn, long element) {
        return map.containsKey(txn, element);
    }

    /** Adds {@code element}; returns true if it was absent. */
    public boolean add(Txn txn, long element) {
        return map.putIfAbsent(txn, element, PRESENT) == null;
    }

    /** Removes {@code element}; returns true if it was present. */
    public boolean remove(Txn txn, long element) {
        return map.remove(txn, element) != null;
    }

    /** @return the number of elements as of this transaction; phantom-safe, O(size) */
    public int size(Txn txn) {
        return map.size(txn);
    }

    /** @return true if the set is empty as of this transaction (phantom-safe, O(size)) */
    public boolean isEmpty(Txn txn) {
        return map.isEmpty(txn);
    }

    /** Passes every element present as of this transaction to {@code action}; phantom-safe. */
    public void forEach(Txn txn, LongConsumer action) {
        map.forEachKey(txn, action);
    }

    /** @return the store this set belongs to */
    public Stm stm() {
        return map.stm();
    }

    /** Diagnostics for tests (see {@link TxLongHashMap#checkQuiescent()}); call while no transaction runs. */
    public String checkQuiescent() {
        return map.checkQuiescent();
    }

    /** @return the non-transactional view, for loading and inspection */
    public Single single() {
        return single;
    }

    /**
     * Non-transactional single operations (see {@link TxHashSet.Single}): atomic, linearizable
     * with transactions, refused inside a transaction of the same store.
     */
    public static final class Single {
        private final TxLongHashSet set;

        private Single(TxLongHashSet set) {
            this.set = set;
        }

        /** @return whether {@code element} is in the committed set */
        public boolean contains(long element) {
            return set.map.single().containsKey(element);
        }

        /** Adds {@code element}; returns true if it was absent. */
        public boolean add(long element) {
            return set.map.single().put(element, PRESENT) == null;
        }

        /** Removes {@code element}; returns true if it was present. */
        public boolean remove(long element) {
            return set.map.single().remove(element) != null;
        }

        /** @return the number of committed elements (an estimate while transactions run) */
        public int size() {
            return set.map.single().size();
        }

        /** Visits every committed element (weakly consistent while transactions run). */
        public void forEach(LongConsumer action) {
            Objects.requireNonNull(action, "action");
            set.map.single().forEach((e, present) -> action.accept(e));
        }
    }
}
