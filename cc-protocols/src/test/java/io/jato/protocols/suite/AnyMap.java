package io.jato.protocols.suite;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxSortedMap;
import io.jato.stm.Stm;
import io.jato.stm.Txn;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The transactional maps behind one small interface with {@code String} keys, so that a scenario
 * written for "a map" ({@link Cells}, {@link Subject}) runs on each of them. The long-key maps get
 * a number per distinct key, in order of first use. Sorted maps get small nodes, so that even small
 * scenarios split and merge leaves.
 *
 * @param <V> value type
 */
public final class AnyMap<V> implements Quiescence.Quiescent {
    /** The map types. */
    public static final List<String> KINDS = List.of("TxHashMap", "TxSortedMap", "TxLongSortedMap", "TxLongHashMap");

    /** A transactional write: put. */
    private interface TxPut<V> {
        V apply(Txn txn, String key, V value);
    }

    private final BiFunction<Txn, String, V> get;
    private final TxPut<V> put;
    private final BiFunction<Txn, String, V> remove;
    private final Function<String, V> singleGet;
    private final BiFunction<String, V, V> singlePut;
    private final Consumer<BiConsumer<String, V>> forEach;
    private final Supplier<String> quiescence;

    private AnyMap(BiFunction<Txn, String, V> get, TxPut<V> put, BiFunction<Txn, String, V> remove,
                   Function<String, V> singleGet, BiFunction<String, V, V> singlePut,
                   Consumer<BiConsumer<String, V>> forEach, Supplier<String> quiescence) {
        this.get = get;
        this.put = put;
        this.remove = remove;
        this.singleGet = singleGet;
        this.singlePut = singlePut;
        this.forEach = forEach;
        this.quiescence = quiescence;
    }

    /** @return an empty map of {@code kind} in {@code stm} */
    public static <V> AnyMap<V> create(String kind, Stm stm) {
        switch (kind) {
            case "TxHashMap": {
                TxHashMap<String, V> m = new TxHashMap<>(stm);
                return new AnyMap<>(m::get, m::put, m::remove, m.single()::get, m.single()::put,
                        m.single()::forEach, m::checkQuiescent);
            }
            case "TxSortedMap": {
                TxSortedMap<String, V> m = TxSortedMap.<String, V>builder(stm).nodeCapacity(4).build();
                return new AnyMap<>(m::get, m::put, m::remove, m.single()::get, m.single()::put,
                        m.single()::forEach, m::checkQuiescent);
            }
            case "TxLongSortedMap": {
                TxLongSortedMap<V> m = TxLongSortedMap.<V>builder(stm).nodeCapacity(4).build();
                return longKeys(m::get, m::put, m::remove, m.single()::get, m.single()::put,
                        action -> m.single().forEach((k, v) -> {
                            action.accept(k, v);
                            return true;
                        }), m::checkQuiescent);
            }
            case "TxLongHashMap": {
                // Expected size 0: the smallest index, so even small scenarios resize it.
                TxLongHashMap<V> m = new TxLongHashMap<>(stm, 0);
                return longKeys(m::get, m::put, m::remove, m.single()::get, m.single()::put,
                        action -> m.single().forEach(action::accept), m::checkQuiescent);
            }
            default:
                throw new IllegalArgumentException("unknown map kind " + kind);
        }
    }

    /** A transactional operation of a long-key map. */
    private interface LongTxOp<R> {
        R apply(Txn txn, long key);
    }

    /** A transactional put of a long-key map. */
    private interface LongTxPut<V> {
        V apply(Txn txn, long key, V value);
    }

    /** A non-transactional put of a long-key map. */
    private interface LongPut<V> {
        V apply(long key, V value);
    }

    /** A long-key map's forEach, adapted to a visitor of (long, value). */
    private interface LongForEach<V> {
        void accept(LongVisitor<V> action);
    }

    /** Visits one entry of a long-key map. */
    private interface LongVisitor<V> {
        void accept(long key, V value);
    }

    /** Adapts a long-key map: each distinct string key gets a number, in order of first use. */
    private static <V> AnyMap<V> longKeys(LongTxOp<V> get, LongTxPut<V> put, LongTxOp<V> remove,
                                          java.util.function.LongFunction<V> singleGet, LongPut<V> singlePut,
                                          LongForEach<V> forEach, Supplier<String> quiescence) {
        Map<String, Long> numbers = new ConcurrentHashMap<>();
        Map<Long, String> names = new ConcurrentHashMap<>();
        Function<String, Long> n = key -> numbers.computeIfAbsent(key, k -> {
            synchronized (names) {
                long next = names.size();
                names.put(next, k);
                return next;
            }
        });
        return new AnyMap<>((t, k) -> get.apply(t, n.apply(k)), (t, k, v) -> put.apply(t, n.apply(k), v),
                (t, k) -> remove.apply(t, n.apply(k)), k -> singleGet.apply(n.apply(k)),
                (k, v) -> singlePut.apply(n.apply(k), v),
                action -> forEach.accept((k, v) -> action.accept(names.get(k), v)), quiescence);
    }

    public V get(Txn txn, String key) {
        return get.apply(txn, key);
    }

    public V put(Txn txn, String key, V value) {
        return put.apply(txn, key, value);
    }

    public V remove(Txn txn, String key) {
        return remove.apply(txn, key);
    }

    public V singleGet(String key) {
        return singleGet.apply(key);
    }

    public V singlePut(String key, V value) {
        return singlePut.apply(key, value);
    }

    /** @return the committed entries, sorted by key */
    public Map<String, V> contents() {
        Map<String, V> m = new TreeMap<>();
        forEach.accept(m::put);
        return m;
    }

    @Override
    public String checkQuiescent() {
        return quiescence.get();
    }
}
