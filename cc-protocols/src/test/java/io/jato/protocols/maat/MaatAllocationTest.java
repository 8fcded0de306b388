package io.jato.protocols.maat;

import io.jato.collections.TxLong;
import io.jato.stm.Stm;
import io.jato.stm.TxnRunnable;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Soft locks allocate nothing per read in steady state: an item's soft-lock word is made by its
 * first soft lock ever, and the per-transaction list of soft locks taken is reused. Counts the bytes
 * this thread allocates (HotSpot's exact per-thread counter), as {@code AllocationTest} does for
 * the core.
 */
class MaatAllocationTest {
    private static final int CELLS = 16;
    private static final int ROUNDS = 20_000;

    private final Stm stm = Stm.builder().protocol(MaatProtocol.NAME).build();
    private final TxLong[] cells = new TxLong[CELLS];
    private int next;

    /** Reads every cell (16 soft locks), writes one: read, soft lock, narrowing scan and commit paths. */
    private final TxnRunnable readSixteenWriteOne = txn -> {
        long sum = 0;
        for (TxLong c : cells) {
            sum += c.get(txn);
        }
        cells[next & (CELLS - 1)].set(txn, sum & 0xFF);
    };

    /**
     * HotSpot's {@code com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes}, called
     * reflectively: the test sources compile as the protocols module, which does not read
     * {@code jdk.management} (the tests run on the class path). The boxing of the result is
     * outside the measured loops.
     */
    private static long allocatedBytes() {
        try {
            Object bean = ManagementFactory.getThreadMXBean();
            Method m = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
            return (Long) m.invoke(bean);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("no per-thread allocation counter", e);
        }
    }

    private long bytesPerTransaction() {
        long before = allocatedBytes();
        for (int i = 0; i < ROUNDS; i++) {
            next = i;
            stm.run(readSixteenWriteOne);
        }
        return (allocatedBytes() - before) / ROUNDS;
    }

    @Test
    void readsWithSoftLocksAllocateNothingInSteadyState() {
        for (int i = 0; i < CELLS; i++) {
            cells[i] = new TxLong(stm, i);
        }
        bytesPerTransaction(); // warm-up: the items' soft-lock words, the context, the JIT
        long control = 0;
        long before = allocatedBytes();
        for (int i = 0; i < ROUNDS; i++) {
            control += new long[4].length; // the counter must see these 48 bytes each
        }
        long perControl = (allocatedBytes() - before) / ROUNDS;
        assertTrue(control > 0 && perControl >= 32, "the counter must see the arrays, saw " + perControl);
        assertEquals(0, bytesPerTransaction(), "bytes per transaction of 16 soft-locked reads and a write");
        for (TxLong c : cells) {
            assertNull(c.checkQuiescent());
        }
    }
}
