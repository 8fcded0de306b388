package io.jato.stm.internal;

import io.jato.stm.internal.occ.OccWord;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EpochTest {
    @Test
    void ticksOnlyAfterThePeriodAndAdvancesMonotonically() {
        Epoch e = new Epoch(1_000_000_000L);
        long start = e.current();
        e.tick(System.nanoTime());
        assertEquals(start, e.current());
        e.tick(System.nanoTime() + 2_000_000_000L);
        assertEquals(start + 1, e.current());
        assertEquals(start + 10, e.advanceTo(start + 10));
        assertEquals(start + 10, e.advanceTo(start + 3));
        assertThrows(IllegalArgumentException.class, () -> new Epoch(0));
    }

    @Test
    void occWordLayout() {
        long tid = OccWord.firstTidOf(5) + 17;
        long w = OccWord.wordOf(tid);
        assertEquals(tid, OccWord.tid(w));
        assertEquals(5, OccWord.epochOf(tid));
        assertFalse(OccWord.isLocked(w));
        assertTrue(OccWord.isLocked(w | OccWord.LOCKED));
        assertTrue(OccWord.isRetired(w | OccWord.RETIRED));
        assertEquals(tid, OccWord.tid(w | OccWord.LOCKED | OccWord.RETIRED));
        assertTrue(OccWord.describe(w | OccWord.LOCKED).contains("5.17 LOCKED"));
    }

    @Test
    void badTunablesAreRejectedWithThePropertyName() {
        System.setProperty("jato.test.bad", "x");
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Tunables.intProperty("jato.test.bad", 1, 0));
            assertTrue(e.getMessage().contains("jato.test.bad"));
            System.setProperty("jato.test.bad", "-5");
            assertThrows(IllegalArgumentException.class, () -> Tunables.intProperty("jato.test.bad", 1, 0));
        } finally {
            System.clearProperty("jato.test.bad");
        }
        assertEquals(7, Tunables.intProperty("jato.test.absent", 7, 0));
    }
}
