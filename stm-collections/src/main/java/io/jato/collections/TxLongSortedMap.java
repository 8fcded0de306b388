package io.jato.collections;

import io.jato.collections.internal.sorted.LongKeyIndex;
import io.jato.collections.internal.sorted.Slot;
import io.jato.collections.internal.sorted.SortedIndex;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

/**
 * A transactional sorted map with primitive {@code long} keys, ordered as signed longs: the
 * specialisation of {@link TxSortedMap} for numeric keys and for composite keys packed into a
 * {@code long} (TPC-C's {@code (warehouse, district, order)} in 16/8/40 bits, say). Same guarantees
 * and design (see {@link TxSortedMap}): serializable point operations, navigation and range scans
 * with phantom protection, readers without locks, no allocation per lookup or scan in steady state
 * and no boxing of keys anywhere.
 *
 * <p>Navigation methods return a key, so they take the value to return when there is none
 * ({@code ifNone}); choose one outside the key space (e.g. -1 for non-negative keys).
 *
 * <p>{@link Builder#prefixLayout(int)} makes the map contention-aware: keys that agree in their high
 * bits share leaves only with each other, so a scan of one prefix (one district's orders) never
 * conflicts with inserts under another.
 *
 * @param <V> value type
 */
public final class TxLongSortedMap<V> extends SortedMapBase {
    private final Single<V> single = new Single<>(this);

    /** Creates a map in {@code stm} without a prefix layout. */
    public TxLongSortedMap(Stm stm) {
        this(stm, 0, SortedIndex.DEFAULT_CAPACITY, false);
    }

    private TxLongSortedMap(Stm stm, int suffixBits, int nodeCapacity, boolean insertOnly) {
        super(new Index(Objects.requireNonNull(stm, "stm"), nodeCapacity, suffixBits, insertOnly));
    }

    /** @return a builder for a map in {@code stm} (no layout, default capacity) */
    public static <V> Builder<V> builder(Stm stm) {
        return new Builder<>(Objects.requireNonNull(stm, "stm"));
    }

    /**
     * Receives the entries of a scan, in scan order.
     *
     * @param <V> value type
     */
    @FunctionalInterface
    public interface Visitor<V> {
        /** @return true to continue the scan, false to stop it here */
        boolean visit(long key, V value);
    }

    /** @return the value for {@code key} as of this transaction, or null if absent */
    @SuppressWarnings("unchecked")
    public V get(Txn txn, long key) {
        return (V) index.get(ctx(txn), key, null);
    }

    /** @return whether {@code key} is present as of this transaction */
    public boolean containsKey(Txn txn, long key) {
        return index.containsKey(ctx(txn), key, null);
    }

    /**
     * Maps {@code key} to {@code value}; returns the previous value or null. In an
     * {@linkplain Builder#insertOnly() insert-only} map, throws {@link UnsupportedOperationException}
     * if the key is present.
     */
    @SuppressWarnings("unchecked")
    public V put(Txn txn, long key, V value) {
        return (V) index.put(ctx(txn), key, null, Objects.requireNonNull(value, "value"), false);
    }

    /** Maps {@code key} to {@code value} unless present; returns the present value or null. */
    @SuppressWarnings("unchecked")
    public V putIfAbsent(Txn txn, long key, V value) {
        return (V) index.put(ctx(txn), key, null, Objects.requireNonNull(value, "value"), true);
    }

    /**
     * Removes {@code key}; returns the removed value or null if it was absent. In an
     * {@linkplain Builder#insertOnly() insert-only} map, throws {@link UnsupportedOperationException}.
     */
    @SuppressWarnings("unchecked")
    public V remove(Txn txn, long key) {
        return (V) index.remove(ctx(txn), key, null);
    }

    /** @return the least key as of this transaction, or {@code ifNone} if the map is empty */
    public long firstKey(Txn txn, long ifNone) {
        return keyOf(index.walk(ctx(txn), 0L, null, true, true, 0L, null, true, true, 1, false, null), ifNone);
    }

    /** @return the greatest key as of this transaction, or {@code ifNone} if the map is empty */
    public long lastKey(Txn txn, long ifNone) {
        return keyOf(index.walk(ctx(txn), 0L, null, true, true, 0L, null, true, true, 1, true, null), ifNone);
    }

    /** @return the greatest key less than or equal to {@code key}, or {@code ifNone} */
    public long floorKey(Txn txn, long key, long ifNone) {
        return keyOf(index.walk(ctx(txn), 0L, null, true, true, key, null, true, false, 1, true, null), ifNone);
    }

    /** @return the greatest key strictly less than {@code key}, or {@code ifNone} */
    public long lowerKey(Txn txn, long key, long ifNone) {
        return keyOf(index.walk(ctx(txn), 0L, null, true, true, key, null, false, false, 1, true, null), ifNone);
    }

    /** @return the least key greater than or equal to {@code key}, or {@code ifNone} */
    public long ceilingKey(Txn txn, long key, long ifNone) {
        return keyOf(index.walk(ctx(txn), key, null, true, false, 0L, null, true, true, 1, false, null), ifNone);
    }

    /** @return the least key strictly greater than {@code key}, or {@code ifNone} */
    public long higherKey(Txn txn, long key, long ifNone) {
        return keyOf(index.walk(ctx(txn), key, null, false, false, 0L, null, true, true, 1, false, null), ifNone);
    }

    /** Visits the entries with {@code from <= key <= to} in ascending order. */
    public void scan(Txn txn, long from, long to, Visitor<? super V> visitor) {
        scan(txn, from, true, to, true, Integer.MAX_VALUE, false, visitor);
    }

    /**
     * Visits the entries of a key range in ascending order, or descending if {@code descending},
     * until {@code limit} entries were visited or the visitor returns false. Lazy, leaf by leaf, as
     * {@link TxSortedMap#scan(Txn, Object, boolean, Object, boolean, int, boolean, TxSortedMap.Visitor)}.
     *
     * @param limit the most entries to visit, {@code >= 0}
     * @throws IllegalArgumentException if {@code from > to} or {@code limit < 0}
     */
    public void scan(Txn txn, long from, boolean fromInclusive, long to, boolean toInclusive, int limit,
                     boolean descending, Visitor<? super V> visitor) {
        Objects.requireNonNull(visitor, "visitor");
        TxnContext c = ctx(txn);
        if (!index.emptyRange(from, null, fromInclusive, false, to, null, toInclusive, false, limit)) {
            index.walk(c, from, null, fromInclusive, false, to, null, toInclusive, false, limit, descending, visitor);
        }
    }

    /** @return whether this map is {@linkplain Builder#insertOnly() insert-only} */
    public boolean isInsertOnly() {
        return index.isInsertOnly();
    }

    /** @return the non-transactional view, for loading and inspection */
    public Single<V> single() {
        return single;
    }

    private static long keyOf(Slot s, long ifNone) {
        return s == null ? ifNone : s.longKey();
    }

    /** The engine, with this API's visitor type. */
    private static final class Index extends LongKeyIndex {
        Index(Stm stm, int capacity, int suffixBits, boolean insertOnly) {
            super(stm, capacity, suffixBits, insertOnly);
        }

        @Override
        @SuppressWarnings("unchecked")
        protected boolean emit(Object visitor, Slot s, Object value) {
            return ((Visitor<Object>) visitor).visit(s.longKey(), value);
        }
    }

    /**
     * Options of a {@link TxLongSortedMap}.
     *
     * @param <V> value type
     */
    public static final class Builder<V> {
        private final Stm stm;
        private int suffixBits;
        private int nodeCapacity = SortedIndex.DEFAULT_CAPACITY;
        private boolean insertOnly;

        private Builder(Stm stm) {
            this.stm = stm;
        }

        /**
         * Contention-aware layout: keys equal in all but their {@code suffixBits} low bits (equal
         * {@code key >> suffixBits}) form a prefix and get leaves of their own, so a scan within one
         * prefix never conflicts with inserts or deletes under another. For keys packed as
         * {@code district << 40 | order}, {@code prefixLayout(40)} gives each district its leaves.
         *
         * @param suffixBits in {@code [1, 63]}
         */
        public Builder<V> prefixLayout(int suffixBits) {
            if (suffixBits < 1 || suffixBits > 63) {
                throw new IllegalArgumentException("suffixBits must be in [1, 63], got " + suffixBits);
            }
            this.suffixBits = suffixBits;
            return this;
        }

        /** Most keys per leaf (and separators per inner node), default 32; see {@link TxSortedMap.Builder}. */
        public Builder<V> nodeCapacity(int capacity) {
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
        public Builder<V> insertOnly() {
            this.insertOnly = true;
            return this;
        }

        /** @return the new, empty map */
        public TxLongSortedMap<V> build() {
            return new TxLongSortedMap<>(stm, suffixBits, nodeCapacity, insertOnly);
        }
    }

    /**
     * Non-transactional single operations for loading and inspection, as {@link TxSortedMap.Single}.
     *
     * @param <V> value type
     */
    public static final class Single<V> {
        private final TxLongSortedMap<V> map;

        private Single(TxLongSortedMap<V> map) {
            this.map = map;
        }

        /** @return the committed value for {@code key}, or null */
        @SuppressWarnings("unchecked")
        public V get(long key) {
            return (V) map.singleGet(key, null);
        }

        /** @return whether {@code key} is present */
        public boolean containsKey(long key) {
            return get(key) != null;
        }

        /** Maps {@code key} to {@code value}; returns the previous value or null. */
        @SuppressWarnings("unchecked")
        public V put(long key, V value) {
            return (V) map.singlePut(key, null, value);
        }

        /** Removes {@code key}; returns the removed value or null. */
        @SuppressWarnings("unchecked")
        public V remove(long key) {
            return (V) map.singleRemove(key, null);
        }

        /** @return the number of committed keys (a moment's estimate while transactions run) */
        public int size() {
            return map.index.singleSize();
        }

        /** Visits every committed entry in ascending key order (weakly consistent); the visitor may stop it. */
        public void forEach(Visitor<? super V> visitor) {
            scan(Long.MIN_VALUE, true, Long.MAX_VALUE, true, Integer.MAX_VALUE, false, visitor);
        }

        /**
         * The non-transactional form of
         * {@link TxLongSortedMap#scan(Txn, long, boolean, long, boolean, int, boolean, Visitor)}.
         */
        public void scan(long from, boolean fromInclusive, long to, boolean toInclusive, int limit, boolean descending,
                         Visitor<? super V> visitor) {
            map.singleScan(from, null, fromInclusive, false, to, null, toInclusive, false, limit, descending, visitor);
        }
    }
}
