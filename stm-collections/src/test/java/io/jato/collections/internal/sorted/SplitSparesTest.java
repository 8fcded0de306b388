package io.jato.collections.internal.sorted;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The spare inner nodes a split prepares: enough at every level it may need, topped up without
 * re-allocating the nodes a previous split left unused, and consistent after an allocation fails.
 */
class SplitSparesTest {

    @Test
    void prepareProvidesPartsNodesPerLevelUpToTwoAboveTheRoot() {
        SplitSpares s = new SplitSpares(true, 8, 0);
        s.prepare(1, 2);
        // Levels 1, 2 and 3, two nodes each.
        assertEquals(6, s.unused());
        for (int level = 1; level <= 3; level++) {
            Inner a = s.take(level);
            Inner b = s.take(level);
            assertEquals(level, a.level);
            assertEquals(level, b.level);
            assertNotSame(a, b);
        }
        assertEquals(0, s.unused());
        // Beyond what was prepared: still a node of the right level (allocated on demand).
        assertEquals(4, s.take(4).level);
        assertEquals(0, s.unused());
    }

    @Test
    void aSecondPrepareReplacesOnlyWhatWasTaken() {
        SplitSpares s = new SplitSpares(false, 8, 0);
        s.prepare(1, 1);
        Inner level1 = s.take(1);
        s.prepare(1, 1);
        assertEquals(3, s.unused());
        Inner again = s.take(1);
        assertNotSame(level1, again, "a node handed out must never be handed out again");
        // Only the taken node was replaced: levels 2 and 3 still hold one node each, not more.
        s.take(2);
        s.take(3);
        assertEquals(0, s.unused());
        s.prepare(1, 1);
        assertEquals(3, s.unused());
    }

    @Test
    void growsWithTheTreeAndThePartCount() {
        SplitSpares s = new SplitSpares(true, 8, 0);
        s.prepare(0, 1);
        assertEquals(2, s.unused());
        s.prepare(3, 3);
        assertEquals(15, s.unused());
        for (int level = 1; level <= 5; level++) {
            for (int i = 0; i < 3; i++) {
                assertEquals(level, s.take(level).level);
            }
        }
        assertEquals(0, s.unused());
    }

    @Test
    void anAllocationFailureLeavesTheSetUsable() {
        SplitSpares s = new SplitSpares(true, 8, 0);
        s.prepare(0, 1);
        // Fail on a huge request: nothing that was counted is lost, nothing uncounted is handed out.
        assertThrows(OutOfMemoryError.class, () -> s.prepare(0, Integer.MAX_VALUE - 16));
        int unused = s.unused();
        for (int i = 0; i < unused; i++) {
            s.take(1 + i % 2);
        }
        s.prepare(0, 1);
        assertEquals(2, s.unused());
    }
}
