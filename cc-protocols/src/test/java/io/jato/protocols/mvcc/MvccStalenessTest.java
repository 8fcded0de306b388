package io.jato.protocols.mvcc;

import io.jato.collections.TxLong;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code Stm.readOnly(Duration, body)}: a snapshot that may be stale by the bound does not wait for
 * this thread's own last commit to become stable - it reads the stable point, in the past of that
 * commit, on its first attempt - while a plain {@code readOnly} must include it.
 */
@Timeout(60)
class MvccStalenessTest {

    @Test
    void aStaleSnapshotMayMissTheThreadsOwnCommitWhileAnOlderWriterIsInFlight() throws Exception {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        TxLong x = new TxLong(stm, 0);
        TxLong other = new TxLong(stm, 0);
        CountDownLatch began = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        // A writer that began before this thread's commit holds the stable point below it.
        Thread writer = new Thread(() -> {
            try {
                stm.run(txn -> {
                    other.get(txn);
                    began.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    other.set(txn, 1);
                });
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        writer.start();
        began.await();
        long stale;
        long fresh;
        StmStatistics before;
        StmStatistics afterStale;
        try {
            stm.run(txn -> x.set(txn, 1));
            before = stm.statistics();
            stale = stm.readOnly(Duration.ofHours(1), txn -> x.get(txn));
            afterStale = stm.statistics();
            fresh = stm.readOnly(txn -> x.get(txn));
        } finally {
            release.countDown();
            writer.join();
        }
        assertNull(failure.get());
        assertEquals(0, stale, "the stale snapshot reads the stable point, before this thread's commit");
        StmStatistics d = afterStale.minus(before);
        assertEquals(1, d.starts(), "the stale snapshot committed on its first attempt: " + d);
        assertEquals(1, fresh, "a snapshot without a bound includes this thread's own commit");
        assertEquals(1L, (long) stm.readOnly(Duration.ofHours(1), txn -> x.get(txn)));
    }

    @Test
    void aNegativeBoundIsRefused() {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> stm.readOnly(Duration.ofMillis(-1), txn -> null));
        assertEquals("maxStaleness must not be negative, got PT-0.001S", e.getMessage());
        assertEquals(5L, (long) stm.readOnly(Duration.ofSeconds(Long.MAX_VALUE), txn -> 5L), "a bound past long nanoseconds");
    }
}
