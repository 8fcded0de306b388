package io.jato.protocols.suite;

import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxSortedMap;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TxSortedMap} and {@link TxLongSortedMap} semantics inside and across transactions, under
 * every protocol: point operations, navigation and scans, the transaction's own writes seen by all
 * of them, the non-transactional view, bad input. Every test ends with the structural invariants and
 * quiescence check ({@code checkQuiescent}).
 */
class TxSortedMapContractTest {
    private static final String KINDS = "io.jato.protocols.suite.AnySortedMap#protocolsAndKinds";
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(KINDS)
    void operationsReturnThePreviousStateAndCommitTogether(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        AnySortedMap<String> map = AnySortedMap.create(kind, stm);
        List<Object> r = stm.atomic(txn -> Arrays.asList(
                map.get(txn, 5), map.containsKey(txn, 5),
                map.put(txn, 5, "a"), map.put(txn, 5, "b"),
                map.putIfAbsent(txn, 5, "c"), map.putIfAbsent(txn, 7, "d"),
                map.remove(txn, 99), map.get(txn, 5), map.containsKey(txn, 7)));
        assertEquals(Arrays.asList(null, false, null, "a", "b", null, null, "b", true), r);
        assertEquals(Map.of(5L, "b", 7L, "d"), map.contents());

        r = stm.atomic(txn -> Arrays.asList(
                map.remove(txn, 5), map.get(txn, 5), map.containsKey(txn, 5), map.remove(txn, 5),
                map.putIfAbsent(txn, 5, "e"), map.get(txn, 5), map.put(txn, 7, "f")));
        assertEquals(Arrays.asList("b", null, false, null, null, "e", "d"), r);
        assertEquals(Map.of(5L, "e", 7L, "f"), map.contents());
        Quiescence.assertQuiescent(map);
    }

    /**
     * One transaction inserts, updates and deletes around a loaded range; every later point
     * operation, navigation and scan of the same transaction (both directions, with limits) sees
     * exactly the merged state; the commit publishes it.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(KINDS)
    void ownWritesAreSeenByPointOperationsNavigationAndScans(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        AnySortedMap<String> map = AnySortedMap.create(kind, stm, 4, 0);
        TreeMap<Long, String> model = new TreeMap<>();
        for (long k = 0; k < 100; k += 5) {
            map.singlePut(k, "v" + k);
            model.put(k, "v" + k);
        }
        stm.run(txn -> {
            TreeMap<Long, String> local = new TreeMap<>(model);
            for (long k = 1; k < 100; k += 7) {
                assertEquals(local.put(k, "new" + k), map.put(txn, k, "new" + k));
            }
            for (long k = 0; k < 100; k += 15) {
                assertEquals(local.remove(k), map.remove(txn, k));
            }
            assertEquals(local.put(10L, "upd"), map.put(txn, 10, "upd"));
            assertEquals("new8", map.remove(txn, 8));
            local.remove(8L);
            assertNull(map.put(txn, 8, "again"));
            local.put(8L, "again");
            for (long k = -3; k < 104; k++) {
                assertEquals(local.get(k), map.get(txn, k), "get " + k);
                assertEquals(local.floorKey(k), map.nav(txn, AnySortedMap.FLOOR, k), "floor " + k);
                assertEquals(local.lowerKey(k), map.nav(txn, AnySortedMap.LOWER, k), "lower " + k);
                assertEquals(local.ceilingKey(k), map.nav(txn, AnySortedMap.CEILING, k), "ceiling " + k);
                assertEquals(local.higherKey(k), map.nav(txn, AnySortedMap.HIGHER, k), "higher " + k);
            }
            assertEquals(local.firstKey(), map.nav(txn, AnySortedMap.FIRST, 0));
            assertEquals(local.lastKey(), map.nav(txn, AnySortedMap.LAST, 0));
            for (long from = -2; from < 100; from += 9) {
                for (long to = from; to < 104; to += 13) {
                    for (int flags = 0; flags < 16; flags++) {
                        assertScan(txn, map, local, from, to, flags);
                    }
                }
            }
            model.clear();
            model.putAll(local);
        });
        assertEquals(model, map.contents());
        Quiescence.assertQuiescent(map);
    }

    private static void assertScan(Txn txn, AnySortedMap<String> map, NavigableMap<Long, String> model,
                                   long from, long to, int flags) {
        boolean fi = (flags & 1) != 0;
        boolean ti = (flags & 2) != 0;
        boolean desc = (flags & 4) != 0;
        int limit = (flags & 8) != 0 ? 3 : Integer.MAX_VALUE;
        List<String> expected = new ArrayList<>();
        if (from < to || (fi && ti)) {
            NavigableMap<Long, String> sub = model.subMap(from, fi, to, ti);
            for (Map.Entry<Long, String> e : (desc ? sub.descendingMap() : sub).entrySet()) {
                if (expected.size() < limit) {
                    expected.add(e.getKey() + "=" + e.getValue());
                }
            }
        }
        List<String> actual = new ArrayList<>();
        map.scan(txn, from, fi, to, ti, limit, desc, (k, v) -> actual.add(k + "=" + v));
        assertEquals(expected, actual, () -> "scan " + (fi ? "[" : "(") + from + ", " + to + (ti ? "]" : ")")
                + (desc ? " descending" : "") + " limit " + limit + (txn == null ? " (single)" : ""));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(KINDS)
    void aScanStopsWhenTheVisitorSaysSo(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        AnySortedMap<String> map = AnySortedMap.create(kind, stm, 4, 0);
        for (long k = 0; k < 50; k++) {
            map.singlePut(k, "v");
        }
        List<Long> seen = stm.atomic(txn -> {
            List<Long> s = new ArrayList<>();
            map.scan(txn, 10, true, 40, true, Integer.MAX_VALUE, true, (k, v) -> s.add(k) && k > 33);
            return s;
        });
        assertEquals(List.of(40L, 39L, 38L, 37L, 36L, 35L, 34L, 33L), seen);
        assertEquals(List.of(), stm.atomic(txn -> {
            List<Long> s = new ArrayList<>();
            map.scan(txn, 10, true, 40, true, 0, false, (k, v) -> s.add(k));
            return s;
        }));
        Quiescence.assertQuiescent(map);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(KINDS)
    void theNonTransactionalViewAndTransactionsSeeEachOther(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        AnySortedMap<String> map = AnySortedMap.create(kind, stm, 4, 0);
        assertNull(map.singlePut(1, "a"));
        assertEquals("a", map.singlePut(1, "b"));
        assertNull(map.singlePut(2, "c"));
        assertEquals("b", stm.atomic(txn -> map.get(txn, 1)));
        assertEquals("c", stm.readOnly(txn -> map.get(txn, 2)));
        stm.run(txn -> {
            map.put(txn, 3, "d");
            map.remove(txn, 2);
        });
        assertEquals(Map.of(1L, "b", 3L, "d"), map.contents());
        assertEquals("b", map.singleRemove(1));
        assertNull(map.singleRemove(1));
        assertNull(stm.atomic(txn -> map.get(txn, 1)));

        // Many keys in one transaction: the leaf overflows at commit and is split right after.
        int n = 500;
        stm.run(txn -> {
            for (long k = 1000 + n; k > 1000; k--) {
                map.put(txn, k, "v" + k);
            }
        });
        assertEquals(n + 1, map.contents().size());
        Quiescence.assertQuiescent(map);
        for (long from = 990; from < 1600; from += 37) {
            assertScan(null, map, new TreeMap<>(map.contents()), from, from + 50, 3);
        }
        stm.run(txn -> {
            for (long k = 1001; k <= 1000 + n; k++) {
                assertEquals("v" + k, map.remove(txn, k));
            }
        });
        assertEquals(Map.of(3L, "d"), map.contents());
        Quiescence.assertQuiescent(map);
    }

    /**
     * Non-transactional and transactional inserts and removes of interleaved keys by four threads
     * all take effect, and the tree stays well-formed (its invariants are part of the quiescence
     * check).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(KINDS)
    void singleOperationsAndTransactionsMixWithoutLoss(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        AnySortedMap<Long> map = AnySortedMap.create(kind, stm, 4, 0);
        int perThread = Protocols.scaled(400);
        int threads = 4;
        Interleaving il = new Interleaving();
        for (int t = 0; t < threads; t++) {
            int me = t;
            boolean single = t % 2 == 0;
            il.thread((single ? "single-" : "txn-") + t, () -> {
                for (long k = me; k < (long) perThread * threads; k += threads) {
                    long key = k;
                    if (single) {
                        map.singlePut(key, key);
                    } else {
                        stm.run(txn -> map.put(txn, key, key));
                    }
                }
                for (long k = me; k < (long) perThread * threads; k += 3L * threads) {
                    long key = k;
                    Long removed = single ? map.singleRemove(key) : stm.atomic(txn -> map.remove(txn, key));
                    assertEquals(key, removed);
                }
            });
        }
        il.run();
        Map<Long, Long> expected = new TreeMap<>();
        for (long k = 0; k < (long) perThread * threads; k++) {
            if ((k / threads) % 3 != 0) {
                expected.put(k, k);
            }
        }
        assertEquals(expected, map.contents());
        Quiescence.assertQuiescent(map);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(KINDS)
    void badRangesAreRejectedAndChangeNothing(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        AnySortedMap<String> map = AnySortedMap.create(kind, stm);
        map.singlePut(1, "a");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> stm.run(txn -> map.scan(txn, 5, true, 4, true, 10, false, (k, v) -> true)));
        assertTrue(e.getMessage().contains("inverted range") && e.getMessage().contains("5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> map.scan(null, 5, true, 4, true, 10, false, (k, v) -> true));
        e = assertThrows(IllegalArgumentException.class,
                () -> stm.run(txn -> map.scan(txn, 1, true, 4, true, -1, false, (k, v) -> true)));
        assertTrue(e.getMessage().contains("limit"), e.getMessage());
        NullPointerException npe = assertThrows(NullPointerException.class, () -> stm.run(txn -> map.put(txn, 2, null)));
        assertTrue(npe.getMessage().contains("value"), npe.getMessage());
        npe = assertThrows(NullPointerException.class, () -> map.singlePut(2, null));
        assertTrue(npe.getMessage().contains("value"), npe.getMessage());
        npe = assertThrows(NullPointerException.class, () -> stm.run(txn -> map.scan(txn, 1, true, 2, true, 1, false, null)));
        assertTrue(npe.getMessage().contains("visitor"), npe.getMessage());
        // A write in a read-only transaction, and one that fails after others were buffered.
        assertThrows(IllegalStateException.class, () -> stm.readOnly(txn -> map.put(txn, 9, "x")));
        assertThrows(IllegalStateException.class, () -> stm.run(txn -> {
            map.put(txn, 10, "x");
            map.remove(txn, 1);
            throw new IllegalStateException("boom");
        }));
        assertEquals(Map.of(1L, "a"), map.contents());
        Quiescence.assertQuiescent(map);
    }

    /** Null keys, keys the ordering cannot compare, bad layout functions: clear exceptions, nothing changed. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    @SuppressWarnings({"unchecked", "rawtypes"})
    void badKeysOfTheGenericMapAreRejectedByName(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxSortedMap<String, String> map = new TxSortedMap<>(stm);
        map.single().put("k", "v");
        List<Executable> nullKey = List.of(
                () -> stm.run(txn -> map.get(txn, null)),
                () -> stm.run(txn -> map.containsKey(txn, null)),
                () -> stm.run(txn -> map.put(txn, null, "v")),
                () -> stm.run(txn -> map.putIfAbsent(txn, null, "v")),
                () -> stm.run(txn -> map.remove(txn, null)),
                () -> stm.run(txn -> map.floorKey(txn, null)),
                () -> stm.run(txn -> map.ceilingKey(txn, null)),
                () -> map.single().get(null),
                () -> map.single().put(null, "v"),
                () -> map.single().remove(null));
        for (Executable call : nullKey) {
            NullPointerException e = assertThrows(NullPointerException.class, call);
            assertTrue(e.getMessage().contains("key"), e.getMessage());
        }
        // Natural ordering: a key of another type is rejected naming both types, before any change.
        TxSortedMap raw = map;
        List<Executable> wrongType = List.of(
                () -> stm.run(txn -> raw.put(txn, 42, "v")),
                () -> stm.run(txn -> raw.get(txn, 42)),
                () -> stm.run(txn -> raw.scan(txn, 1, true, 2, true, 10, false, (k, v) -> true)),
                () -> stm.run(txn -> raw.scan(txn, "a", true, 2, true, 10, false, (k, v) -> true)),
                () -> raw.single().put(42, "v"));
        for (Executable call : wrongType) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
            assertTrue(e.getMessage().contains("java.lang.Integer") && e.getMessage().contains("java.lang.String"),
                    e.getMessage());
        }
        // An empty map has nothing to compare with: a key that is not Comparable is still refused.
        TxSortedMap<Object, String> empty = new TxSortedMap<>(stm);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> stm.run(txn -> empty.put(txn, new Object(), "v")));
        assertTrue(e.getMessage().contains("java.lang.Object"), e.getMessage());
        // A comparator that cannot take the key.
        TxSortedMap<String, String> byLength = new TxSortedMap<>(stm, Comparator.comparing(String::length));
        byLength.single().put("abc", "v");
        TxSortedMap rawByLength = byLength;
        e = assertThrows(IllegalArgumentException.class, () -> stm.run(txn -> rawByLength.put(txn, 7, "v")));
        assertTrue(e.getMessage().contains("comparator"), e.getMessage());
        // A layout function that does not return the first key of the prefix.
        TxSortedMap<String, String> badLayout = TxSortedMap.<String, String>builder(stm).prefixLayout(k -> k + "z").build();
        e = assertThrows(IllegalArgumentException.class, () -> stm.run(txn -> badLayout.put(txn, "a", "v")));
        assertTrue(e.getMessage().contains("first key"), e.getMessage());
        TxSortedMap<String, String> nullLayout = TxSortedMap.<String, String>builder(stm).prefixLayout(k -> null).build();
        assertThrows(IllegalArgumentException.class, () -> nullLayout.single().put("a", "v"));

        assertThrows(NullPointerException.class, () -> new TxSortedMap<String, String>(null));
        assertThrows(NullPointerException.class, () -> new TxSortedMap<String, String>(stm, null));
        assertThrows(IllegalArgumentException.class, () -> TxSortedMap.builder(stm).nodeCapacity(2));
        assertThrows(IllegalArgumentException.class, () -> TxLongSortedMap.builder(stm).prefixLayout(0));
        assertThrows(IllegalArgumentException.class, () -> TxLongSortedMap.builder(stm).prefixLayout(64));
        assertThrows(NullPointerException.class, () -> map.get(null, "k"));

        assertEquals("v", map.single().get("k"));
        assertEquals(1, map.single().size());
        assertEquals(1, byLength.single().size());
        assertEquals(0, empty.single().size());
        assertEquals(0, badLayout.single().size());
        Quiescence.assertQuiescent(map, empty, byLength, badLayout, nullLayout);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void theMapsBelongToTheirStore(String protocol) {
        Stm stm = Protocols.store(protocol);
        Stm other = Protocols.store(protocol, "other");
        TxSortedMap<String, String> map = new TxSortedMap<>(stm);
        TxLongSortedMap<String> longs = new TxLongSortedMap<>(stm);
        assertEquals(stm, map.stm());
        assertEquals(stm, longs.stm());
        assertThrows(IllegalStateException.class, () -> other.run(txn -> map.get(txn, "k")));
        assertThrows(IllegalStateException.class, () -> other.run(txn -> longs.put(txn, 1, "v")));
        assertThrows(IllegalStateException.class, () -> stm.run(txn -> longs.single().get(1)));
        assertFalse(map.single().containsKey("k"));
        Quiescence.assertQuiescent(map, longs);
    }
}
