package io.jato.protocols.suite;

import io.jato.collections.TxHashMap;
import io.jato.stm.Stm;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TxHashMap} semantics inside and across transactions, under every protocol. */
class TxHashMapContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void operationsReturnThePreviousStateAndCommitTogether(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, Integer> map = new TxHashMap<>(stm);

        List<Object> r = stm.atomic(txn -> Arrays.asList(
                map.get(txn, "a"), map.containsKey(txn, "a"),
                map.put(txn, "a", 1), map.put(txn, "a", 2),
                map.putIfAbsent(txn, "a", 3), map.putIfAbsent(txn, "b", 4),
                map.remove(txn, "zz"), map.get(txn, "a"), map.containsKey(txn, "b")));
        assertEquals(Arrays.asList(null, false, null, 1, 2, null, null, 2, true), r);
        assertEquals(Map.of("a", 2, "b", 4), contents(map));

        r = stm.atomic(txn -> Arrays.asList(
                map.remove(txn, "a"), map.get(txn, "a"), map.containsKey(txn, "a"), map.remove(txn, "a"),
                map.putIfAbsent(txn, "a", 5), map.get(txn, "a"), map.put(txn, "b", 6)));
        assertEquals(Arrays.asList(2, null, false, null, null, 5, 4), r);
        assertEquals(Map.of("a", 5, "b", 6), contents(map));
        Quiescence.assertQuiescent(map);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void readYourOwnInsertsUpdatesAndDeletes(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        map.single().put("present", "p0");
        stm.run(txn -> {
            assertNull(map.put(txn, "fresh", "f1"));
            assertEquals("f1", map.get(txn, "fresh"));
            assertEquals("f1", map.put(txn, "fresh", "f2"));
            assertEquals("f2", map.remove(txn, "fresh"));
            assertNull(map.get(txn, "fresh"));
            assertNull(map.putIfAbsent(txn, "fresh", "f3"));
            assertEquals("f3", map.get(txn, "fresh"));

            assertEquals("p0", map.remove(txn, "present"));
            assertFalse(map.containsKey(txn, "present"));
            assertNull(map.put(txn, "present", "p1"));
            assertEquals("p1", map.get(txn, "present"));
        });
        assertEquals(Map.of("fresh", "f3", "present", "p1"), contents(map));

        // Inserted and deleted by one transaction: nothing is published.
        stm.run(txn -> {
            map.put(txn, "ghost", "g");
            map.remove(txn, "ghost");
            assertNull(map.get(txn, "ghost"));
        });
        assertNull(map.single().get("ghost"));
        assertEquals(2, map.single().size());
        Quiescence.assertQuiescent(map);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void keysAreComparedWithEquals(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, Integer> map = new TxHashMap<>(stm);
        String k1 = new String("key");
        String k2 = new String("key");
        stm.run(txn -> map.put(txn, k1, 1));
        Integer viaEqualKey = stm.atomic(txn -> map.get(txn, k2));
        assertEquals(1, viaEqualKey);
        assertEquals(1, map.single().get(new String("key")));
        stm.run(txn -> map.remove(txn, k2));
        assertFalse(map.single().containsKey(k1));
        Quiescence.assertQuiescent(map);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void theNonTransactionalViewAndTransactionsSeeEachOther(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<Integer, String> map = new TxHashMap<>(stm, 16);
        assertNull(map.single().put(1, "a"));
        assertEquals("a", map.single().put(1, "b"));
        assertNull(map.single().put(2, "c"));
        assertEquals("b", stm.atomic(txn -> map.get(txn, 1)));
        assertEquals("c", stm.readOnly(txn -> map.get(txn, 2)));

        stm.run(txn -> {
            map.put(txn, 3, "d");
            map.remove(txn, 2);
        });
        assertEquals("d", map.single().get(3));
        assertTrue(map.single().containsKey(3));
        assertFalse(map.single().containsKey(2));
        assertEquals(2, map.single().size());
        assertEquals("b", map.single().remove(1));
        assertNull(map.single().remove(1));
        assertNull(stm.atomic(txn -> map.get(txn, 1)));
        assertEquals(Map.of(3, "d"), contents(map));

        // Many keys in one transaction, then read back one by one.
        int n = 500;
        stm.run(txn -> {
            for (int i = 100; i < 100 + n; i++) {
                map.put(txn, i, "v" + i);
            }
        });
        assertEquals(n + 1, map.single().size());
        for (int i = 100; i < 100 + n; i++) {
            assertEquals("v" + i, map.single().get(i));
        }
        Quiescence.assertQuiescent(map);
    }

    /**
     * Non-transactional puts and removes are atomic and linearizable with transactions: keys
     * inserted and removed concurrently through both paths (sharing absence stripes) all end as
     * expected.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void singleOperationsAndTransactionsMixWithoutLoss(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<Integer, Integer> map = new TxHashMap<>(stm, 64);
        int perThread = Protocols.scaled(1_000);
        Interleaving il = new Interleaving();
        for (int t = 0; t < 4; t++) {
            int base = t * perThread;
            boolean single = t % 2 == 0;
            il.thread((single ? "single-" : "txn-") + t, () -> {
                for (int k = base; k < base + perThread; k++) {
                    int key = k;
                    if (single) {
                        map.single().put(key, key);
                    } else {
                        stm.run(txn -> map.put(txn, key, key));
                    }
                }
                // Remove every third key again, through the same path.
                for (int k = base; k < base + perThread; k += 3) {
                    int key = k;
                    Integer removed = single ? map.single().remove(key) : stm.atomic(txn -> map.remove(txn, key));
                    assertEquals(key, removed);
                }
            });
        }
        il.run();
        for (int k = 0; k < 4 * perThread; k++) {
            int key = k;
            Integer expected = (k % perThread) % 3 == 0 ? null : key;
            assertEquals(expected, map.single().get(key), () -> "key " + key);
        }
        int[] present = {0};
        map.single().forEach((k, v) -> present[0]++);
        assertEquals(present[0], map.single().size());
        Quiescence.assertQuiescent(map);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void nullKeysAndValuesAreRejectedByName(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        map.single().put("k", "v");
        List<Executable> nullKey = new ArrayList<>(List.of(
                () -> stm.run(txn -> map.get(txn, null)),
                () -> stm.run(txn -> map.containsKey(txn, null)),
                () -> stm.run(txn -> map.put(txn, null, "v")),
                () -> stm.run(txn -> map.putIfAbsent(txn, null, "v")),
                () -> stm.run(txn -> map.remove(txn, null)),
                () -> map.single().get(null),
                () -> map.single().containsKey(null),
                () -> map.single().put(null, "v"),
                () -> map.single().remove(null)));
        for (Executable call : nullKey) {
            NullPointerException e = assertThrows(NullPointerException.class, call);
            assertTrue(e.getMessage().contains("key"), e.getMessage());
        }
        List<Executable> nullValue = List.of(
                () -> stm.run(txn -> map.put(txn, "k", null)),
                () -> stm.run(txn -> map.put(txn, "new", null)),
                () -> stm.run(txn -> map.putIfAbsent(txn, "new", null)),
                () -> map.single().put("k", null));
        for (Executable call : nullValue) {
            NullPointerException e = assertThrows(NullPointerException.class, call);
            assertTrue(e.getMessage().contains("value"), e.getMessage());
        }
        NullPointerException e = assertThrows(NullPointerException.class, () -> new TxHashMap<String, String>(null));
        assertTrue(e.getMessage().contains("stm"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> map.single().forEach(null));
        assertTrue(e.getMessage().contains("action"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> map.get(null, "k"));
        assertTrue(e.getMessage().contains("txn"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TxHashMap<String, String>(stm, -1));

        assertEquals(Map.of("k", "v"), contents(map));
        Quiescence.assertQuiescent(map);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void theMapBelongsToItsStore(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        assertEquals(stm, map.stm());
    }

    private static <K extends Comparable<K>, V> Map<K, V> contents(TxHashMap<K, V> map) {
        Map<K, V> m = new TreeMap<>();
        map.single().forEach(m::put);
        return m;
    }
}
