package io.jato.protocols.adaptive;

import io.jato.stm.spi.LongItem;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adaptive lock's per-item state machine (docs/lock-family.md, "adaptive"): the score's weights,
 * its bounds, the two thresholds with hysteresis between them, and that no score update loses the
 * version and no version increment loses the score.
 */
class ModeSwitchTest {
    private final ModeSwitch modes = new ModeSwitch(16, 4);

    @Test
    void conflictsTurnAnItemPessimisticAtTheUpperThreshold() {
        long w = 0;
        for (int i = 1; i < 4; i++) {
            w = modes.afterConflict(w);
            assertEquals(4 * i, ModeWord.score(w));
            assertFalse(ModeWord.isPessimistic(w), "score " + ModeWord.score(w) + " is below 16");
        }
        w = modes.afterConflict(w);
        assertEquals(16, ModeWord.score(w));
        assertTrue(ModeWord.isPessimistic(w));
        assertNull(modes.check(w));
    }

    @Test
    void quietEventsTurnItBackOnlyAtTheLowerThreshold() {
        long w = 0;
        for (int i = 0; i < 4; i++) {
            w = modes.afterConflict(w);
        }
        // Hysteresis: between the thresholds the mode stays what it was.
        for (int score = 15; score > 4; score--) {
            w = modes.afterQuiet(w);
            assertEquals(score, ModeWord.score(w));
            assertTrue(ModeWord.isPessimistic(w), "still pessimistic at " + score);
        }
        w = modes.afterQuiet(w);
        assertEquals(4, ModeWord.score(w));
        assertFalse(ModeWord.isPessimistic(w));
        // And an optimistic item with a score between them stays optimistic.
        w = modes.afterConflict(modes.afterConflict(w));
        assertEquals(12, ModeWord.score(w));
        assertFalse(ModeWord.isPessimistic(w));
    }

    @Test
    void theScoreSaturatesAtBothEnds() {
        long w = 0;
        for (int i = 0; i < 40; i++) {
            w = modes.afterConflict(w);
        }
        assertEquals(ModeWord.MAX_SCORE, ModeWord.score(w));
        for (int i = 0; i < 100; i++) {
            w = modes.afterQuiet(w);
        }
        assertEquals(0, ModeWord.score(w));
        assertFalse(ModeWord.isPessimistic(w));
    }

    @Test
    void aWriteIncrementsTheVersionAndIsAQuietEvent() {
        long w = modes.afterConflict(modes.afterConflict(0));
        long v = ModeWord.version(w);
        w = modes.afterWrite(w);
        assertEquals(v + 1, ModeWord.version(w));
        assertEquals(7, ModeWord.score(w));
        // Score updates keep the version.
        assertEquals(v + 1, ModeWord.version(modes.afterConflict(w)));
        assertEquals(v + 1, ModeWord.version(modes.afterQuiet(w)));
    }

    @Test
    void theItemLevelUpdatesCountModeSwitches() {
        ModeSwitch flippy = new ModeSwitch(4, 3);
        LongItem item = new LongItem(0);
        flippy.record(item, ModeSwitch.CONFLICT);
        assertTrue(AdaptiveControl.isPessimistic(item));
        flippy.record(item, ModeSwitch.QUIET);
        assertFalse(AdaptiveControl.isPessimistic(item));
        flippy.record(item, ModeSwitch.WRITE);
        flippy.record(item, ModeSwitch.QUIET);
        assertEquals(2, flippy.switches(), "one switch each way");
        flippy.record(item, ModeSwitch.CHANGE);
        assertEquals(2, ModeWord.version(io.jato.stm.spi.Items.word2Acquire(item)));
    }

    @Test
    void thresholdsOutOfRangeAreRefusedWithTheOptionsName() {
        IllegalArgumentException low = assertThrows(IllegalArgumentException.class, () -> new ModeSwitch(8, 8));
        assertTrue(low.getMessage().contains(AdaptiveProtocol.OPTIMISTIC_AT), low.getMessage());
        IllegalArgumentException high = assertThrows(IllegalArgumentException.class, () -> new ModeSwitch(64, 4));
        assertTrue(high.getMessage().contains(AdaptiveProtocol.PESSIMISTIC_AT), high.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ModeSwitch(0, 0));
    }
}
