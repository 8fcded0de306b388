package io.jato.collections;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A commit that inserts into a full leaf makes room in its check phase (where an allocation that
 * fails still aborts cleanly), so its install links without allocating.
 */
class SortedLeafRoomTest {

    @Test
    void transactionalInsertsNeverGrowALeafWhileInstalling() {
        Stm stm = Stm.create();
        TxLongSortedMap<Long> m = new TxLongSortedMap<>(stm);
        // One transaction fills the first leaf far beyond its capacity (32): every slot array
        // growth has to happen at commit, before the installs.
        stm.run(t -> {
            for (long k = 0; k < 200; k++) {
                m.put(t, k, k);
            }
        });
        // Then many small transactions, each into a leaf that may be full until the split that
        // follows its commit.
        for (long k = 200; k < 2000; k++) {
            long key = k;
            stm.run(t -> m.put(t, key, key));
        }
        assertEquals(0, m.index.linkGrowths(), "an install grew a leaf");
        for (long k = 0; k < 2000; k++) {
            assertEquals(Long.valueOf(k), m.single().get(k));
        }
        assertEquals(null, m.checkQuiescent());
    }

    @Test
    void ascendingInsertsFitTheirLeafWithoutGrowingIt() {
        Stm stm = Stm.create();
        TxLongSortedMap<Long> m = new TxLongSortedMap<>(stm);
        // Appends of 1 to 15 keys per commit (a new order's lines): the leaf at the end takes them
        // in the room it was given beyond its capacity, and the split that follows packs it.
        long next = 0;
        for (int i = 0; i < 1000; i++) {
            long from = next;
            long to = from + 1 + i % 15;
            stm.run(t -> {
                for (long k = from; k < to; k++) {
                    m.put(t, k, k);
                }
            });
            next = to;
        }
        assertEquals(0, m.index.roomGrowths(), "a commit grew the last leaf's arrays");
        assertEquals(0, m.index.linkGrowths());
        for (long k = 0; k < next; k++) {
            assertEquals(Long.valueOf(k), m.single().get(k));
        }
        assertEquals(null, m.checkQuiescent());
    }

    @Test
    void splitsReuseTheSpareInnerNodesTheyDidNotNeed() {
        Stm stm = Stm.create();
        TxLongSortedMap<Long> m = TxLongSortedMap.<Long>builder(stm).nodeCapacity(4).build();
        // Thousands of splits in a tree of capacity 4 (several levels): each one prepares spare
        // inner nodes, and almost all of them stay unused.
        for (long k = 0; k < 5000; k++) {
            long key = (k * 7919) % 5000;
            stm.run(t -> m.put(t, key, key));
        }
        assertTrue(m.index.keptSpares() > 0, "the last split's unused spares are kept for the next");
        for (long k = 0; k < 5000; k++) {
            assertEquals(Long.valueOf(k), m.single().get(k));
        }
        long[] seen = new long[1];
        m.single().forEach((k, v) -> {
            assertEquals(seen[0]++, k);
            return true;
        });
        assertEquals(5000, seen[0]);
        assertEquals(null, m.checkQuiescent());
    }
}
