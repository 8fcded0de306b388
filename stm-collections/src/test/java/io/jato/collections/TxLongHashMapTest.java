package io.jato.collections;

import io.jato.collections.internal.hash.LongNodeIndex;
import io.jato.stm.Stm;
import io.jato.stm.TxnAbortedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TxLongHashMapTest {
    private final Stm stm = Stm.create();
    private final TxLongHashMap<String> map = new TxLongHashMap<>(stm);

    /** A TPC-C-like packed key: warehouse in the high bits, district, then a sequence number. */
    private static long packed(long w, long d, long n) {
        return w << 48 | d << 40 | n;
    }

    @Test
    void putGetRemoveWithinAndAcrossTransactions() {
        assertNull(stm.atomic(t -> map.put(t, 1, "a")));
        assertEquals("a", stm.atomic(t -> map.get(t, 1)));
        stm.run(t -> {
            assertEquals("a", map.put(t, 1, "b"));
            assertEquals("b", map.get(t, 1));
            assertTrue(map.containsKey(t, 1));
            assertEquals("b", map.remove(t, 1));
            assertNull(map.get(t, 1));
            assertFalse(map.containsKey(t, 1));
            assertNull(map.putIfAbsent(t, 1, "c"));
            assertEquals("c", map.putIfAbsent(t, 1, "d"));
            assertNull(map.put(t, -7, "neg"));
            assertEquals("neg", map.get(t, -7));
            assertNull(map.remove(t, 12345));
        });
        assertEquals("c", map.single().get(1));
        assertEquals("neg", map.single().get(-7));
        assertEquals(2, map.single().size());
        stm.run(t -> {
            map.remove(t, 1);
            map.remove(t, -7);
        });
        assertEquals(0, map.single().size());
        assertNull(map.single().get(1));
        assertNull(map.checkQuiescent());
    }

    @Test
    void deleteThenReinsertAcrossAndWithinTransactions() {
        map.single().put(5, "v1");
        stm.run(t -> assertEquals("v1", map.remove(t, 5)));
        assertNull(map.single().get(5));
        stm.run(t -> assertNull(map.put(t, 5, "v2")));
        assertEquals("v2", map.single().get(5));
        stm.run(t -> {
            assertEquals("v2", map.remove(t, 5));
            assertNull(map.put(t, 5, "v3"));
            assertEquals("v3", map.get(t, 5));
        });
        assertEquals("v3", map.single().get(5));
        assertEquals(1, map.single().size());
        stm.run(t -> {
            map.put(t, 6, "x");
            map.remove(t, 6);
        });
        assertNull(map.single().get(6));
        assertEquals(1, map.single().size());
        assertNull(map.checkQuiescent());
    }

    @Test
    void updateAndMergeApplyAtCommitAndToOwnWrites() {
        map.single().put(1, "x");
        ValueUpdater<String> appendY = s -> s + "y";
        stm.run(t -> {
            assertTrue(map.update(t, 1, appendY));
            assertFalse(map.update(t, 2, appendY));
            map.merge(t, 3, "new", appendY);
            map.merge(t, 1, "unused", appendY);
        });
        assertEquals("xyy", map.single().get(1));
        assertEquals("new", map.single().get(3));
        assertNull(map.single().get(2));
        String read = stm.atomic(t -> {
            map.update(t, 1, appendY);
            String v = map.get(t, 1);
            map.update(t, 1, s -> s + "z");
            return v + "/" + map.get(t, 1);
        });
        assertEquals("xyyy/xyyyz", read);
        stm.run(t -> {
            map.put(t, 4, "p");
            map.update(t, 4, appendY);
            map.merge(t, 4, "unused", appendY);
            map.remove(t, 3);
            assertFalse(map.update(t, 3, appendY));
        });
        assertEquals("pyy", map.single().get(4));
        assertNull(map.single().get(3));
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> stm.run(t -> map.update(t, 1, s -> null)));
        assertTrue(e.getMessage().contains("returned null for key 1"), e.getMessage());
        assertEquals("xyyyz", map.single().get(1));
        assertNull(map.checkQuiescent());
    }

    @Test
    void badInputIsRejectedWithTheArgumentName() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> stm.run(t -> map.put(t, 1, null)));
        assertTrue(e.getMessage().contains("value"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> stm.run(t -> map.putIfAbsent(t, 1, null)));
        assertTrue(e.getMessage().contains("value"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> stm.run(t -> map.merge(t, 1, null, s -> s)));
        assertTrue(e.getMessage().contains("value"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> stm.run(t -> map.update(t, 1, null)));
        assertTrue(e.getMessage().contains("updater"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> map.single().put(1, null));
        assertTrue(e.getMessage().contains("value"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> new TxLongHashMap<String>(null));
        assertTrue(e.getMessage().contains("stm"), e.getMessage());
        IllegalArgumentException iae = assertThrows(IllegalArgumentException.class, () -> new TxLongHashMap<String>(stm, -1));
        assertTrue(iae.getMessage().contains("expectedSize"), iae.getMessage());
        assertThrows(IllegalStateException.class, () -> stm.run(t -> map.single().get(1)));
        assertNull(map.single().get(1));
        assertNull(map.checkQuiescent());
    }

    @Test
    void singleViewLoadsAndInspects() {
        TxLongHashMap.Single<String> s = map.single();
        for (long i = 0; i < 100; i++) {
            assertNull(s.put(packed(i % 3, i % 10, i), "v" + i));
        }
        assertEquals("v7", s.put(packed(1, 7, 7), "w7"));
        assertEquals(100, s.size());
        assertTrue(s.containsKey(packed(2, 2, 2)));
        assertFalse(s.containsKey(packed(2, 2, 3)));
        assertEquals("v2", s.remove(packed(2, 2, 2)));
        assertNull(s.remove(packed(2, 2, 2)));
        Map<Long, String> seen = new HashMap<>();
        s.forEach((k, v) -> assertNull(seen.put(k, v)));
        assertEquals(99, seen.size());
        assertEquals("w7", seen.get(packed(1, 7, 7)));
        assertEquals("w7", stm.atomic(t -> map.get(t, packed(1, 7, 7))));
        assertNull(map.checkQuiescent());
    }

    @Test
    void manyKeysInOneTransactionAndManyResizes() {
        TxLongHashMap<Long> m = new TxLongHashMap<>(stm, 0);
        stm.run(t -> {
            for (long i = 0; i < 5000; i++) {
                m.put(t, packed(i & 7, i & 15, i), i);
            }
            for (long i = 0; i < 5000; i++) {
                assertEquals(i, m.get(t, packed(i & 7, i & 15, i)));
            }
        });
        assertEquals(5000, m.single().size());
        long sum = stm.atomic(t -> {
            long s = 0;
            for (long i = 0; i < 5000; i++) {
                s += m.get(t, packed(i & 7, i & 15, i));
            }
            return s;
        });
        assertEquals(4999L * 5000 / 2, sum);
        assertNull(m.checkQuiescent());
    }

    @Test
    void linkingNeverResizesSoACommitNeverAllocatesInIt() {
        // A commit links its inserts with its locks held: a resize there could fail (out of
        // memory) where nothing can be undone, and copies a table under the commit's locks.
        LongNodeIndex index = new LongNodeIndex(0);
        int cap = index.capacity();
        for (long k = 0; k < 1000; k++) {
            assertNull(index.putIfAbsent(new LongNodeIndex.Node(k, 0)));
        }
        assertEquals(cap, index.capacity(), "putIfAbsent resized");
        for (long k = 0; k < 1000; k++) {
            assertEquals(k, index.get(k).key);
        }
        index.reserve(1);
        assertTrue(index.capacity() >= 1000, "reserve grows to the load factor: " + index.capacity());
        // Through the map: the table is grown while the inserting transaction runs, before commit.
        Stm stm = Stm.create();
        TxLongHashMap<Long> m = new TxLongHashMap<>(stm);
        for (long k = 0; k < 2000; k++) {
            long key = k;
            stm.run(t -> m.put(t, key, key));
        }
        for (long k = 0; k < 2000; k++) {
            assertEquals(k, m.single().get(k));
        }
    }

    @Test
    void theIndexSpreadsPackedKeysAndGrows() {
        LongNodeIndex index = new LongNodeIndex(0);
        assertEquals(16, index.capacity());
        List<LongNodeIndex.Node> nodes = new ArrayList<>();
        for (long w = 0; w < 16; w++) {
            for (long d = 0; d < 10; d++) {
                for (long o = 0; o < 30; o++) {
                    LongNodeIndex.Node n = new LongNodeIndex.Node(packed(w, d, o), 0);
                    index.reserve(1);   // growth happens here, never inside putIfAbsent
                    assertNull(index.putIfAbsent(n));
                    nodes.add(n);
                }
            }
        }
        assertEquals(4800, index.size());
        assertTrue(index.resizeCount() >= 8, "resizes: " + index.resizeCount());
        for (LongNodeIndex.Node n : nodes) {
            assertSame(n, index.get(n.key));
            assertSame(n, index.putIfAbsent(new LongNodeIndex.Node(n.key, 0)));
        }
        // Spread: no bucket far above the mean (a weak hash on packed keys piles up per warehouse).
        int[] buckets = new int[index.capacity()];
        for (LongNodeIndex.Node n : nodes) {
            buckets[LongNodeIndex.indexFor(LongNodeIndex.hash(n.key), buckets.length)]++;
        }
        int max = 0;
        for (int b : buckets) {
            max = Math.max(max, b);
        }
        assertTrue(max <= 12, "longest chain " + max);
        // Sequential keys, the other common shape: Fibonacci hashing spaces them evenly.
        int[] seq = new int[1 << 18];
        for (long k = 0; k < 100_000; k++) {
            seq[LongNodeIndex.indexFor(LongNodeIndex.hash(k), seq.length)]++;
        }
        long probes = 0;
        for (int b : seq) {
            probes += (long) b * (b + 1) / 2;
        }
        assertTrue(probes <= 110_000, "nodes visited by 100000 hits: " + probes);
        for (int i = 0; i < nodes.size(); i += 2) {
            assertTrue(index.remove(nodes.get(i)));
            assertFalse(index.remove(nodes.get(i)));
        }
        for (int i = 0; i < nodes.size(); i++) {
            LongNodeIndex.Node n = nodes.get(i);
            assertSame(i % 2 == 0 ? null : n, index.get(n.key));
        }
        assertEquals(2400, index.size());
    }

    /**
     * Readers look up keys known to be present while writers insert (and churn) thousands of keys,
     * forcing a dozen resizes: a present key must never be reported absent. The non-transactional
     * get and the raw index lookup are checked too, since their answer is not re-validated.
     */
    @Test
    @Timeout(120)
    void readersNeverMissAPresentKeyWhileTheTableResizes() throws InterruptedException {
        for (int round = 0; round < 3; round++) {
            TxLongHashMap<Long> m = new TxLongHashMap<>(stm, 0);
            int preloaded = 64;
            int inserts = 40_000;
            long[] keys = new long[preloaded + inserts];
            SplittableRandom keyRandom = new SplittableRandom(round);
            for (int i = 0; i < keys.length; i++) {
                keys[i] = packed(keyRandom.nextInt(100), keyRandom.nextInt(10), i);
            }
            for (int i = 0; i < preloaded; i++) {
                m.single().put(keys[i], (long) i);
            }
            LongNodeIndex rawIndex = new LongNodeIndex(0);
            LongNodeIndex.Node[] rawNodes = new LongNodeIndex.Node[keys.length];
            for (int i = 0; i < keys.length; i++) {
                rawNodes[i] = new LongNodeIndex.Node(keys[i], 0);
            }
            for (int i = 0; i < preloaded; i++) {
                rawIndex.putIfAbsent(rawNodes[i]);
            }
            // Keys [0, committed) are present in both the map and the raw index.
            java.util.concurrent.atomic.AtomicInteger committed = new java.util.concurrent.atomic.AtomicInteger(preloaded);
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<String> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            long[] checks = new long[3];
            for (int r = 0; r < 3; r++) {
                int reader = r;
                threads.add(new Thread(() -> {
                    SplittableRandom rnd = new SplittableRandom(100 + reader);
                    long n = 0;
                    while (!done.get() && failure.get() == null) {
                        int bound = committed.get();
                        int i = rnd.nextInt(bound);
                        long k = keys[i];
                        if (rawIndex.get(k) != rawNodes[i]) {
                            failure.set("raw index lost key #" + i);
                        }
                        Long v = (n & 1) == 0 ? m.single().get(k) : stm.readOnly(t -> m.get(t, k));
                        if (v == null || v != i) {
                            failure.set("map reported key #" + i + " as " + v);
                        }
                        n++;
                    }
                    checks[reader] = n;
                }));
            }
            // Churn: inserts and deletes in a disjoint key range, so unlinks race the resizes too.
            threads.add(new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(7);
                while (!done.get() && failure.get() == null) {
                    long k = -1 - rnd.nextInt(256);
                    stm.run(t -> {
                        if (m.remove(t, k) == null) {
                            m.put(t, k, k);
                        }
                    });
                }
            }));
            for (Thread t : threads) {
                t.start();
            }
            for (int i = preloaded; i < keys.length && failure.get() == null; i += 8) {
                int from = i;
                int to = Math.min(keys.length, i + 8);
                stm.run(t -> {
                    for (int j = from; j < to; j++) {
                        m.put(t, keys[j], (long) j);
                    }
                });
                rawIndex.reserve(to - from);
                for (int j = from; j < to; j++) {
                    rawIndex.putIfAbsent(rawNodes[j]);
                }
                committed.set(to);
            }
            done.set(true);
            for (Thread t : threads) {
                t.join();
            }
            assertNull(failure.get());
            assertTrue(rawIndex.resizeCount() >= 10, "raw resizes: " + rawIndex.resizeCount());
            for (long c : checks) {
                assertTrue(c > 1000, "reader made only " + c + " checks");
            }
            for (int i = 0; i < keys.length; i++) {
                assertEquals((long) i, m.single().get(keys[i]));
            }
            assertNull(m.checkQuiescent());
        }
    }

    /** Random transactions against a {@link HashMap} model, including aborted ones. */
    @Test
    void behavesLikeAHashMapUnderRandomOperations() {
        TxLongHashMap<Integer> m = new TxLongHashMap<>(stm, 4);
        Map<Long, Integer> model = new HashMap<>();
        SplittableRandom rnd = new SplittableRandom(42);
        ValueUpdater<Integer> inc = v -> v + 1;
        for (int tx = 0; tx < 3000; tx++) {
            int ops = 1 + rnd.nextInt(8);
            boolean abort = rnd.nextInt(10) == 0;
            long[] ks = new long[ops];
            int[] kinds = new int[ops];
            int[] vals = new int[ops];
            for (int i = 0; i < ops; i++) {
                // A small key space with high bits set: collisions, deletes and reinserts.
                ks[i] = packed(rnd.nextInt(4), 0, rnd.nextInt(40)) ^ (rnd.nextBoolean() ? Long.MIN_VALUE : 0);
                kinds[i] = rnd.nextInt(8);
                vals[i] = rnd.nextInt(1000);
            }
            Map<Long, Integer> expected = new HashMap<>(model);
            List<Object> expectedResults = new ArrayList<>();
            for (int i = 0; i < ops; i++) {
                expectedResults.add(apply(expected, kinds[i], ks[i], vals[i]));
            }
            try {
                List<Object> results = stm.atomic(t -> {
                    List<Object> out = new ArrayList<>();
                    for (int i = 0; i < ops; i++) {
                        out.add(applyTx(m, t, kinds[i], ks[i], vals[i], inc));
                    }
                    if (abort) {
                        throw t.abort();
                    }
                    return out;
                });
                assertFalse(abort);
                assertEquals(expectedResults, results, "transaction " + tx);
                model = expected;
            } catch (TxnAbortedException e) {
                assertTrue(abort);
            }
            if (tx % 100 == 0 || tx == 2999) {
                Map<Long, Integer> contents = new HashMap<>();
                m.single().forEach(contents::put);
                assertEquals(model, contents, "after transaction " + tx);
                assertEquals(model.size(), m.single().size());
            }
        }
        assertNull(m.checkQuiescent());
    }

    private static Object apply(Map<Long, Integer> model, int kind, long k, int v) {
        switch (kind) {
            case 0:
                return model.get(k);
            case 1:
                return model.containsKey(k);
            case 2:
                return model.put(k, v);
            case 3:
                return model.putIfAbsent(k, v);
            case 4:
            case 5:
                return model.remove(k);
            case 6:
                return model.computeIfPresent(k, (x, old) -> old + 1) != null;
            default:
                model.merge(k, v, (old, ignored) -> old + 1);
                return null;
        }
    }

    private static Object applyTx(TxLongHashMap<Integer> m, io.jato.stm.Txn t, int kind, long k, int v,
                                  ValueUpdater<Integer> inc) {
        switch (kind) {
            case 0:
                return m.get(t, k);
            case 1:
                return m.containsKey(t, k);
            case 2:
                return m.put(t, k, v);
            case 3:
                return m.putIfAbsent(t, k, v);
            case 4:
            case 5:
                return m.remove(t, k);
            case 6:
                return m.update(t, k, inc);
            default:
                m.merge(t, k, v, inc);
                return null;
        }
    }
}
