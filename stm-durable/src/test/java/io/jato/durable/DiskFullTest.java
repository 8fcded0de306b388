package io.jato.durable;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A log that cannot write (a full disk, here a quota) fails durable commits loudly and stays consistent. */
class DiskFullTest {
    @TempDir
    Path dir;

    @Test
    void durableCommitsFailLoudlyAndTheStoreStaysConsistent() {
        int accounts = 8;
        long acknowledged = 0;
        DurableStore s = DurableStore.builder(dir, Stm.builder().build()).epochMillis(2).logQuotaBytes(4000)
                .map("accounts", Codecs.longs(), Codecs.longs()).open();
        DurableMap<Long, Long> a = s.map("accounts");
        s.atomic(tx -> {
            for (long i = 0; i < accounts; i++) {
                a.put(tx, i, 100L);
            }
            return null;
        });
        DurabilityException failed = null;
        for (int i = 0; i < 1000 && failed == null; i++) {
            long from = i % accounts;
            long to = (i + 3) % accounts;
            try {
                s.atomic(tx -> {
                    a.put(tx, from, a.get(tx, from) - 1);
                    a.put(tx, to, a.get(tx, to) + 1);
                    return null;
                });
                acknowledged++;
            } catch (DurabilityException e) {
                failed = e;
            }
        }
        assertTrue(failed != null, "the quota must run out within 1000 transfers");
        assertTrue(failed.getMessage().contains("No space left"), failed.getMessage());
        // Later writes are refused before they change anything.
        long before = a.getNonTx(0L);
        DurabilityException refused = assertThrows(DurabilityException.class,
                () -> s.atomic(tx -> a.put(tx, 0L, -1L)));
        assertTrue(refused.getMessage().contains("accepts no more durable writes"), refused.getMessage());
        assertEquals(before, a.getNonTx(0L));
        java.util.concurrent.ExecutionException late = assertThrows(java.util.concurrent.ExecutionException.class,
                () -> s.durableFuture().get());
        assertTrue(late.getCause() instanceof DurabilityException, late.toString());
        s.close();

        try (DurableStore r = DurableStore.builder(dir, Stm.builder().build())
                .map("accounts", Codecs.longs(), Codecs.longs()).open()) {
            DurableMap<Long, Long> m = r.map("accounts");
            long sum = 0;
            for (long i = 0; i < accounts; i++) {
                sum += m.getNonTx(i);
            }
            assertEquals(100L * accounts, sum, r.recoveryReport().toString());
            // Every acknowledged transfer is present (plus the load).
            assertTrue(r.recoveryReport().transactionsApplied() >= acknowledged + 1, r.recoveryReport().toString());
        }
    }
}
