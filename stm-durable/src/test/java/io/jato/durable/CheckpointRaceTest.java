package io.jato.durable;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints taken back to back while threads put and remove keys of a small key space (keys are
 * removed and inserted again across checkpoints) recover exactly the state in memory at close:
 * a remove lost in the checkpoint or the replay, or a segment deleted too early, would show.
 * (A wrong sequence number in a checkpoint entry mostly would not: every key is written many
 * times after each checkpoint, and only its last write decides.)
 */
class CheckpointRaceTest {
    private static final long KEYS = 200;

    @TempDir
    Path dir;

    @Test
    void checkpointsDuringPutsAndRemovesRecoverTheFinalState() throws Exception {
        Map<Long, Long> expected = new HashMap<>();
        int checkpoints = 0;
        try (DurableStore s = DurableStore.builder(dir, Stm.builder().build()).mode(DurabilityMode.ASYNC).epochMillis(1)
                .map("m", Codecs.longs(), Codecs.longs()).open()) {
            DurableMap<Long, Long> m = s.map("m");
            AtomicBoolean stop = new AtomicBoolean();
            Thread[] ts = new Thread[2];
            for (int t = 0; t < ts.length; t++) {
                ts[t] = new Thread(() -> {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    while (!stop.get()) {
                        long a = r.nextLong(KEYS);
                        long b = r.nextLong(KEYS);
                        long v = r.nextLong(1_000_000);
                        s.atomic(tx -> {
                            if (m.get(tx, a) == null) {
                                m.put(tx, a, v);
                            } else {
                                m.remove(tx, a);
                            }
                            m.put(tx, b, v + 1);
                            return null;
                        });
                    }
                });
                ts[t].start();
            }
            long end = System.nanoTime() + 1_200_000_000L;
            // At least three: a JVM's first checkpoint is slow (Chronicle Map generates and compiles classes).
            while (System.nanoTime() < end || checkpoints < 3) {
                s.checkpoint();
                checkpoints++;
            }
            Thread.sleep(300); // writes after the last checkpoint: recovery replays them over it
            stop.set(true);
            for (Thread t : ts) {
                t.join();
            }
            s.awaitDurable();
            for (long k = 0; k < KEYS; k++) {
                Long v = m.getNonTx(k);
                if (v != null) {
                    expected.put(k, v);
                }
            }
        }
        assertTrue(checkpoints >= 2, "checkpoints: " + checkpoints);
        try (DurableStore s = DurableStore.builder(dir, Stm.builder().build())
                .map("m", Codecs.longs(), Codecs.longs()).open()) {
            DurableMap<Long, Long> m = s.map("m");
            Map<Long, Long> recovered = new HashMap<>();
            for (long k = 0; k < KEYS; k++) {
                Long v = m.getNonTx(k);
                if (v != null) {
                    recovered.put(k, v);
                }
            }
            assertEquals(expected, recovered, s.recoveryReport().toString());
            assertTrue(s.recoveryReport().checkpoint() != null, s.recoveryReport().toString());
        }
    }
}
