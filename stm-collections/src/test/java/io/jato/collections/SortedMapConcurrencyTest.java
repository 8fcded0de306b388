package io.jato.collections;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The physical tree under concurrent change (default protocol): writers own disjoint key stripes
 * and insert and delete through transactions and single() operations, so each knows exactly what
 * its stripe must hold; scanners check that every scan is strictly ordered and within its bounds
 * while splits, leaf removals and inner-node splits run underneath. After the run: the structural
 * invariants, no lock left, and every key where its owner put it. Small nodes make structure
 * changes frequent. Scaled by {@code jato.stress.scale}.
 */
@Timeout(120)
class SortedMapConcurrencyTest {
    private static final int WRITERS = 3;
    private static final int KEYS_PER_WRITER = 300;

    private static long millis() {
        return 600L * Long.getLong("jato.stress.scale", 1L);
    }

    @Test
    void writersAndScannersKeepTheTreeConsistent() throws InterruptedException {
        for (int layoutBits : new int[] {0, 3}) {
            Stm stm = Stm.create();
            TxLongSortedMap.Builder<Long> b = TxLongSortedMap.<Long>builder(stm).nodeCapacity(4);
            if (layoutBits > 0) {
                b.prefixLayout(layoutBits);
            }
            TxLongSortedMap<Long> map = b.build();
            List<TreeMap<Long, Long>> models = new ArrayList<>();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong scans = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                TreeMap<Long, Long> model = new TreeMap<>();
                models.add(model);
                int me = w;
                threads.add(new Thread(() -> write(stm, map, me, model, stop, failures), "writer-" + w));
            }
            for (int s = 0; s < 2; s++) {
                long seed = s;
                threads.add(new Thread(() -> scan(stm, map, seed, stop, scans, failures), "scanner-" + s));
            }
            threads.forEach(Thread::start);
            Thread.sleep(millis());
            stop.set(true);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(60));
            }
            assertTrue(failures.isEmpty(), () -> "failures: " + failures);
            assertNull(map.checkQuiescent());
            TreeMap<Long, Long> expected = new TreeMap<>();
            models.forEach(expected::putAll);
            TreeMap<Long, Long> actual = new TreeMap<>();
            map.single().forEach((k, v) -> actual.put(k, v) == null);
            assertEquals(expected, actual);
            assertEquals(expected.size(), map.single().size());
            assertTrue(scans.get() > 0);
        }
    }

    private static void write(Stm stm, TxLongSortedMap<Long> map, int me, TreeMap<Long, Long> model,
                              AtomicBoolean stop, ConcurrentLinkedQueue<Throwable> failures) {
        SplittableRandom rnd = new SplittableRandom(me * 31L + 7);
        try {
            for (long n = 0; !stop.get(); n++) {
                long value = n;
                int op = rnd.nextInt(10);
                long[] keys = new long[1 + rnd.nextInt(4)];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = (long) rnd.nextInt(KEYS_PER_WRITER) * WRITERS + me;
                }
                // Phases of growth and shrinkage, so leaves split and empty out over and over.
                boolean grow = (n / 500) % 2 == 0;
                if (op < 3) {
                    long k = keys[0];
                    Long expected = grow ? model.put(k, value) : model.remove(k);
                    assertEquals(expected, grow ? map.single().put(k, value) : map.single().remove(k));
                } else {
                    List<Long> results = stm.atomic(txn -> {
                        List<Long> r = new ArrayList<>();
                        for (long k : keys) {
                            r.add(grow ? map.put(txn, k, value) : map.remove(txn, k));
                        }
                        return r;
                    });
                    for (int i = 0; i < keys.length; i++) {
                        Long expected = grow ? model.put(keys[i], value) : model.remove(keys[i]);
                        assertEquals(expected, results.get(i), "key " + keys[i]);
                    }
                }
            }
        } catch (Throwable t) {
            failures.add(t);
        }
    }

    private static void scan(Stm stm, TxLongSortedMap<Long> map, long seed, AtomicBoolean stop, AtomicLong scans,
                             ConcurrentLinkedQueue<Throwable> failures) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long space = (long) KEYS_PER_WRITER * WRITERS;
        try {
            while (!stop.get()) {
                long from = rnd.nextLong(space);
                long to = from + rnd.nextLong(space / 4);
                boolean desc = rnd.nextBoolean();
                int limit = rnd.nextBoolean() ? Integer.MAX_VALUE : 1 + rnd.nextInt(20);
                String bad = stm.readOnly(txn -> {
                    long[] last = {desc ? Long.MAX_VALUE : Long.MIN_VALUE};
                    int[] seen = {0};
                    String[] problem = {null};
                    map.scan(txn, from, true, to, true, limit, desc, (k, v) -> {
                        if (k < from || k > to || (desc ? k >= last[0] : k <= last[0])) {
                            problem[0] = "key " + k + " after " + last[0] + " in [" + from + ", " + to + "]"
                                    + (desc ? " descending" : "");
                        }
                        last[0] = k;
                        seen[0]++;
                        return true;
                    });
                    return problem[0] != null ? problem[0] : seen[0] > limit ? "more than the limit" : null;
                });
                assertNull(bad);
                scans.incrementAndGet();
            }
        } catch (Throwable t) {
            failures.add(t);
        }
    }

    /**
     * A queue: one thread appends ascending keys, another removes the oldest. Empty leaves at the
     * front are removed, so the tree stays as small as the queue instead of growing with history.
     */
    @Test
    void aQueueDoesNotLeaveEmptyLeavesBehind() throws InterruptedException {
        Stm stm = Stm.create();
        TxLongSortedMap<Long> map = TxLongSortedMap.<Long>builder(stm).nodeCapacity(8).build();
        int total = 20_000;
        int window = 100;
        AtomicLong head = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        Thread producer = new Thread(() -> {
            try {
                for (long k = 0; k < total; k++) {
                    while (k - head.get() > window) {
                        Thread.onSpinWait();
                    }
                    long key = k;
                    stm.run(txn -> map.put(txn, key, key));
                }
            } catch (Throwable t) {
                failures.add(t);
            }
        });
        Thread consumer = new Thread(() -> {
            try {
                while (head.get() < total) {
                    Long oldest = stm.atomic(txn -> {
                        long k = map.firstKey(txn, -1);
                        if (k >= 0) {
                            map.remove(txn, k);
                        }
                        return k;
                    });
                    if (oldest >= 0) {
                        assertEquals(head.get(), oldest);
                        head.incrementAndGet();
                    }
                }
            } catch (Throwable t) {
                failures.add(t);
            }
        });
        producer.start();
        consumer.start();
        producer.join(60_000);
        consumer.join(60_000);
        assertTrue(failures.isEmpty(), () -> "failures: " + failures);
        assertNull(map.checkQuiescent());
        assertEquals(0, map.single().size());
        assertTrue(map.leafCount() <= 2, "leaves left: " + map.leafCount());
    }
}
