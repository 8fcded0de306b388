package io.jato.collections;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A transaction's put starts from the leaf of its own pending insert just below the key, when
 * that leaf still covers the key: the leaf may have been split by other commits since, and then
 * the put must descend as usual, whichever side of the split the key fell on.
 */
class SortedInsertHintTest {

    @Test
    void putsAfterOtherCommitsSplitTheHintedLeafLandWhereTheyBelong() throws Exception {
        Stm stm = Stm.create();
        TxLongSortedMap<String> m = TxLongSortedMap.<String>builder(stm).nodeCapacity(4).build();
        for (long k = 0; k < 40; k += 10) {
            m.single().put(k, "old" + k);
        }
        stm.run(t -> {
            m.put(t, 10, "mine10");
            if (t.attempt() == 0) {
                // Another thread's commits split the leaf of key 10 several times over.
                Thread other = new Thread(() -> {
                    for (long k = 11; k < 30; k++) {
                        long key = k;
                        stm.run(u -> m.put(u, key, "other" + key));
                    }
                });
                other.start();
                try {
                    other.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            // Each of these starts from the hinted leaf (key 10's, or the previous put's).
            m.put(t, 12, "mine12");
            m.put(t, 25, "mine25");
            m.put(t, 35, "mine35");
            m.put(t, 36, "mine36");
        });
        Map<Long, String> want = new TreeMap<>();
        for (long k = 0; k < 40; k += 10) {
            want.put(k, "old" + k);
        }
        for (long k = 11; k < 30; k++) {
            want.put(k, "other" + k);
        }
        want.put(10L, "mine10");
        want.put(12L, "mine12");
        want.put(25L, "mine25");
        want.put(35L, "mine35");
        want.put(36L, "mine36");
        Map<Long, String> got = new TreeMap<>();
        m.single().forEach((k, v) -> {
            got.put(k, v);
            return true;
        });
        assertEquals(want, got);
        assertNull(m.checkQuiescent());
    }
}
