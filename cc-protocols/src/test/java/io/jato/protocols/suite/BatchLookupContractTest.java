package io.jato.protocols.suite;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLong;
import io.jato.collections.TxLongHashMap;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Batch lookups ({@link TxLongHashMap#getAll}, {@link TxHashMap#getAll}) under every protocol and
 * pairing: a batch returns what successive {@code get}s return in the same transaction (this
 * transaction's inserts, replacements and removals included, in ordinary and insert-only maps),
 * bad arguments are refused before anything is read, and readers that look their keys up in
 * batches see consistent states while writers move values between the keys.
 */
class BatchLookupContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aBatchReturnsWhatSuccessiveGetsReturn(String protocol) {
        Stm stm = Protocols.store(protocol);
        for (boolean insertOnly : new boolean[] {false, true}) {
            TxLongHashMap<String> longs = insertOnly ? TxLongHashMap.insertOnly(stm, 16) : new TxLongHashMap<>(stm, 16);
            TxHashMap<String, String> objects = insertOnly ? TxHashMap.insertOnly(stm, 16) : new TxHashMap<>(stm, 16);
            for (long k = 0; k < 10; k += 2) {
                longs.single().put(k, "v" + k);
                objects.single().put("k" + k, "v" + k);
            }
            long[] keys = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 4, 11};
            String[] names = new String[keys.length];
            for (int i = 0; i < keys.length; i++) {
                names[i] = "k" + keys[i];
            }
            List<String> got = stm.atomic(txn -> {
                // This transaction's own inserts, and in an ordinary map a replacement and a removal.
                longs.put(txn, 11, "mine11");
                objects.put(txn, "k11", "mine11");
                if (!insertOnly) {
                    longs.put(txn, 4, "mine4");
                    longs.remove(txn, 6);
                    objects.put(txn, "k4", "mine4");
                    objects.remove(txn, "k6");
                }
                String[] batch = new String[keys.length + 1];
                String[] objectBatch = new String[keys.length];
                longs.getAll(txn, keys, keys.length, batch);
                objects.getAll(txn, names, names.length, objectBatch);
                List<String> out = new ArrayList<>();
                for (int i = 0; i < keys.length; i++) {
                    String one = longs.get(txn, keys[i]);
                    assertEquals(one, batch[i], "key " + keys[i]);
                    assertEquals(objects.get(txn, names[i]), objectBatch[i], "key " + names[i]);
                    out.add(one);
                }
                assertNull(batch[keys.length], "only count entries are written");
                return out;
            });
            List<String> want = insertOnly
                    ? Arrays.asList("v0", null, "v2", null, "v4", null, "v6", null, "v8", null, null, "mine11", "v4", "mine11")
                    : Arrays.asList("v0", null, "v2", null, "mine4", null, null, null, "v8", null, null, "mine11", "mine4",
                    "mine11");
            assertEquals(want, got, "insert-only " + insertOnly);
            Quiescence.assertQuiescent(longs, objects);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void badArgumentsAreRefusedBeforeAnythingIsRead(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLongHashMap<String> longs = new TxLongHashMap<>(stm, 16);
        TxHashMap<String, String> objects = new TxHashMap<>(stm, 16);
        longs.single().put(1, "one");
        String[] into = new String[2];
        assertThrows(IndexOutOfBoundsException.class, () -> stm.run(txn -> longs.getAll(txn, new long[] {1}, 2, into)));
        assertThrows(IndexOutOfBoundsException.class, () -> stm.run(txn -> longs.getAll(txn, new long[] {1, 2, 3}, 3, into)));
        assertThrows(IndexOutOfBoundsException.class, () -> stm.run(txn -> longs.getAll(txn, new long[] {1}, -1, into)));
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> stm.run(txn -> objects.getAll(txn, new String[] {"a", null}, 2, into)));
        assertTrue(npe.getMessage().contains("keys[1]"), npe.getMessage());
        assertEquals(Arrays.asList(null, null), Arrays.asList(into));
        // Outside a transaction: refused like get.
        assertThrows(RuntimeException.class, () -> longs.getAll(null, new long[] {1}, 1, into));
        assertNull(into[0]);
        Quiescence.assertQuiescent(longs, objects);
    }

    /**
     * Writers move amounts between keys (replacing values in an ordinary map; changing the
     * {@link TxLong} cells an insert-only map holds) while readers look every key up in one batch
     * and sum: every committed sum is the total. Fails if a batch's reads are not the reads of the
     * transaction (a node read without its dependency, a stale value kept across attempts).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    @Timeout(60)
    void batchReadersSeeConsistentTotalsWhileWritersMoveAmounts(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        int n = 12;
        long total = 100L * n;
        TxLongHashMap<Long> plain = new TxLongHashMap<>(stm, n);
        TxLongHashMap<TxLong> cells = TxLongHashMap.insertOnly(stm, n);
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i * 7919L;
            plain.single().put(keys[i], 100L);
            cells.single().put(keys[i], new TxLong(stm, 100));
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] writers = new Thread[2];
        for (int w = 0; w < writers.length; w++) {
            long seed = w;
            writers[w] = new Thread(() -> {
                SplittableRandom r = new SplittableRandom(seed);
                try {
                    for (int i = 0; i < 300; i++) {
                        long from = keys[r.nextInt(n)];
                        long to = keys[r.nextInt(n)];
                        long amount = r.nextInt(1, 10);
                        stm.run(txn -> {
                            plain.put(txn, from, plain.get(txn, from) - amount);
                            plain.put(txn, to, plain.get(txn, to) + amount);
                            cells.get(txn, from).add(txn, -amount);
                            cells.get(txn, to).add(txn, amount);
                        });
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            writers[w].start();
        }
        Long[] values = new Long[n];
        TxLong[] found = new TxLong[n];
        try {
            for (int i = 0; i < 150 && failure.get() == null; i++) {
                boolean declared = i % 2 == 0;
                long[] sums = declared
                        ? stm.readOnly(txn -> sums(txn, plain, cells, keys, values, found))
                        : stm.atomic(txn -> sums(txn, plain, cells, keys, values, found));
                assertEquals(total, sums[0], "plain map, read-only " + declared);
                assertEquals(total, sums[1], "insert-only map of cells, read-only " + declared);
            }
        } finally {
            for (Thread t : writers) {
                t.join();
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("a writer failed", failure.get());
        }
        assertEquals(List.of(total, total), stm.atomic(txn -> {
            long[] s = sums(txn, plain, cells, keys, values, found);
            return List.of(s[0], s[1]);
        }));
        Quiescence.assertQuiescent(plain, cells);
    }

    private static long[] sums(Txn txn, TxLongHashMap<Long> plain, TxLongHashMap<TxLong> cells, long[] keys,
                               Long[] values, TxLong[] found) {
        plain.getAll(txn, keys, keys.length, values);
        cells.getAll(txn, keys, keys.length, found);
        long a = 0;
        long b = 0;
        for (int i = 0; i < keys.length; i++) {
            a += values[i];
            b += found[i].get(txn);
        }
        return new long[] {a, b};
    }
}
