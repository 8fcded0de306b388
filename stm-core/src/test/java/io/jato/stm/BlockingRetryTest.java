package io.jato.stm;

import io.jato.stm.spi.LongItem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Blocking retry, retryFor and orElse with the default protocol (cross-protocol: BlockingRetryContractTest). */
@Timeout(60)
class BlockingRetryTest {
    private final Stm stm = Stm.builder().maxAttempts(3).build();
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    private long read(Txn t, LongItem item) {
        return LongCells.read(stm, t, item);
    }

    private void write(Txn t, LongItem item, long v) {
        LongCells.write(stm, t, item, v);
    }

    /** Sets {@code item} from another thread once {@code waiting} threads wait in retry. */
    private CompletableFuture<Void> setWhenWaiting(LongItem item, long v, CountDownLatch waiting) {
        return CompletableFuture.runAsync(() -> {
            try {
                waiting.await();
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            stm.run(t -> write(t, item, v));
        });
    }

    @Test
    void retryBlocksUntilAReadItemChangesWithoutUsingUpAttempts() {
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<Void> writer = setWhenWaiting(x, 7, waiting);
        long seen = stm.atomicLong(txn -> {
            attempts.incrementAndGet();
            long v = read(txn, x);
            if (v == 0) {
                waiting.countDown();
                throw txn.retry();
            }
            return v;
        });
        writer.join();
        assertEquals(7, seen);
        assertTrue(attempts.get() >= 2);
        assertTrue(stm.statistics().aborts(AbortCause.RETRY) >= 1);
        assertNull(stm.concurrencyControl().checkQuiescent(x));
    }

    @Test
    void retryForReturnsNormallyOnceItsDeadlinePassed() {
        long start = System.nanoTime();
        String r = stm.atomic(txn -> {
            if (read(txn, x) == 0) {
                txn.retryFor(100, TimeUnit.MILLISECONDS);
                return "timed out";
            }
            return "changed";
        });
        assertEquals("timed out", r);
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(100));
        assertThrows(IllegalArgumentException.class, () -> stm.run(txn -> txn.retryFor(-1, TimeUnit.SECONDS)));
    }

    @Test
    void anInterruptWhileWaitingEndsTheTransactionAndKeepsTheFlag() throws Exception {
        CompletableFuture<Throwable> waiter = new CompletableFuture<>();
        CountDownLatch waiting = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                stm.run(txn -> {
                    write(txn, y, 99);
                    if (read(txn, x) == 0) {
                        waiting.countDown();
                        throw txn.retry();
                    }
                });
                waiter.complete(null);
            } catch (Throwable e) {
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status stays set");
                waiter.complete(e);
            }
        });
        t.start();
        waiting.await();
        Thread.sleep(20);
        t.interrupt();
        Throwable thrown = waiter.get(10, TimeUnit.SECONDS);
        assertInstanceOf(TxnInterruptedException.class, thrown);
        assertInstanceOf(InterruptedException.class, thrown.getCause());
        assertEquals(0, stm.concurrencyControl().loadLong(y), "rolled back");
        assertNull(stm.concurrencyControl().checkQuiescent(y));
        stm.run(txn -> write(txn, x, 1));   // no waiter left behind: commits as usual
    }

    @Test
    void orElseRunsTheSecondAlternativeWhenTheFirstRetriesAndWaitsOnBoth() {
        String r = stm.atomic(txn -> txn.orElse(t -> {
            if (read(t, x) == 0) {
                throw t.retry();
            }
            return "first";
        }, t -> "second"));
        assertEquals("second", r);

        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Void> writer = setWhenWaiting(x, 1, waiting);   // wakes the first alternative's read
        AtomicInteger attempts = new AtomicInteger();
        String woke = stm.atomic(txn -> {
            attempts.incrementAndGet();
            return txn.orElse(t -> {
                if (read(t, x) == 0) {
                    throw t.retry();
                }
                return "x changed";
            }, t -> {
                if (read(t, y) == 0) {
                    waiting.countDown();
                    throw t.retry();
                }
                return "y changed";
            });
        });
        writer.join();
        assertEquals("x changed", woke);
        assertTrue(attempts.get() >= 2);
    }

    @Test
    void anAlternativeThatWroteBeforeRetryingIsRolledBackAndTheSecondRuns() {
        stm.run(txn -> write(txn, y, 5));
        String r = stm.atomic(txn -> {
            write(txn, y, 6);                             // pending before orElse
            String s = txn.orElse(t -> {
                write(t, y, 100);                         // overwrites, then retries: rolled back
                write(t, x, 100);                         // a first write, rolled back too
                t.retryFor(10, TimeUnit.MILLISECONDS);
                return "first";
            }, t -> "second");
            return s + " y=" + read(txn, y) + " x=" + read(txn, x) + " attempt " + txn.attempt();
        });
        assertEquals("second y=6 x=0 attempt 0", r);
        assertEquals(6, stm.concurrencyControl().loadLong(y));
        assertEquals(0, stm.concurrencyControl().loadLong(x));
    }

    @Test
    void retryWithNothingReadIsRefusedAndRolledBack() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> stm.run(txn -> {
            write(txn, y, 1);
            throw txn.retry();
        }));
        assertTrue(e.getMessage().contains("read nothing"), e.getMessage());
        assertEquals(0, stm.concurrencyControl().loadLong(y));
        assertThrows(NullPointerException.class, () -> stm.run(txn -> txn.orElse(null, t -> null)));
    }
}
