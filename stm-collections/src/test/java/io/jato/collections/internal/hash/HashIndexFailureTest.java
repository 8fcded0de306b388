package io.jato.collections.internal.hash;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongHashMap;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hash maps' commits neither allocate in their index nor run a key's methods, and a failed
 * allocation where the index does allocate (reserve, before the commit) changes nothing.
 * TxHashMap over a ConcurrentHashMap failed the first two: its install called putIfAbsent and
 * remove(key, node), which hash and compare the key and allocate an entry (or a whole table).
 */
class HashIndexFailureTest {

    @AfterEach
    void disarm() {
        ChainedIndex.resizeFault = null;
    }

    /** A key whose hashCode and equals throw once armed, and count their calls. */
    static final class TrapKey {
        final int id;
        volatile boolean armed;
        final AtomicInteger calls = new AtomicInteger();

        TrapKey(int id) {
            this.id = id;
        }

        private void called() {
            calls.incrementAndGet();
            if (armed) {
                throw new IllegalStateException("key " + id + ": a key method ran inside the commit");
            }
        }

        @Override
        public int hashCode() {
            called();
            return id;
        }

        @Override
        public boolean equals(Object o) {
            called();
            return o instanceof TrapKey && ((TrapKey) o).id == id;
        }

        @Override
        public String toString() {
            return "TrapKey" + id;
        }
    }

    @Test
    void aCommitRunsNoMethodOfTheKeysItInsertsOrDeletes() {
        Stm stm = Stm.create();
        TxHashMap<TrapKey, String> map = new TxHashMap<>(stm);
        TrapKey[] keys = new TrapKey[40];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = new TrapKey(i);
        }
        // Inserts: the keys are armed at the end of the body, so only the commit can trip them.
        stm.run(t -> {
            for (TrapKey k : keys) {
                assertNull(map.put(t, k, "v" + k.id));
            }
            for (TrapKey k : keys) {
                k.armed = true;
            }
        });
        disarm(keys);
        for (TrapKey k : keys) {
            assertEquals("v" + k.id, map.single().get(k));
        }
        // Overwrites and deletes.
        stm.run(t -> {
            for (int i = 0; i < keys.length; i++) {
                if (i % 2 == 0) {
                    map.put(t, keys[i], "w" + i);
                } else {
                    map.remove(t, keys[i]);
                }
            }
            for (TrapKey k : keys) {
                k.armed = true;
            }
        });
        disarm(keys);
        for (int i = 0; i < keys.length; i++) {
            assertEquals(i % 2 == 0 ? "w" + i : null, map.single().get(keys[i]));
        }
        assertEquals(keys.length / 2, map.single().size());
        assertNull(map.checkQuiescent());
    }

    @Test
    void aCommitNeverResizesTheIndex() {
        Stm stm = Stm.create();
        TxHashMap<Integer, Integer> map = new TxHashMap<>(stm, 0);
        TxLongHashMap<Integer> longMap = new TxLongHashMap<>(stm, 0);
        // One transaction inserts far more keys than the initial table holds; every resize must
        // happen in its body (reserve), none in its commit, where the fault is armed.
        stm.run(t -> {
            for (int i = 0; i < 500; i++) {
                map.put(t, i, i);
                longMap.put(t, i, i);
            }
            ChainedIndex.resizeFault = () -> {
                throw new AssertionError("the index resized inside a commit");
            };
        });
        disarm();
        for (int i = 0; i < 500; i++) {
            assertEquals(i, map.single().get(i));
            assertEquals(i, longMap.single().get(i));
        }
        assertNull(map.checkQuiescent());
        assertNull(longMap.checkQuiescent());
    }

    @Test
    void outOfMemoryWhileReservingChangesNothing() {
        Stm stm = Stm.create();
        TxHashMap<Integer, Integer> map = new TxHashMap<>(stm, 0);
        TxLongHashMap<Integer> longMap = new TxLongHashMap<>(stm, 0);
        for (int i = 0; i < 12; i++) {
            int k = i;
            stm.run(t -> {
                map.put(t, k, k);
                longMap.put(t, k, k);
            });
        }
        long before = capacityOf(map, longMap);
        OutOfMemoryError oom = new OutOfMemoryError("injected: resize");
        ChainedIndex.resizeFault = () -> {
            throw oom;
        };
        StmStatistics s0 = stm.statistics();
        // Transactional: the insert that needs room fails in the body; nothing commits.
        assertSame(oom, assertThrows(OutOfMemoryError.class, () -> stm.run(t -> {
            for (int i = 100; i < 200; i++) {
                map.put(t, i, i);
            }
        })));
        assertSame(oom, assertThrows(OutOfMemoryError.class, () -> stm.run(t -> {
            for (int i = 100; i < 200; i++) {
                longMap.put(t, i, i);
            }
        })));
        // Non-transactional: the insert fails before it locks its stripe.
        assertSame(oom, assertThrows(OutOfMemoryError.class, () -> {
            for (int i = 100; i < 200; i++) {
                map.single().put(i, i);
            }
        }));
        assertSame(oom, assertThrows(OutOfMemoryError.class, () -> {
            for (int i = 100; i < 200; i++) {
                longMap.single().put(i, i);
            }
        }));
        disarm();
        StmStatistics d = stm.statistics().minus(s0);
        assertEquals(d.starts(), d.commits() + d.aborts(), d.toString());
        assertEquals(0, d.commits(), d.toString());
        assertEquals(before, capacityOf(map, longMap), "a failed resize changed the tables");
        assertNull(map.checkQuiescent());
        assertNull(longMap.checkQuiescent());
        int mapKeys = map.single().size();
        int longKeys = longMap.single().size();
        for (int i = 0; i < 12; i++) {
            assertEquals(i, map.single().get(i));
            assertEquals(i, longMap.single().get(i));
        }
        // Non-transactional inserts that fit before the threshold may have landed; none failed half-way.
        for (int i = 100; i < 200; i++) {
            Integer v = map.single().get(i);
            assertTrue(v == null || v == i);
        }
        assertEquals(mapKeys, 12 + countFound(map.single()::get), "size agrees with the keys found");
        assertEquals(longKeys, 12 + countFound(longMap.single()::get));
        // The thread and the maps work on.
        stm.run(t -> {
            for (int i = 300; i < 400; i++) {
                map.put(t, i, i);
                longMap.put(t, i, i);
            }
        });
        for (int i = 300; i < 400; i++) {
            assertEquals(i, map.single().get(i));
            assertEquals(i, longMap.single().get(i));
        }
        assertFalse(capacityOf(map, longMap) == before, "the tables grew once memory was back");
        assertNull(map.checkQuiescent());
        assertNull(longMap.checkQuiescent());
    }

    /** @return how many of the keys 100..199 {@code get} finds */
    private static int countFound(java.util.function.IntFunction<Object> get) {
        int n = 0;
        for (int i = 100; i < 200; i++) {
            n += get.apply(i) != null ? 1 : 0;
        }
        return n;
    }

    /** Both maps' table lengths, packed into one number. */
    private static long capacityOf(TxHashMap<?, ?> map, TxLongHashMap<?> longMap) {
        return (long) indexOf(map).capacity() << 32 | indexOf(longMap).capacity();
    }

    /** The map's index (a private field: this test is in the same module, so it may look). */
    static ChainedIndex indexOf(Object map) {
        for (java.lang.reflect.Field f : map.getClass().getDeclaredFields()) {
            if (ChainedIndex.class.isAssignableFrom(f.getType())) {
                try {
                    f.setAccessible(true);
                    return (ChainedIndex) f.get(map);
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        throw new AssertionError("no index field in " + map.getClass());
    }

    private static void disarm(TrapKey[] keys) {
        for (TrapKey k : keys) {
            k.armed = false;
        }
    }
}
