package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TxLongHashMap}'s steady-state hot paths allocate nothing: lookups, overwrites and
 * commit-time updates of keys already present, in read-only and read-write transactions. Measured
 * like {@link AllocationTest}, with HotSpot's per-thread allocation counter.
 */
class TxLongHashMapAllocationTest {
    private static final int KEYS = 64;
    private static final int ROUNDS = 20_000;

    private final Stm stm = Stm.create();
    private final TxLongHashMap<Long> map = new TxLongHashMap<>(stm, 0);
    /** Pre-boxed values, so writes allocate nothing themselves. */
    private final Long[] values = new Long[KEYS];
    private final long[] keys = new long[KEYS];
    private int next;
    private long sum;
    private volatile Object sink;
    private static final ValueUpdater<Long> SAME = v -> v;

    private final TxnFunction<Long> readTen = txn -> {
        long s = 0;
        for (int i = 0; i < 10; i++) {
            long k = keys[(next + i * 7) & (KEYS - 1)];
            s += map.get(txn, k);
            if (!map.containsKey(txn, k)) {
                s--;
            }
        }
        sum = s;
        return null;
    };

    private final TxnRunnable writes = txn -> {
        long a = keys[next & (KEYS - 1)];
        long b = keys[(next + 1) & (KEYS - 1)];
        Long va = map.get(txn, a);
        Long vb = map.get(txn, b);
        map.put(txn, a, vb);
        map.put(txn, b, va);
        map.putIfAbsent(txn, a, va);
        map.update(txn, keys[(next + 5) & (KEYS - 1)], SAME);
        map.merge(txn, keys[(next + 9) & (KEYS - 1)], va, SAME);
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
    void getsWritesAndUpdatesOfPresentKeysAllocateNothing() {
        for (int i = 0; i < KEYS; i++) {
            // Packed keys; an index of 16 slots grows while loading.
            keys[i] = (long) (i % 4) << 48 | (long) i << 20 | i;
            values[i] = (long) i;
            map.single().put(keys[i], values[i]);
        }
        long measurementOverhead = bytesPerTransaction(() -> { });
        long control = bytesPerTransaction(() -> sink = new long[4]);
        long readOnly = bytesPerTransaction(() -> stm.readOnly(readTen));
        long readWrite = bytesPerTransaction(() -> stm.atomic(readTen));
        long writing = bytesPerTransaction(() -> stm.run(writes));
        long single = bytesPerTransaction(() -> sum += map.single().get(keys[next & (KEYS - 1)]));
        assertEquals(0, measurementOverhead);
        assertTrue(control >= 32, "the counter must see a 48-byte array per iteration, saw " + control);
        assertEquals(0, readOnly, "bytes per read-only transaction of 10 gets and 10 containsKey");
        assertEquals(0, readWrite, "bytes per read-write transaction of 10 gets and 10 containsKey");
        assertEquals(0, writing, "bytes per transaction of 2 gets, 3 puts, an update and a merge");
        assertEquals(0, single, "bytes per non-transactional get");
        long total = 0;
        for (int i = 0; i < KEYS; i++) {
            total += map.single().get(keys[i]);
        }
        assertEquals((long) KEYS * (KEYS - 1) / 2, total, "the swaps keep the multiset of values");
        assertTrue(stm.statistics().commits() >= 6L * ROUNDS);
    }
}
