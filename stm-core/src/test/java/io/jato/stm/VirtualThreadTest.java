package io.jato.stm;

import io.jato.stm.internal.Tunables;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.jato.stm.LongCells.read;
import static io.jato.stm.LongCells.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transactions on virtual threads (issue 17 item 7): a virtual thread borrows a context from the
 * store's pool for each outermost transaction and gives it back when it ends, so many virtual
 * threads share few contexts and an idle one holds none. Before the pool each virtual thread kept
 * a ~7 KB context for life, registered by a scan of every other one under the store's lock (50,000
 * live virtual threads took 20-77 s). JDK 21+ (virtual threads are found by reflection: the
 * project compiles for Java 17); CI runs it on JDK 25. Scaled by {@code jato.stress.scale}.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@Timeout(120)
class VirtualThreadTest {
    private static final double SCALE = Double.parseDouble(System.getProperty("jato.stress.scale", "1"));
    private static final int ACCOUNTS = 64;
    private static final long INITIAL = 1000;

    private final Stm stm = Stm.builder().name("vt").build();
    private final LongItem[] accounts = new LongItem[ACCOUNTS];

    VirtualThreadTest() {
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts[i] = new LongItem(INITIAL);
        }
    }

    static ExecutorService virtualThreads() throws ReflectiveOperationException {
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    private static void finish(ExecutorService executor) throws InterruptedException {
        executor.shutdown();
        assertTrue(executor.awaitTermination(100, TimeUnit.SECONDS), "virtual threads did not finish");
    }

    /** The pool's capacity (a power of two at least the tunable), plus the test thread's own context. */
    private static int idleBound() {
        return Integer.highestOneBit(Math.max(2, Tunables.CONTEXT_POOL) - 1) * 2 + 1;
    }

    private void transfer(ThreadLocalRandom r) {
        int from = r.nextInt(ACCOUNTS);
        int to = (from + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
        stm.run(txn -> {
            write(stm, txn, accounts[from], read(stm, txn, accounts[from]) - 1);
            // A nested block finds the very context of its outer transaction, and joins it.
            Txn inner = stm.atomic(t -> t);
            if (inner != txn || !stm.inTransaction()) {
                throw new AssertionError("a nested block on a virtual thread ran in another transaction");
            }
            write(stm, inner, accounts[to], read(stm, inner, accounts[to]) + 1);
        });
    }

    private long sum() {
        return stm.atomicLong(txn -> {
            long s = 0;
            for (LongItem a : accounts) {
                s += read(stm, txn, a);
            }
            return s;
        });
    }

    @Test
    void manyVirtualThreadsTransferThroughFewContexts() throws Exception {
        int threads = (int) Math.max(100, 20_000 * SCALE);
        int transfers = 10;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ExecutorService vt = virtualThreads();
        for (int i = 0; i < threads; i++) {
            vt.execute(() -> {
                try {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    for (int k = 0; k < transfers; k++) {
                        transfer(r);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
        }
        finish(vt);
        assertNull(failure.get());
        assertEquals(INITIAL * ACCOUNTS, sum(), "transfers kept the total");
        assertEquals((long) threads * transfers + 1, stm.statistics().commits());
        // Contexts are created only while more virtual threads are inside transactions at once
        // than the pool holds idle (parked in a backoff): far fewer than threads.
        long created = stm.contexts().pooledCreated();
        assertTrue(created <= threads / 10, created + " pooled contexts for " + threads + " threads");
        assertTrue(stm.contexts().contextCount() <= idleBound(),
                stm.contexts().contextCount() + " contexts kept after every thread ended");
    }

    @Test
    void idleVirtualThreadsHoldNoContext() throws Exception {
        int threads = (int) Math.max(100, 5_000 * SCALE);
        CountDownLatch ran = new CountDownLatch(threads);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ExecutorService vt = virtualThreads();
        for (int i = 0; i < threads; i++) {
            vt.execute(() -> {
                try {
                    transfer(ThreadLocalRandom.current());
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
                ran.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertTrue(ran.await(100, TimeUnit.SECONDS));
        // Every thread is alive, each ran a transaction: the store keeps only the pool's contexts.
        int live = stm.contexts().contextCount();
        release.countDown();
        finish(vt);
        assertNull(failure.get());
        assertTrue(live <= idleBound(), live + " contexts for " + threads + " live virtual threads");
        assertEquals(INITIAL * ACCOUNTS, sum());
    }

    @Test
    void aTransactionThatThrowsGivesItsContextBack() throws Exception {
        List<Txn> leaked = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ExecutorService vt = virtualThreads();
        vt.execute(() -> {
            try {
                IllegalStateException boom = new IllegalStateException("boom");
                for (int i = 0; i < 100; i++) {
                    assertSame(boom, assertThrows(IllegalStateException.class, () -> stm.run(txn -> {
                        write(stm, txn, accounts[0], 0);
                        throw boom;
                    })));
                }
                stm.run(leaked::add);
                // Used after it ended (its context went back to the pool): refused, naming why.
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> TxnContext.of(leaked.get(0), stm));
                assertTrue(e.getMessage().contains("after it ended"), e.getMessage());
                // A transaction of another store inside one of this store is refused, as on
                // platform threads, and both contexts go back.
                Stm other = Stm.builder().name("other").build();
                assertThrows(IllegalStateException.class, () -> stm.run(txn -> other.run(t -> { })));
                other.run(t -> { });
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        finish(vt);
        assertNull(failure.get());
        assertEquals(INITIAL, accounts[0].valueAcquire(), "the failed transactions wrote nothing");
        assertEquals(1, stm.contexts().pooledCreated(), "one context served every transaction of the thread");
        assertEquals(1, stm.contexts().contextCount());
    }
}
