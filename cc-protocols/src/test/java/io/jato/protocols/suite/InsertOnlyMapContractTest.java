package io.jato.protocols.suite;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLong;
import io.jato.collections.TxLongHashMap;
import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Insert-only maps ({@link TxLongHashMap#insertOnly}, {@link TxHashMap#insertOnly}) under every
 * protocol: inserts and lookups behave as in any map, the operations that would replace or delete
 * a value are refused and change nothing, an absent key stays versioned, and under a commit-point
 * protocol a lookup of a present key takes no access-set entry.
 */
class InsertOnlyMapContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void insertsAndLookupsWorkAsInAnyMap(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLongHashMap<String> map = TxLongHashMap.insertOnly(stm, 16);
        assertTrue(map.isInsertOnly());
        assertFalse(new TxLongHashMap<String>(stm, 16).isInsertOnly());
        map.single().put(1, "one");

        List<Object> r = stm.atomic(txn -> Arrays.asList(
                map.get(txn, 1), map.containsKey(txn, 1), map.get(txn, 2), map.containsKey(txn, 2),
                map.put(txn, 2, "two"), map.get(txn, 2), map.putIfAbsent(txn, 2, "deux"),
                map.putIfAbsent(txn, 1, "un"), map.putIfAbsent(txn, 3, "three"), map.get(txn, 3)));
        assertEquals(Arrays.asList("one", true, null, false, null, "two", "two", "one", null, "three"), r);
        assertEquals(Map.of(1L, "one", 2L, "two", 3L, "three"), contents(map));

        assertEquals(List.of("one", "two", "three", 3), stm.atomic(txn ->
                List.of(map.get(txn, 1), map.get(txn, 2), map.get(txn, 3), map.size(txn))));
        assertEquals("one", map.single().get(1));
        Quiescence.assertQuiescent(map);

        TxHashMap<String, Integer> objects = TxHashMap.insertOnly(stm, 16);
        assertTrue(objects.isInsertOnly());
        objects.single().put("a", 1);
        assertEquals(Arrays.asList(1, null, null, 2, 1), stm.atomic(txn -> Arrays.asList(
                objects.get(txn, "a"), objects.get(txn, "b"), objects.put(txn, "b", 2),
                objects.get(txn, "b"), objects.putIfAbsent(txn, "a", 9))));
        assertEquals(2, objects.single().size());
        Quiescence.assertQuiescent(objects);
    }

    /**
     * Every operation that would replace or delete a committed value throws, inside a
     * transaction (which then rolls back: its own insert is not published) and outside, and the
     * map is as before.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void replacingOrDeletingIsRefusedAndChangesNothing(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLongHashMap<String> map = TxLongHashMap.insertOnly(stm, 16);
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
                () -> stm.run(txn -> map.remove(txn, 1)),
                () -> stm.run(txn -> map.remove(txn, 99)),
                () -> stm.run(txn -> map.update(txn, 1, v -> v + "!")),
                () -> stm.run(txn -> map.merge(txn, 99, "new", v -> v + "!")),
                () -> map.single().put(1, "uno"),
                () -> map.single().remove(1));
        for (Executable e : refused) {
            UnsupportedOperationException x = assertThrows(UnsupportedOperationException.class, e);
            assertTrue(x.getMessage().startsWith("insert-only map: "), x.getMessage());
        }
        assertEquals(Map.of(1L, "one"), contents(map));
        Quiescence.assertQuiescent(map);

        TxHashMap<String, String> objects = TxHashMap.insertOnly(stm, 16);
        objects.single().put("a", "x");
        assertThrows(UnsupportedOperationException.class, () -> stm.run(txn -> objects.put(txn, "a", "y")));
        assertThrows(UnsupportedOperationException.class, () -> stm.run(txn -> objects.remove(txn, "a")));
        assertThrows(UnsupportedOperationException.class, () -> stm.run(txn -> objects.update(txn, "a", v -> v)));
        assertThrows(UnsupportedOperationException.class, () -> stm.run(txn -> objects.merge(txn, "a", "z", v -> v)));
        assertThrows(UnsupportedOperationException.class, () -> objects.single().put("a", "y"));
        assertThrows(UnsupportedOperationException.class, () -> objects.single().remove("a"));
        assertEquals("x", objects.single().get("a"));
        assertEquals(1, objects.single().size());
        Quiescence.assertQuiescent(objects);
    }

    /**
     * Absence stays versioned: a transaction that found a key absent and then writes retries when
     * another commits an insert of that key in between, and its retry sees the key.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void anInsertAfterAnAbsentLookupMakesTheLookerRetry(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLongHashMap<String> map = TxLongHashMap.insertOnly(stm, 16);
        TxLongHashMap<String> log = TxLongHashMap.insertOnly(stm, 16);
        AtomicInteger attempts = new AtomicInteger();
        Interleaving il = new Interleaving();
        il.thread("looker", () -> stm.run(txn -> {
            String v = map.get(txn, 5);
            if (attempts.getAndIncrement() == 0) {
                il.signal("looked");
                il.await("inserted");
            }
            log.put(txn, 1, String.valueOf(v));
        }));
        il.thread("inserter", () -> {
            il.await("looked");
            stm.run(txn -> map.put(txn, 5, "five"));
            il.signal("inserted");
        });
        il.run();
        assertEquals("five", map.single().get(5));
        String logged = log.single().get(1);
        assertTrue("null".equals(logged) || "five".equals(logged), logged);
        if (il.followedSchedule() && "occ".equals(protocol)) {
            // A timestamp-ordered protocol may serialize the looker first; OCC's commit point is
            // after the insert, so the absence it saw must fail validation.
            assertEquals("five", logged, "the looker saw the key absent and committed after the insert");
            assertTrue(attempts.get() > 1, "attempts " + attempts.get());
        }
        Quiescence.assertQuiescent(map, log);
    }

    /**
     * The anomaly a lookup with no entry could let through, under every protocol and pairing. T1
     * reads x and waits; T2 writes x and inserts key 1, and commits; T1 then finds key 1. T1
     * read x before T2 and the key after it: it must not commit what it saw (under OCC its read
     * of x fails validation; under TicToc the key's wts lifts T1's commit timestamp above the
     * version of x it read; in a pairing the store's clock orders T1 after T2). Fails if a
     * protocol answers such a lookup without ordering the reader after the insert.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aReaderSeesAnInsertAndAWriteBesideItEntirelyOrNotAtAll(String protocol) {
        readerBesideAnInsert(protocol, true);
    }

    /**
     * The same with a reader that is not declared read-only: a tracked attempt (under MVCC one
     * that commits at the versions it read, since it writes nothing, and must count the key's).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aTrackedReaderSeesAnInsertAndAWriteBesideItEntirelyOrNotAtAll(String protocol) {
        readerBesideAnInsert(protocol, false);
    }

    private static void readerBesideAnInsert(String protocol, boolean declaredReadOnly) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        TxLongHashMap<String> keys = TxLongHashMap.insertOnly(stm, 16);
        ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
        Interleaving il = new Interleaving();
        TxnFunction<String> body = txn -> {
            long xv = x.get(txn);
            if (txn.attempt() == 0) {
                il.signal("T1 read x");
                il.await("T2 committed");
            }
            return keys.containsKey(txn, 1) + "," + xv;
        };
        il.thread("T1", () -> seen.add(declaredReadOnly ? stm.readOnly(body) : stm.atomic(body)));
        il.thread("T2", () -> {
            il.await("T1 read x");
            stm.run(txn -> {
                x.set(txn, x.get(txn) + 1);
                keys.put(txn, 1, "one");
            });
            il.signal("T2 committed");
        });
        il.run();
        String got = seen.peek();
        assertTrue("false,0".equals(got) || "true,1".equals(got),
                "T1 saw present,x = " + got + ": the key from after T2, x from before it");
        Quiescence.assertQuiescent(x, keys);
    }

    /**
     * The point of the mode: under a protocol whose transactions serialize at a commit point, and
     * under TicToc and MVCC (which only keep the commit timestamp at or above the key's wts), a lookup of a present
     * key adds nothing to the read set (so nothing to validate at commit), while a lookup in an
     * ordinary map, and of an absent key, does. Fails if the lookup takes the tracked path.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"occ", "global-lock", "tictoc", "tictoc-si", "tictoc-rr", "mvcc"})
    void aPresentKeyCostsNoReadEntryUnderOccGlobalLockTicTocAndMvcc(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLongHashMap<String> insertOnly = TxLongHashMap.insertOnly(stm, 16);
        TxLongHashMap<String> ordinary = new TxLongHashMap<>(stm, 16);
        insertOnly.single().put(1, "one");
        ordinary.single().put(1, "one");
        stm.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            int before = ctx.readCount();
            assertEquals("one", insertOnly.get(txn, 1));
            assertTrue(insertOnly.containsKey(txn, 1));
            assertEquals("one", insertOnly.putIfAbsent(txn, 1, "uno"));
            assertEquals(before, ctx.readCount(), "present keys of an insert-only map");
            assertEquals("one", ordinary.get(txn, 1));
            assertEquals(before + 1, ctx.readCount(), "a present key of an ordinary map");
            assertNull(insertOnly.get(txn, 2));
            assertEquals(before + 2, ctx.readCount(), "an absent key: its stripe");
        });
    }

    private static Map<Long, String> contents(TxLongHashMap<String> map) {
        Map<Long, String> m = new TreeMap<>();
        map.single().forEach(m::put);
        return m;
    }
}
