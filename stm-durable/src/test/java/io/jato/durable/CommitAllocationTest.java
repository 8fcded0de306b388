package io.jato.durable;

import io.jato.collections.TxHashMap;
import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Logging a commit allocates nothing in steady state: the same updates of existing keys (values
 * boxed beforehand) allocate no more per transaction through a durable map than through a plain
 * {@code TxHashMap}. Reads HotSpot's per-thread allocation counter.
 */
class CommitAllocationTest {
    private static final int KEYS = 64;
    private static final int TXNS = 20_000;

    @TempDir
    Path dir;

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static long perTxn(Runnable one) {
        for (int i = 0; i < 3 * TXNS; i++) {
            one.run();
        }
        long before = allocated();
        for (int i = 0; i < TXNS; i++) {
            one.run();
        }
        return (allocated() - before) / TXNS;
    }

    @Test
    void aLoggedCommitAllocatesNoMoreThanAnUnloggedOne() {
        Long[] keys = new Long[KEYS];
        Long[] values = new Long[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = (long) i + 1000;
            values[i] = (long) i + 5000;
        }
        int[] k = {0};
        Stm plainStm = Stm.builder().build();
        TxHashMap<Long, Long> plain = new TxHashMap<>(plainStm);
        for (Long key : keys) {
            plain.single().put(key, 0L);
        }
        TxnFunction<Object> plainBody = tx -> {
            int i = k[0]++ & (KEYS - 1);
            plain.put(tx, keys[i], values[(i + 1) & (KEYS - 1)]);
            plain.put(tx, keys[(i + 7) & (KEYS - 1)], values[i]);
            return null;
        };
        long base = perTxn(() -> plainStm.atomic(plainBody));

        try (DurableStore s = DurableStore.builder(dir, Stm.builder().build()).mode(DurabilityMode.ASYNC)
                .map("m", Codecs.longs(), Codecs.longs()).open()) {
            DurableMap<Long, Long> m = s.map("m");
            s.atomic(tx -> {
                for (Long key : keys) {
                    m.put(tx, key, 0L);
                }
                return null;
            });
            TxnFunction<Object> body = tx -> {
                int i = k[0]++ & (KEYS - 1);
                m.put(tx, keys[i], values[(i + 1) & (KEYS - 1)]);
                m.put(tx, keys[(i + 7) & (KEYS - 1)], values[i]);
                return null;
            };
            long logged = perTxn(() -> s.atomic(body));
            assertTrue(logged <= base + 8, "a logged commit allocates " + logged + " bytes, an unlogged one " + base);
        }
    }
}
