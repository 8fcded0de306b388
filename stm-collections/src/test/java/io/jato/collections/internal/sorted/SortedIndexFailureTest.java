package io.jato.collections.internal.sorted;

import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxSortedMap;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An {@code OutOfMemoryError} where a sorted map's commit makes room in a leaf (its check phase,
 * {@link SortedIndex#reserveRoom}) aborts the commit cleanly: nothing of it is visible, nothing
 * stays locked, the statistics count it, and the thread and map work on.
 */
class SortedIndexFailureTest {

    @AfterEach
    void disarm() {
        SortedIndex.roomFault = null;
    }

    @Test
    void outOfMemoryWhileMakingRoomAbortsTheCommitCleanly() {
        Stm stm = Stm.create();
        TxLongSortedMap<Long> longMap = new TxLongSortedMap<>(stm);
        TxSortedMap<String, Long> map = new TxSortedMap<>(stm);
        stm.run(t -> {
            for (long k = 0; k < 10; k++) {
                longMap.put(t, k, k);
                map.put(t, key(k), k);
            }
        });
        OutOfMemoryError oom = new OutOfMemoryError("injected: leaf room");
        SortedIndex.roomFault = () -> {
            throw oom;
        };
        StmStatistics s0 = stm.statistics();
        // 200 inserts into one leaf of capacity 32: its arrays must grow before the installs.
        assertSame(oom, assertThrows(OutOfMemoryError.class, () -> stm.run(t -> {
            for (long k = 100; k < 300; k++) {
                longMap.put(t, k, k);
            }
            longMap.put(t, 0, -1L);
        })));
        assertSame(oom, assertThrows(OutOfMemoryError.class, () -> stm.run(t -> {
            for (long k = 100; k < 300; k++) {
                map.put(t, key(k), k);
            }
            map.put(t, key(0), -1L);
        })));
        disarm();
        StmStatistics d = stm.statistics().minus(s0);
        assertEquals(2, d.starts(), d.toString());
        assertEquals(0, d.commits(), d.toString());
        assertEquals(2, d.aborts(), d.toString());
        assertNull(longMap.checkQuiescent());
        assertNull(map.checkQuiescent());
        assertEquals(10, longMap.single().size());
        assertEquals(10, map.single().size());
        assertEquals(Long.valueOf(0), longMap.single().get(0));
        assertEquals(Long.valueOf(0), map.single().get(key(0)));
        // The same commit goes through once memory is back.
        stm.run(t -> {
            for (long k = 100; k < 300; k++) {
                longMap.put(t, k, k);
                map.put(t, key(k), k);
            }
        });
        assertEquals(210, longMap.single().size());
        assertEquals(210, map.single().size());
        assertNull(longMap.checkQuiescent());
        assertNull(map.checkQuiescent());
    }

    private static String key(long k) {
        return String.format("k%05d", k);
    }
}
