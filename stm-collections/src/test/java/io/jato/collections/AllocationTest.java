package io.jato.collections;

import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.TxnCallable;
import io.jato.stm.TxnLocal;
import io.jato.stm.TxnLongFunction;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Steady-state transactions allocate nothing: read, write and commit paths reuse the thread's
 * access set. Counts bytes allocated by this thread (HotSpot's per-thread counter), which is exact
 * and independent of timing; JMH's {@code -prof gc} gives the same figure per operation.
 */
class AllocationTest {
    private static final int KEYS = 64;
    private static final int ROUNDS = 20_000;

    private final Stm stm = Stm.create();
    private final TxHashMap<Long, Long> map = new TxHashMap<>(stm);
    private final TxCounter counter = new TxCounter(stm);
    private final TxLong cell = new TxLong(stm, 0);
    private final Long[] keys = new Long[KEYS];
    private int next;
    private volatile Object sink;

    // Sorted maps: 4-key nodes, so gets descend several levels and scans cross many leaves.
    private final TxLongSortedMap<Long> longSorted = TxLongSortedMap.<Long>builder(stm).nodeCapacity(4).build();
    private final TxSortedMap<Long, Long> sorted = TxSortedMap.<Long, Long>builder(stm).nodeCapacity(4).build();
    private final long[] visited = new long[1];
    private final TxLongSortedMap.Visitor<Long> sumLong = (k, v) -> {
        visited[0] += v;
        return true;
    };
    private final TxSortedMap.Visitor<Long, Long> sumBoxed = (k, v) -> {
        visited[0] += v;
        return true;
    };

    private final TxnFunction<Long> sortedGets = txn -> {
        long sum = 0;
        for (int i = 0; i < 10; i++) {
            int k = (next + i * 7) & (KEYS - 1);
            sum += longSorted.get(txn, k);
            sum += sorted.get(txn, keys[k]);
        }
        return null;
    };

    private final TxnFunction<Long> sortedScans = txn -> {
        long from = next & (KEYS - 1);
        longSorted.scan(txn, from, true, from + 20, true, Integer.MAX_VALUE, (next & 1) != 0, sumLong);
        sorted.scan(txn, keys[(int) from], true, null, true, 20, (next & 1) == 0, sumBoxed);
        longSorted.floorKey(txn, from, -1);
        sorted.ceilingKey(txn, keys[(int) from]);
        return null;
    };

    private final TxnFunction<Long> readTen = txn -> {
        long sum = 0;
        for (int i = 0; i < 10; i++) {
            sum += map.get(txn, keys[(next + i * 7) & (KEYS - 1)]);
        }
        return null;
    };

    private final TxnRunnable transfer = txn -> {
        Long a = keys[next & (KEYS - 1)];
        Long b = keys[(next + 1) & (KEYS - 1)];
        Long va = map.get(txn, a);
        Long vb = map.get(txn, b);
        // Swap the two (pre-boxed) values: a write that allocates nothing itself.
        map.put(txn, a, vb);
        map.put(txn, b, va);
        counter.add(txn, 1);
        cell.set(txn, cell.get(txn) + 1);
    };

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private long bytesPerTransaction(Runnable tx) {
        for (int i = 0; i < ROUNDS; i++) {
            next++;
            tx.run();
        }
        long before = allocatedBytes();
        for (int i = 0; i < ROUNDS; i++) {
            next++;
            tx.run();
        }
        return (allocatedBytes() - before) / ROUNDS;
    }

    @Test
    void readOnlyAndWritingTransactionsAllocateNothingInSteadyState() {
        for (int i = 0; i < KEYS; i++) {
            keys[i] = (long) i;
            map.single().put(keys[i], keys[i]);
        }
        long measurementOverhead = bytesPerTransaction(() -> { });
        long control = bytesPerTransaction(() -> sink = new long[4]);
        long readOnly = bytesPerTransaction(() -> stm.readOnly(readTen));
        long readWrite = bytesPerTransaction(() -> stm.atomic(readTen));
        long writes = bytesPerTransaction(() -> stm.run(transfer));
        assertEquals(0, measurementOverhead);
        assertTrue(control >= 32, "the counter must see a 48-byte array per iteration, saw " + control);
        assertEquals(0, readOnly, "bytes per read-only transaction of 10 map gets");
        assertEquals(0, readWrite, "bytes per read-write transaction of 10 map gets");
        assertEquals(0, writes, "bytes per transfer with counter add and cell write");
        assertTrue(stm.statistics().commits() >= 6L * ROUNDS);
    }

    @Test
    void sortedMapGetsAndScansAllocateNothingInSteadyState() {
        for (int i = 0; i < KEYS; i++) {
            keys[i] = (long) i;
            longSorted.single().put(i, keys[i]);
            sorted.single().put(keys[i], keys[i]);
        }
        long gets = bytesPerTransaction(() -> stm.readOnly(sortedGets));
        long getsAtomic = bytesPerTransaction(() -> stm.atomic(sortedGets));
        long scans = bytesPerTransaction(() -> stm.readOnly(sortedScans));
        assertEquals(0, gets, "bytes per read-only transaction of 20 sorted-map gets");
        assertEquals(0, getsAtomic, "bytes per read-write transaction of 20 sorted-map gets");
        assertEquals(0, scans, "bytes per transaction of 2 scans over about 40 entries and 2 navigations");
        assertTrue(visited[0] > 0);
    }

    private final TxnLocal<Object> local = TxnLocal.withInitial(() -> Boolean.TRUE);
    private final long[] hookRuns = new long[1];
    private final Runnable afterCommitHook = () -> hookRuns[0]++;
    private final java.util.function.Consumer<AbortCause> rollbackHook = cause -> hookRuns[0]--;
    private final TxnRunnable beforeCommitHook = txn -> local.set(txn, Boolean.FALSE);
    private final TxnRunnable withHooks = txn -> {
        txn.beforeCommit(beforeCommitHook);
        txn.afterCommit(afterCommitHook);
        txn.afterRollback(rollbackHook);
        local.get(txn);
        cell.add(txn, 1);
    };
    private final TxnLongFunction longResult = txn -> cell.get(txn) + counter.get(txn);
    private final TxnCallable<Long, java.io.IOException> checked = txn -> {
        if (cell.get(txn) < 0) {
            throw new java.io.IOException("never");
        }
        return null;
    };
    private final TxHashSet<Long> set = new TxHashSet<>(stm, 64);
    private final TxLongHashMap.EntryConsumer<Long> sumEntries = (k, v) -> visited[0] += v;
    private final TxLongHashMap<Long> longMap = new TxLongHashMap<>(stm, 64);
    private final TxnFunction<Long> iterate = txn -> {
        longMap.forEach(txn, sumEntries);
        visited[0] += set.size(txn);
        return null;
    };

    @Test
    void hooksLocalsPrimitiveFormsAndIterationAllocateNothingInSteadyState() throws Exception {
        for (int i = 0; i < KEYS; i++) {
            keys[i] = (long) i;
            longMap.single().put(i, keys[i]);
            set.single().add(keys[i]);
        }
        long hooks = bytesPerTransaction(() -> stm.run(withHooks));
        long primitive = bytesPerTransaction(() -> sink = stm.atomicLong(longResult) == -1 ? "" : null);
        long readOnlyVoid = bytesPerTransaction(() -> stm.runReadOnly(transferRead));
        long callable = bytesPerTransaction(() -> {
            try {
                stm.call(checked);
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        });
        long iteration = bytesPerTransaction(() -> stm.readOnly(iterate));
        assertEquals(0, hooks, "bytes per transaction registering three hooks and using a local");
        assertEquals(0, primitive, "bytes per atomicLong");
        assertEquals(0, readOnlyVoid, "bytes per runReadOnly");
        assertEquals(0, callable, "bytes per call");
        assertEquals(0, iteration, "bytes per iteration of a 64-key map and size of a 64-element set");
        assertEquals(2L * ROUNDS, hookRuns[0]);
    }

    private final TxnRunnable transferRead = txn -> cell.get(txn);

    private static final RuntimeException NESTED_FAILURE = new RuntimeException("nested", null, false, false) {
        private static final long serialVersionUID = 1L;
    };
    private final LongUpdater plusOne = v -> v + 1;
    private final TxnRunnable failingBlock = txn -> {
        cell.set(txn, 7);                                 // an older entry: saved in the undo trail
        counter.update(txn, plusOne);                      // pending updaters copied on first change
        map.put(txn, keys[next & (KEYS - 1)], keys[3]);
        local.set(txn, Boolean.FALSE);
        throw NESTED_FAILURE;
    };
    private final TxnFunction<Long> retryingAlternative = txn -> {
        cell.set(txn, 9);
        throw txn.retry();
    };
    private final TxnFunction<Long> secondAlternative = txn -> null;
    private final TxnRunnable withNestedRollbacks = txn -> {
        cell.set(txn, cell.get(txn) + 1);
        counter.update(txn, plusOne);
        local.set(txn, Boolean.TRUE);
        try {
            stm.run(failingBlock);
        } catch (RuntimeException expected) {
            sink = expected;
        }
        txn.orElse(retryingAlternative, secondAlternative);
    };

    @Test
    void nestedBlocksThatRollBackAllocateNothingInSteadyState() {
        for (int i = 0; i < KEYS; i++) {
            keys[i] = (long) i;
            map.single().put(keys[i], keys[i]);
        }
        long before = cell.single().get();
        long nested = bytesPerTransaction(() -> stm.run(withNestedRollbacks));
        assertEquals(0, nested, "bytes per transaction with a nested block and an orElse alternative rolled back");
        assertEquals(before + 2L * ROUNDS, cell.single().get(), "only the outer writes committed");
    }
}
