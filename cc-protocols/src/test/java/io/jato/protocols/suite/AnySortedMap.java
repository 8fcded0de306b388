package io.jato.protocols.suite;

import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxSortedMap;
import io.jato.stm.Stm;
import io.jato.stm.Txn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

/**
 * Both sorted maps - {@link TxSortedMap} with {@code Long} keys and {@link TxLongSortedMap} - behind
 * one interface with {@code long} keys, so each sorted-map suite is written once and run on both.
 *
 * @param <V> value type
 */
public final class AnySortedMap<V> implements Quiescence.Quiescent {
    /** The sorted map types. */
    public static final List<String> KINDS = List.of("TxSortedMap", "TxLongSortedMap");

    /** Navigation kinds for {@link #nav}. */
    public static final int FLOOR = 0;
    public static final int LOWER = 1;
    public static final int CEILING = 2;
    public static final int HIGHER = 3;
    public static final int FIRST = 4;
    public static final int LAST = 5;

    private interface Point<V> {
        V apply(Txn txn, long key);
    }

    private interface Write<V> {
        V apply(Txn txn, long key, V value, boolean ifAbsent);
    }

    private interface Scan<V> {
        void scan(Txn txn, long from, boolean fi, long to, boolean ti, int limit, boolean desc, BiPredicate<Long, V> v);
    }

    private interface Nav {
        Long apply(Txn txn, int kind, long key);
    }

    private final String kind;
    private final Object map;
    private final Point<V> get;
    private final Write<V> put;
    private final Point<V> remove;
    /** Transactional if the txn is non-null, else through single(). */
    private final Scan<V> scan;
    private final Nav nav;
    private final Write<V> singlePut;
    private final Point<V> singleRemove;

    private AnySortedMap(String kind, Object map, Point<V> get, Write<V> put, Point<V> remove, Scan<V> scan, Nav nav,
                         Write<V> singlePut, Point<V> singleRemove) {
        this.kind = kind;
        this.map = map;
        this.get = get;
        this.put = put;
        this.remove = remove;
        this.scan = scan;
        this.nav = nav;
        this.singlePut = singlePut;
        this.singleRemove = singleRemove;
    }

    /** @return every (protocol, sorted map kind) pair */
    public static Stream<Arguments> protocolsAndKinds() {
        return Protocols.all().flatMap(p -> KINDS.stream().map(k -> Arguments.of(p, k)));
    }

    /** @return an empty map with the default node capacity and no layout */
    public static <V> AnySortedMap<V> create(String kind, Stm stm) {
        return create(kind, stm, 32, 0);
    }

    /**
     * @param capacity   node capacity
     * @param suffixBits 0 for no prefix layout, else keys equal in all but their low {@code suffixBits}
     *                   bits share a prefix
     */
    public static <V> AnySortedMap<V> create(String kind, Stm stm, int capacity, int suffixBits) {
        if (kind.equals("TxSortedMap")) {
            TxSortedMap.Builder<Long, V> b = TxSortedMap.<Long, V>builder(stm).nodeCapacity(capacity);
            if (suffixBits > 0) {
                b.prefixLayout(k -> (k >> suffixBits) << suffixBits);
            }
            TxSortedMap<Long, V> m = b.build();
            return new AnySortedMap<>(kind, m, m::get,
                    (t, k, v, a) -> a ? m.putIfAbsent(t, k, v) : m.put(t, k, v), m::remove,
                    (t, f, fi, to, ti, l, d, v) -> {
                        if (t == null) {
                            m.single().scan(f, fi, to, ti, l, d, v == null ? null : v::test);
                        } else {
                            m.scan(t, f, fi, to, ti, l, d, v == null ? null : v::test);
                        }
                    },
                    (t, n, k) -> n == FLOOR ? m.floorKey(t, k) : n == LOWER ? m.lowerKey(t, k)
                            : n == CEILING ? m.ceilingKey(t, k) : n == HIGHER ? m.higherKey(t, k)
                            : n == FIRST ? m.firstKey(t) : m.lastKey(t),
                    (t, k, v, a) -> m.single().put(k, v),
                    (t, k) -> m.single().remove(k));
        }
        if (!kind.equals("TxLongSortedMap")) {
            throw new IllegalArgumentException("unknown sorted map kind " + kind);
        }
        TxLongSortedMap.Builder<V> b = TxLongSortedMap.<V>builder(stm).nodeCapacity(capacity);
        if (suffixBits > 0) {
            b.prefixLayout(suffixBits);
        }
        TxLongSortedMap<V> m = b.build();
        return new AnySortedMap<>(kind, m, m::get, (t, k, v, a) -> a ? m.putIfAbsent(t, k, v) : m.put(t, k, v),
                m::remove,
                (t, f, fi, to, ti, l, d, v) -> {
                    if (t == null) {
                        m.single().scan(f, fi, to, ti, l, d, v == null ? null : v::test);
                    } else {
                        m.scan(t, f, fi, to, ti, l, d, v == null ? null : v::test);
                    }
                },
                (t, n, k) -> none(n == FLOOR ? m.floorKey(t, k, Long.MIN_VALUE) : n == LOWER ? m.lowerKey(t, k, Long.MIN_VALUE)
                        : n == CEILING ? m.ceilingKey(t, k, Long.MIN_VALUE) : n == HIGHER ? m.higherKey(t, k, Long.MIN_VALUE)
                        : n == FIRST ? m.firstKey(t, Long.MIN_VALUE) : m.lastKey(t, Long.MIN_VALUE)),
                (t, k, v, a) -> m.single().put(k, v),
                (t, k) -> m.single().remove(k));
    }

    /** Long.MIN_VALUE is "none" in these suites (no suite uses it as a key). */
    private static Long none(long k) {
        return k == Long.MIN_VALUE ? null : k;
    }

    /** @return the map itself (a {@link TxSortedMap} or a {@link TxLongSortedMap}) */
    public Object raw() {
        return map;
    }

    public V get(Txn txn, long key) {
        return get.apply(txn, key);
    }

    public boolean containsKey(Txn txn, long key) {
        return get(txn, key) != null;
    }

    public V put(Txn txn, long key, V value) {
        return put.apply(txn, key, value, false);
    }

    public V putIfAbsent(Txn txn, long key, V value) {
        return put.apply(txn, key, value, true);
    }

    public V remove(Txn txn, long key) {
        return remove.apply(txn, key);
    }

    /** @return the key found by navigation {@code kind} ({@link #FLOOR} ...), or null */
    public Long nav(Txn txn, int kind, long key) {
        return nav.apply(txn, kind, key);
    }

    /** Scans with a visitor (transactional, or through single() if {@code txn} is null). */
    public void scan(Txn txn, long from, boolean fi, long to, boolean ti, int limit, boolean desc,
                     BiPredicate<Long, V> visitor) {
        scan.scan(txn, from, fi, to, ti, limit, desc, visitor);
    }

    /** @return the keys of {@code [from, to]} in ascending order (transactional, or committed if {@code txn} is null) */
    public List<Long> keys(Txn txn, long from, long to) {
        List<Long> keys = new ArrayList<>();
        scan(txn, from, true, to, true, Integer.MAX_VALUE, false, (k, v) -> keys.add(k));
        return keys;
    }

    public V singlePut(long key, V value) {
        return singlePut.apply(null, key, value, false);
    }

    public V singleRemove(long key) {
        return singleRemove.apply(null, key);
    }

    /** @return every committed entry, in key order */
    public Map<Long, V> contents() {
        Map<Long, V> m = new TreeMap<>();
        scan(null, Long.MIN_VALUE + 1, true, Long.MAX_VALUE, true, Integer.MAX_VALUE, false, (k, v) -> m.put(k, v) == null);
        return m;
    }

    @Override
    public String checkQuiescent() {
        return map instanceof TxSortedMap ? ((TxSortedMap<?, ?>) map).checkQuiescent()
                : ((TxLongSortedMap<?>) map).checkQuiescent();
    }

    @Override
    public String toString() {
        return kind;
    }
}
