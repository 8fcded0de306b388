package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A transactional hash set: {@link TxHashMap}'s keys, with its guarantees. {@link #contains},
 * {@link #add} and {@link #remove} are validated at commit including the absence of an element,
 * so inserts and deletes are serializable with membership tests (no phantoms on elements), and
 * {@link #size} and {@link #forEach} are phantom-safe over the whole set. Elements must not be
 * null and need stable {@code equals}/{@code hashCode}.
 *
 * @param <E> element type
 */
public final class TxHashSet<E> {
    /** The value every element maps to. */
    private static final Object PRESENT = Boolean.TRUE;

    private final TxHashMap<E, Object> map;
    private final Single<E> single = new Single<>(this);

    /** Creates a set in {@code stm} sized for about a thousand elements. */
    public TxHashSet(Stm stm) {
        this(stm, 1024);
    }

    /**
     * Creates a set in {@code stm}.
     *
     * @param expectedSize the number of elements expected; sizes the index and absence stripes
     */
    public TxHashSet(Stm stm, int expectedSize) {
        this.map = new TxHashMap<>(stm, expectedSize);
    }

    /** @return whether {@code element} is in the set as of this transaction */
    public boolean contains(Txn txn, E element) {
        return map.containsKey(txn, Objects.requireNonNull(element, "element"));
    }

    /** Adds {@code element}; returns true if it was absent (as {@link java.util.Set#add}). */
    public boolean add(Txn txn, E element) {
        return map.putIfAbsent(txn, Objects.requireNonNull(element, "element"), PRESENT) == null;
    }

    /** Removes {@code element}; returns true if it was present. */
    public boolean remove(Txn txn, E element) {
        return map.remove(txn, Objects.requireNonNull(element, "element")) != null;
    }

    /** @return the number of elements as of this transaction; phantom-safe, O(size) (see {@link TxHashMap#size(Txn)}) */
    public int size(Txn txn) {
        return map.size(txn);
    }

    /** @return true if the set is empty as of this transaction (phantom-safe, O(size)) */
    public boolean isEmpty(Txn txn) {
        return map.isEmpty(txn);
    }

    /**
     * Passes every element present as of this transaction to {@code action}, in no particular
     * order; phantom-safe (see {@link TxHashMap#forEach(Txn, java.util.function.BiConsumer)}).
     */
    public void forEach(Txn txn, Consumer<? super E> action) {
        map.forEachKey(txn, action);
    }

    /** @return the store this set belongs to */
    public Stm stm() {
        return map.stm();
    }

    /**
     * Diagnostics for tests: null if the protocol finds the set's metadata quiescent, else what is
     * wrong (see {@link TxHashMap#checkQuiescent()}). Call only while no transaction runs.
     */
    public String checkQuiescent() {
        return map.checkQuiescent();
    }

    /** @return the non-transactional view, for loading and inspection */
    public Single<E> single() {
        return single;
    }

    /**
     * Non-transactional single operations: each is atomic on its own and linearizable with
     * transactions. Calling them inside a transaction of the same store throws
     * {@link IllegalStateException}.
     *
     * @param <E> element type
     */
    public static final class Single<E> {
        private final TxHashSet<E> set;

        private Single(TxHashSet<E> set) {
            this.set = set;
        }

        /** @return whether {@code element} is in the committed set */
        public boolean contains(E element) {
            return set.map.single().containsKey(Objects.requireNonNull(element, "element"));
        }

        /** Adds {@code element}; returns true if it was absent. */
        public boolean add(E element) {
            return set.map.single().put(Objects.requireNonNull(element, "element"), PRESENT) == null;
        }

        /** Removes {@code element}; returns true if it was present. */
        public boolean remove(E element) {
            return set.map.single().remove(Objects.requireNonNull(element, "element")) != null;
        }

        /** @return the number of committed elements (a moment's estimate while transactions run) */
        public int size() {
            return set.map.single().size();
        }

        /** Visits every committed element (weakly consistent while transactions run). */
        public void forEach(Consumer<? super E> action) {
            Objects.requireNonNull(action, "action");
            set.map.single().forEach((e, present) -> action.accept(e));
        }
    }
}
