package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxSortedMap;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnFunction;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Insert-only sorted maps ({@link TxLongSortedMap.Builder#insertOnly()},
 * {@link TxSortedMap.Builder#insertOnly()}) under every protocol and pairing: inserts, lookups,
 * scans and navigation behave as in any sorted map (this transaction's own inserts included), the
 * operations that would replace or delete a value are refused and change nothing, scans stay
 * phantom-safe, and under the protocols that answer entry-free reads a present key, looked up or
 * scanned, takes no access-set entry.
 */
class InsertOnlySortedMapContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void insertsLookupsAndScansWorkAsInAnySortedMap(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLongSortedMap<String> map = TxLongSortedMap.<String>builder(stm).insertOnly().nodeCapacity(4).build();
        assertTrue(map.isInsertOnly());
        assertFalse(new TxLongSortedMap<String>(stm).isInsertOnly());
        for (long k = 10; k <= 100; k += 10) {
            map.single().put(k, "v" + k);
        }

        List<Object> r = stm.atomic(txn -> Arrays.asList(
                map.get(txn, 10), map.containsKey(txn, 20), map.get(txn, 15), map.containsKey(txn, 15),
                map.put(txn, 15, "v15"), map.get(txn, 15), map.putIfAbsent(txn, 15, "x"),
                map.putIfAbsent(txn, 30, "x"), map.putIfAbsent(txn, 35, "v35"),
                map.floorKey(txn, 16, -1), map.higherKey(txn, 30, -1), map.lastKey(txn, -1),
                scan(map, txn, 10, 40)));
        assertEquals(Arrays.asList("v10", true, null, false, null, "v15", "v15", "v30", null,
                15L, 35L, 100L, "10=v10 15=v15 20=v20 30=v30 35=v35 40=v40"), r);
        assertEquals("10=v10 15=v15 20=v20 30=v30 35=v35 40=v40 50=v50",
                stm.atomic(txn -> scan(map, txn, 10, 50)));
        assertEquals(12, contents(map).size());
        Quiescence.assertQuiescent(map);

        TxSortedMap<String, Integer> objects = TxSortedMap.<String, Integer>builder(stm).insertOnly().build();
        assertTrue(objects.isInsertOnly());
        objects.single().put("a", 1);
        objects.single().put("c", 3);
        assertEquals(Arrays.asList(1, null, null, 2, 1, "b"), stm.atomic(txn -> Arrays.asList(
                objects.get(txn, "a"), objects.get(txn, "b"), objects.put(txn, "b", 2),
                objects.get(txn, "b"), objects.putIfAbsent(txn, "a", 9), objects.higherKey(txn, "a"))));
        assertEquals(3, objects.single().size());
        Quiescence.assertQuiescent(objects);
    }

    /**
     * Every operation that would replace or delete a value throws, inside a transaction (which
     * then rolls back: its own insert is not published) and outside, and the map is as before.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void replacingOrDeletingIsRefusedAndChangesNothing(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLongSortedMap<String> map = TxLongSortedMap.<String>builder(stm).insertOnly().build();
        map.single().put(1, "one");
        List<Executable> refused = List.of(
                () -> stm.run(txn -> {
                    map.put(txn, 7, "seven");
                    map.put(txn, 1, "uno");
                }),
                () -> stm.run(txn -> {
                    map.put(txn, 7, "seven");
                    map.put(txn, 7, "sept");
                }),
                () -> stm.run(txn -> {
                    map.get(txn, 1);
                    map.put(txn, 1, "uno");
                }),
                () -> stm.run(txn -> map.remove(txn, 1)),
                () -> stm.run(txn -> map.remove(txn, 99)),
                () -> map.single().put(1, "uno"),
                () -> map.single().remove(1),
                () -> map.single().remove(99));
        for (Executable e : refused) {
            UnsupportedOperationException x = assertThrows(UnsupportedOperationException.class, e);
            assertTrue(x.getMessage().startsWith("insert-only map: "), x.getMessage());
        }
        assertEquals(Map.of(1L, "one"), contents(map));
        Quiescence.assertQuiescent(map);

        TxSortedMap<String, String> objects = TxSortedMap.<String, String>builder(stm).insertOnly().build();
        objects.single().put("a", "x");
        UnsupportedOperationException x = assertThrows(UnsupportedOperationException.class,
                () -> stm.run(txn -> objects.put(txn, "a", "y")));
        assertTrue(x.getMessage().contains("key a is present"), x.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> stm.run(txn -> objects.remove(txn, "a")));
        assertThrows(UnsupportedOperationException.class, () -> objects.single().put("a", "y"));
        assertThrows(UnsupportedOperationException.class, () -> objects.single().remove("a"));
        assertEquals("x", objects.single().get("a"));
        assertEquals(1, objects.single().size());
        Quiescence.assertQuiescent(objects);
    }

    /**
     * The anomalies entry-free reads could let through, under every protocol and pairing. T1 scans
     * a range, looks keys up and navigates to the last key, and reads x, in one order or the
     * other; T2, in between, increments x and inserts keys, one into that range. T1 must see T2
     * entirely or not at all: the scanned leaves' versions (OCC), the keys' and leaves' timestamps
     * (TicToc, MVCC) or the store's clock (pairings) must order it. Fails if the keys' reads are
     * answered without ordering the reader against the insert, or if a scan stops observing its
     * leaves (T1 would miss the inserted key and see T2's x).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aScannerSeesAnInsertAndAWriteBesideItEntirelyOrNotAtAll(String protocol) {
        for (boolean scanFirst : new boolean[] {false, true}) {
            scannerBesideAnInsert(protocol, true, scanFirst);
            scannerBesideAnInsert(protocol, false, scanFirst);
        }
    }

    private static void scannerBesideAnInsert(String protocol, boolean declaredReadOnly, boolean scanFirst) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        TxLongSortedMap<String> keys = TxLongSortedMap.<String>builder(stm).insertOnly().nodeCapacity(4).build();
        for (long k = 0; k < 40; k += 2) {
            keys.single().put(k, "v" + k);
        }
        ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
        Interleaving il = new Interleaving();
        TxnFunction<String> body = txn -> {
            // Scan first: the scan (and the navigation) before T2, the lookups and x after it.
            long xv = scanFirst ? 0 : x.get(txn);
            String range = scanFirst ? scan(keys, txn, 10, 20) : "";
            long last = scanFirst ? keys.lastKey(txn, -1) : 0;
            if (txn.attempt() == 0) {
                il.signal("T1 read x");
                il.await("T2 committed");
            }
            if (scanFirst) {
                xv = x.get(txn);
            } else {
                range = scan(keys, txn, 10, 20);
                last = keys.lastKey(txn, -1);
            }
            return range + "|" + keys.containsKey(txn, 15) + "|" + keys.get(txn, 12) + "|" + last + "|" + xv;
        };
        il.thread("T1", () -> seen.add(declaredReadOnly ? stm.readOnly(body) : stm.atomic(body)));
        il.thread("T2", () -> {
            il.await("T1 read x");
            stm.run(txn -> {
                x.set(txn, x.get(txn) + 1);
                keys.put(txn, 15, "v15");
                keys.put(txn, 99, "v99");
            });
            il.signal("T2 committed");
        });
        il.run();
        String got = seen.peek();
        String before = "10=v10 12=v12 14=v14 16=v16 18=v18 20=v20|false|v12|38|0";
        String after = "10=v10 12=v12 14=v14 15=v15 16=v16 18=v18 20=v20|true|v12|99|1";
        assertTrue(before.equals(got) || after.equals(got),
                "T1 (read-only " + declaredReadOnly + ", scan first " + scanFirst + ") saw " + got + ": part of T2 only");
        Quiescence.assertQuiescent(x, keys);
    }

    /**
     * The point of the mode: under the protocols that answer entry-free reads, a lookup or a scan
     * of present keys adds no entry per key (a scan still observes its leaf), while the same reads
     * of an ordinary map add one per key. Fails if the reads take the tracked path.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"occ", "global-lock", "tictoc", "tictoc-si", "tictoc-rr", "mvcc"})
    void presentKeysCostNoReadEntryUnderOccGlobalLockTicTocAndMvcc(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLongSortedMap<String> insertOnly = TxLongSortedMap.<String>builder(stm).insertOnly().build();
        TxLongSortedMap<String> ordinary = new TxLongSortedMap<>(stm);
        for (long k = 1; k <= 3; k++) {
            insertOnly.single().put(k, "v" + k);
            ordinary.single().put(k, "v" + k);
        }
        stm.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            int before = ctx.readCount();
            assertEquals("v1", insertOnly.get(txn, 1));
            assertTrue(insertOnly.containsKey(txn, 2));
            assertEquals("v3", insertOnly.putIfAbsent(txn, 3, "x"));
            assertEquals(before, ctx.readCount(), "point reads of present keys of an insert-only map");
            assertEquals("1=v1 2=v2 3=v3", scan(insertOnly, txn, 0, 10));
            assertEquals(before + 1, ctx.readCount(), "a scan of an insert-only map: its leaf only");
            assertEquals("v1", ordinary.get(txn, 1));
            assertEquals(before + 2, ctx.readCount(), "a present key of an ordinary map");
            assertEquals("1=v1 2=v2 3=v3", scan(ordinary, txn, 0, 10));
            assertEquals(before + 5, ctx.readCount(), "a scan of an ordinary map: its leaf and two more keys");
        });
    }

    private static String scan(TxLongSortedMap<String> map, Txn txn, long from, long to) {
        List<String> out = new ArrayList<>();
        map.scan(txn, from, to, (k, v) -> out.add(k + "=" + v));
        return String.join(" ", out);
    }

    private static Map<Long, String> contents(TxLongSortedMap<String> map) {
        Map<Long, String> m = new TreeMap<>();
        map.single().forEach((k, v) -> {
            m.put(k, v);
            return true;
        });
        return m;
    }
}
