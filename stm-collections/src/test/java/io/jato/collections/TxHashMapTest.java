package io.jato.collections;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TxHashMapTest {
    private final Stm stm = Stm.create();
    private final TxHashMap<String, Integer> map = new TxHashMap<>(stm);

    @Test
    void mergeAndUpdateAfterARemoveInTheSameTransaction() {
        // merge used to insert without having observed the key's stripe and threw a
        // NullPointerException; update must see the key as absent.
        stm.run(t -> map.put(t, "m", 1));
        stm.run(t -> {
            assertEquals(1, map.remove(t, "m"));
            assertFalse(map.update(t, "m", v -> v + 100));
            map.merge(t, "m", 7, v -> v + 100);
            assertEquals(7, map.get(t, "m"));
            map.merge(t, "m", 0, v -> v + 1);
            assertEquals(8, map.get(t, "m"));
        });
        assertEquals(Integer.valueOf(8), stm.<Integer>atomic(t -> map.get(t, "m")));
        assertNull(map.checkQuiescent());
    }

    @Test
    void putGetRemoveWithinAndAcrossTransactions() {
        assertNull(stm.atomic(t -> map.put(t, "a", 1)));
        assertEquals(Integer.valueOf(1), stm.atomic(t -> map.get(t, "a")));
        stm.run(t -> {
            assertEquals(1, map.put(t, "a", 2));
            assertEquals(2, map.get(t, "a"));
            assertEquals(2, map.remove(t, "a"));
            assertNull(map.get(t, "a"));
            assertFalse(map.containsKey(t, "a"));
            assertNull(map.putIfAbsent(t, "a", 3));
            assertEquals(3, map.putIfAbsent(t, "a", 4));
            assertNull(map.put(t, "b", 5));
            assertEquals(5, map.get(t, "b"));
            assertNull(map.remove(t, "zz"));
        });
        assertEquals(3, map.single().get("a"));
        assertEquals(5, map.single().get("b"));
        assertEquals(2, map.single().size());
        stm.run(t -> {
            map.remove(t, "a");
            map.remove(t, "b");
        });
        assertEquals(0, map.single().size());
        assertNull(map.single().get("a"));
        assertNull(map.checkQuiescent());
    }

    @Test
    void insertThenRemoveInOneTransactionLeavesNothing() {
        stm.run(t -> {
            map.put(t, "x", 1);
            map.remove(t, "x");
        });
        assertNull(map.single().get("x"));
        assertEquals(0, map.single().size());
        assertNull(map.checkQuiescent());
    }

    @Test
    void nullsAreRejectedWithTheArgumentName() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> stm.run(t -> map.put(t, null, 1)));
        assertTrue(e.getMessage().contains("key"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> stm.run(t -> map.put(t, "k", null)));
        assertTrue(e.getMessage().contains("value"), e.getMessage());
        assertNull(map.single().get("k"));
    }

    @Test
    void manyKeysGrowTheAccessSetIndex() {
        stm.run(t -> {
            for (int i = 0; i < 1000; i++) {
                map.put(t, "k" + i, i);
            }
            for (int i = 0; i < 1000; i++) {
                assertEquals(i, map.get(t, "k" + i));
            }
        });
        assertEquals(1000, map.single().size());
        int sum = stm.atomic(t -> {
            int s = 0;
            for (int i = 0; i < 1000; i++) {
                s += map.get(t, "k" + i);
            }
            return s;
        });
        assertEquals(999 * 1000 / 2, sum);
        assertNull(map.checkQuiescent());
    }

    @Test
    void concurrentTransfersKeepTheSum() throws InterruptedException {
        TxHashMap<Integer, Long> acc = new TxHashMap<>(stm);
        for (int i = 0; i < 10; i++) {
            acc.single().put(i, 100L);
        }
        Thread[] ts = new Thread[2];
        for (int k = 0; k < ts.length; k++) {
            int seed = k;
            ts[k] = new Thread(() -> {
                java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
                for (int i = 0; i < 20000; i++) {
                    int a = r.nextInt(10);
                    int b = r.nextInt(10);
                    stm.run(t -> {
                        long x = acc.get(t, a);
                        long y = acc.get(t, b);
                        acc.put(t, a, x - 1);
                        acc.put(t, b, (a == b ? x - 1 : y) + 1);
                    });
                }
            });
            ts[k].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        long sum = stm.readOnly(t -> {
            long s = 0;
            for (int i = 0; i < 10; i++) {
                s += acc.get(t, i);
            }
            return s;
        });
        assertEquals(1000, sum);
        assertNull(acc.checkQuiescent());
        assertTrue(stm.statistics().commits() >= 40000);
    }
}
