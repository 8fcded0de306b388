package io.jato.collections;

import io.jato.collections.internal.sorted.ObjectKeyIndex;
import io.jato.collections.internal.sorted.Slot;
import io.jato.collections.internal.sorted.SortedIndex;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.TxnContext;

import java.util.Comparator;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/*
 * Design. An ordered map has one problem a hash map does not: a range scan reads the ABSENCE of every
 * key between the ones it returns, and an insert into that gap after the scan is a phantom (seed 001
 * §3.6). Re-running scans at commit costs a second scan; a map-wide lock serializes everything.
 * Silo and Masstree instead version the index's nodes, and so does this map.
 *
 * Layout. A B+-tree (io.jato.collections.internal.sorted.SortedIndex). Each key's value lives in its
 * own versioned slot, like a hash-map node: reads, updates and deletes of present keys conflict only
 * on that key. Each leaf is itself a transactional item whose version stands for "the set of keys in
 * my range [lo, hi)".
 *
 * Phantoms. A scan records (observes) the version of every leaf whose range it covers, BEFORE it
 * reads the leaf's keys, and reads each key's slot; a lookup of an absent key records the version of
 * the leaf that would hold it. Every commit that inserts a key gives the key's leaf a new version,
 * and so does every split or merge that changes a leaf's range. So a scan or absent lookup fails
 * validation exactly when something was inserted into a range it covered (or the range was
 * re-shaped) - at leaf granularity: an insert into a leaf it covered, even outside the scanned keys,
 * is a false conflict; an insert into any other leaf is none. Deletes do not touch leaf versions: a
 * reader that saw the key present has the slot in its read set, and the delete retires the slot;
 * a reader that did not see the key is serialized after the delete anyway. The protocol validates
 * leaf versions like any other item, so this works unchanged for every protocol of the store.
 *
 * Writes over a key looked up absent. A point lookup that finds a key absent also records the key
 * (with the transaction's pending inserts, pooled); a later write (put, remove) of the same
 * transaction that finds the key present aborts: it was inserted since, and the write would
 * overwrite it unseen. Serializable protocols fail such a transaction at commit anyway (the leaf
 * changed); a level that validates no absence (TicToc's repeatable read) would lose the insert. The
 * key, not the leaf, is recorded because the insert may have split the leaf the lookup observed.
 *
 * Inserts. The absence an insert relies on is not validated through the leaf's version (that would
 * make two inserts into one leaf abort each other): the insert buffers a fresh slot and marks the
 * leaf for a version bump; at commit, with every write item locked, it checks that the leaf now
 * covering the key is one this transaction locked and that the key is still absent. Inserts into one
 * leaf therefore serialize on its lock and do not abort each other; like Silo, only readers of the
 * range pay for an insert. (Silo inserts an absent placeholder record during execution; here a
 * transaction that aborts leaves no physical trace.)
 *
 * Physical concurrency is separate from the transactional versions the protocol owns: every node
 * has a seqlock word, readers use optimistic lock coupling and never write, writers hold one node's
 * seqlock at a time while they change it. A commit's install only links or unlinks a slot in one
 * leaf (the leaf may grow past capacity for a moment); splits and the removal of empty leaves run
 * right after the commit, as structure operations that lock the leaf's transactional item and give
 * it a new version. A split cannot run inside the install: the new leaf would not be locked by the
 * committing transaction, so a second insert of that transaction into it would bump no version that
 * a concurrent scanner validates.
 *
 * Contention-aware layout (seed 002 §4.5). With a prefix layout, keys of different prefixes never
 * share a leaf, and a leaf boundary between two prefixes lies exactly at the first key of the greater
 * one, so a scan confined to one prefix observes only that prefix's leaves and inserts under any
 * other prefix never change them: delivery scanning one district never conflicts with new-order
 * inserting into the next. The last leaf of a prefix is kept even when empty. STO gets the same
 * property from Masstree's layers by padding key components to 8 bytes; a B+-tree gets it by
 * choosing where to cut.
 *
 * Not opaque: like every Jato read, a scan in a transaction that is going to fail validation may see
 * a mix of states; it is retried. Keys must be immutable and consistent with the ordering.
 */

/**
 * A transactional sorted map with serializable range scans. Inside a transaction, point operations,
 * navigation ({@link #floorKey}, {@link #ceilingKey}, ...) and {@link #scan scans} see the
 * transaction's own writes, and everything they observed - values, and the absence of keys in the
 * ranges they covered - is validated at commit, so a concurrent insert or delete inside a range a
 * transaction scanned makes it retry (no phantoms), while inserts elsewhere do not.
 *
 * <p>Keys are ordered by their natural ordering or by the comparator given at construction; they
 * must be immutable and must not be null; values must not be null and should be immutable. Keys a
 * comparator cannot compare are rejected with {@link IllegalArgumentException} naming both types,
 * before anything changes.
 *
 * <p>Performance: point operations are {@code O(log n)} and allocate nothing in steady state (an
 * insert allocates its slot); readers take no lock. Conflicts are at leaf granularity (about 32
 * keys, {@link Builder#nodeCapacity}): a scan conflicts with an insert into a leaf it covered even if
 * the key falls outside the scanned range. {@link Builder#prefixLayout} removes such conflicts
 * between key prefixes. For {@code long} keys (or tuples packed into a {@code long}),
 * {@link TxLongSortedMap} avoids boxing and is faster.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class TxSortedMap<K, V> extends SortedMapBase {
    private final Single<K, V> single = new Single<>(this);

    /** Creates a map in {@code stm} ordered by the keys' natural ordering. */
    public TxSortedMap(Stm stm) {
        this(stm, null, null, SortedIndex.DEFAULT_CAPACITY, false);
    }

    /** Creates a map in {@code stm} ordered by {@code comparator}. */
    public TxSortedMap(Stm stm, Comparator<? super K> comparator) {
        this(stm, Objects.requireNonNull(comparator, "comparator"), null, SortedIndex.DEFAULT_CAPACITY, false);
    }

    private TxSortedMap(Stm stm, Comparator<? super K> comparator, UnaryOperator<K> prefixStart, int nodeCapacity,
                        boolean insertOnly) {
        super(new Index(Objects.requireNonNull(stm, "stm"), nodeCapacity, comparator, prefixStart, insertOnly));
    }

    /** @return a builder for a map in {@code stm} (natural ordering, no layout, default capacity) */
    public static <K, V> Builder<K, V> builder(Stm stm) {
        return new Builder<>(Objects.requireNonNull(stm, "stm"));
    }

    /**
     * Receives the entries of a scan, in scan order.
     *
     * @param <K> key type
     * @param <V> value type
     */
    @FunctionalInterface
    public interface Visitor<K, V> {
        /** @return true to continue the scan, false to stop it here */
        boolean visit(K key, V value);
    }

    /** @return the value for {@code key} as of this transaction, or null if absent */
    @SuppressWarnings("unchecked")
    public V get(Txn txn, K key) {
        return (V) index.get(ctx(txn), 0L, Objects.requireNonNull(key, "key"));
    }

    /** @return whether {@code key} is present as of this transaction */
    public boolean containsKey(Txn txn, K key) {
        return index.containsKey(ctx(txn), 0L, Objects.requireNonNull(key, "key"));
    }

    /**
     * Maps {@code key} to {@code value}; returns the previous value or null. In an
     * {@linkplain Builder#insertOnly() insert-only} map, throws {@link UnsupportedOperationException}
     * if the key is present.
     */
    @SuppressWarnings("unchecked")
    public V put(Txn txn, K key, V value) {
        return (V) index.put(ctx(txn), 0L, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"),
                false);
    }

    /** Maps {@code key} to {@code value} unless present; returns the present value or null. */
    @SuppressWarnings("unchecked")
    public V putIfAbsent(Txn txn, K key, V value) {
        return (V) index.put(ctx(txn), 0L, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"),
                true);
    }

    /**
     * Removes {@code key}; returns the removed value or null if it was absent. In an
     * {@linkplain Builder#insertOnly() insert-only} map, throws {@link UnsupportedOperationException}.
     */
    @SuppressWarnings("unchecked")
    public V remove(Txn txn, K key) {
        return (V) index.remove(ctx(txn), 0L, Objects.requireNonNull(key, "key"));
    }

    /** @return the least key as of this transaction, or null if the map is empty */
    public K firstKey(Txn txn) {
        return keyOf(index.walk(ctx(txn), 0L, null, true, true, 0L, null, true, true, 1, false, null));
    }

    /** @return the greatest key as of this transaction, or null if the map is empty */
    public K lastKey(Txn txn) {
        return keyOf(index.walk(ctx(txn), 0L, null, true, true, 0L, null, true, true, 1, true, null));
    }

    /** @return the greatest key less than or equal to {@code key}, or null */
    public K floorKey(Txn txn, K key) {
        return nearest(txn, key, true, true);
    }

    /** @return the greatest key strictly less than {@code key}, or null */
    public K lowerKey(Txn txn, K key) {
        return nearest(txn, key, false, true);
    }

    /** @return the least key greater than or equal to {@code key}, or null */
    public K ceilingKey(Txn txn, K key) {
        return nearest(txn, key, true, false);
    }

    /** @return the least key strictly greater than {@code key}, or null */
    public K higherKey(Txn txn, K key) {
        return nearest(txn, key, false, false);
    }

    private K nearest(Txn txn, K key, boolean inclusive, boolean below) {
        Object k = Objects.requireNonNull(key, "key");
        TxnContext c = ctx(txn);
        return keyOf(below ? index.walk(c, 0L, null, true, true, 0L, k, inclusive, false, 1, true, null)
                : index.walk(c, 0L, k, inclusive, false, 0L, null, true, true, 1, false, null));
    }

    /** Visits the entries with {@code from <= key <= to} in ascending order; a null bound is unbounded. */
    public void scan(Txn txn, K from, K to, Visitor<? super K, ? super V> visitor) {
        scan(txn, from, true, to, true, Integer.MAX_VALUE, false, visitor);
    }

    /**
     * Visits the entries of a key range in ascending order, or descending if {@code descending},
     * until {@code limit} entries were visited or the visitor returns false. The visitor runs inside
     * the transaction and may use it (it should not insert into the part of the range not yet
     * visited: such entries may or may not be visited). Entries are read lazily, leaf by leaf, so a
     * scan that stops early reads, and conflicts with inserts into, only the part it covered.
     *
     * @param from          the lower bound, or null for none
     * @param fromInclusive whether {@code from} itself is in the range
     * @param to            the upper bound, or null for none
     * @param toInclusive   whether {@code to} itself is in the range
     * @param limit         the most entries to visit, {@code >= 0}
     * @throws IllegalArgumentException if {@code from > to}, or {@code limit < 0}, or the bounds
     *                                  cannot be compared
     */
    public void scan(Txn txn, K from, boolean fromInclusive, K to, boolean toInclusive, int limit, boolean descending,
                     Visitor<? super K, ? super V> visitor) {
        Objects.requireNonNull(visitor, "visitor");
        TxnContext c = ctx(txn);
        if (index.emptyRange(0L, from, fromInclusive, from == null, 0L, to, toInclusive, to == null, limit)) {
            return;
        }
        index.walk(c, 0L, from, fromInclusive, from == null, 0L, to, toInclusive, to == null, limit, descending,
                visitor);
    }

    /** @return whether this map is {@linkplain Builder#insertOnly() insert-only} */
    public boolean isInsertOnly() {
        return index.isInsertOnly();
    }

    /** @return the non-transactional view, for loading and inspection */
    public Single<K, V> single() {
        return single;
    }

    @SuppressWarnings("unchecked")
    private K keyOf(Slot s) {
        return s == null ? null : (K) s.key();
    }

    /** The engine, with this API's visitor type. */
    private static final class Index extends ObjectKeyIndex {
        Index(Stm stm, int capacity, Comparator<?> comparator, UnaryOperator<?> prefixStart, boolean insertOnly) {
            super(stm, capacity, comparator, prefixStart, insertOnly);
        }

        @Override
        @SuppressWarnings("unchecked")
        protected boolean emit(Object visitor, Slot s, Object value) {
            return ((Visitor<Object, Object>) visitor).visit(s.key(), value);
        }
    }

    /**
     * Options of a {@link TxSortedMap}.
     *
     * @param <K> key type
     * @param <V> value type
     */
    public static final class Builder<K, V> {
        private final Stm stm;
        private Comparator<? super K> comparator;
        private UnaryOperator<K> prefixStart;
        private int nodeCapacity = SortedIndex.DEFAULT_CAPACITY;
        private boolean insertOnly;

        private Builder(Stm stm) {
            this.stm = stm;
        }

        /** Orders keys by {@code comparator} instead of their natural ordering. */
        public Builder<K, V> comparator(Comparator<? super K> comparator) {
            this.comparator = Objects.requireNonNull(comparator, "comparator");
            return this;
        }

        /**
         * Contention-aware layout: keys with the same prefix get leaves of their own, so a scan
         * within one prefix never conflicts with inserts or deletes under another.
         *
         * @param prefixStart maps a key to the first (least) key of its prefix; keys with the same
         *                    prefix must form a contiguous run of the map's order. E.g. for keys
         *                    {@code (warehouse, district, order)}: {@code k -> (k.w, k.d, 0)}.
         */
        public Builder<K, V> prefixLayout(UnaryOperator<K> prefixStart) {
            this.prefixStart = Objects.requireNonNull(prefixStart, "prefixStart");
            return this;
        }

        /**
         * Most keys per leaf (and separators per inner node), default 32. Smaller leaves mean fewer
         * false conflicts between scans and inserts, larger ones faster scans.
         */
        public Builder<K, V> nodeCapacity(int capacity) {
            this.nodeCapacity = SortedIndex.checkCapacity(capacity);
            return this;
        }

        /**
         * Makes the map insert-only, a table's index: a key, once inserted, keeps the value it was
         * inserted with for ever. {@code put} of a present key and {@code remove} throw
         * {@link UnsupportedOperationException} and change nothing (transactional and
         * {@code single()} alike); {@code putIfAbsent} returns the present value. In return a
         * transaction reads a present key's value - by {@code get}, {@code containsKey},
         * {@code putIfAbsent}, a scan or a navigation - without an access-set entry for it where
         * the protocol allows (OCC, TicToc, MVCC, the global lock: see
         * {@code ConcurrencyControl.readUnchangingRef}): nothing to record and nothing to validate
         * at commit. Scans still observe the leaves they cover, so inserts into a scanned range
         * are caught as before. Values may be mutable objects (transactional records): what never
         * changes is which value a key maps to.
         */
        public Builder<K, V> insertOnly() {
            this.insertOnly = true;
            return this;
        }

        /** @return the new, empty map */
        public TxSortedMap<K, V> build() {
            return new TxSortedMap<>(stm, comparator, prefixStart, nodeCapacity, insertOnly);
        }
    }

    /**
     * Non-transactional single operations for loading and inspection: each is atomic on its own and
     * linearizable with transactions; iteration is weakly consistent. Calling them inside a
     * transaction of the same store throws {@link IllegalStateException}.
     *
     * @param <K> key type
     * @param <V> value type
     */
    public static final class Single<K, V> {
        private final TxSortedMap<K, V> map;

        private Single(TxSortedMap<K, V> map) {
            this.map = map;
        }

        /** @return the committed value for {@code key}, or null */
        @SuppressWarnings("unchecked")
        public V get(K key) {
            return (V) map.singleGet(0L, Objects.requireNonNull(key, "key"));
        }

        /** @return whether {@code key} is present */
        public boolean containsKey(K key) {
            return get(key) != null;
        }

        /** Maps {@code key} to {@code value}; returns the previous value or null. */
        @SuppressWarnings("unchecked")
        public V put(K key, V value) {
            return (V) map.singlePut(0L, Objects.requireNonNull(key, "key"), value);
        }

        /** Removes {@code key}; returns the removed value or null. */
        @SuppressWarnings("unchecked")
        public V remove(K key) {
            return (V) map.singleRemove(0L, Objects.requireNonNull(key, "key"));
        }

        /** @return the number of committed keys (a moment's estimate while transactions run) */
        public int size() {
            return map.index.singleSize();
        }

        /** Visits every committed entry in ascending key order (weakly consistent). */
        public void forEach(BiConsumer<? super K, ? super V> action) {
            Objects.requireNonNull(action, "action");
            scan(null, true, null, true, Integer.MAX_VALUE, false, (k, v) -> {
                action.accept(k, v);
                return true;
            });
        }

        /**
         * The non-transactional form of
         * {@link TxSortedMap#scan(Txn, Object, boolean, Object, boolean, int, boolean, Visitor)}.
         */
        public void scan(K from, boolean fromInclusive, K to, boolean toInclusive, int limit, boolean descending,
                         Visitor<? super K, ? super V> visitor) {
            map.singleScan(0L, from, fromInclusive, from == null, 0L, to, toInclusive, to == null, limit, descending,
                    visitor);
        }
    }
}
