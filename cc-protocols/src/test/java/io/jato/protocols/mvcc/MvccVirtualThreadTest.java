package io.jato.protocols.mvcc;

import io.jato.collections.TxLong;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.Stm;
import io.jato.stm.spi.TxItem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A virtual thread's snapshot includes the thread's own earlier commit although the two ran in
 * different pooled contexts: MVCC carries its per-thread clock across them ({@code handOff},
 * {@code takeOver}). Without it the snapshot, taken in a context whose clock predates the commit,
 * read below it while an older writer held the stable point back, and saw the value before the
 * thread's own write. And pooled contexts idle in the pool, each of which ran a snapshot, hold
 * back no garbage collection of versions. JDK 21+ (virtual threads by reflection).
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@Timeout(60)
class MvccVirtualThreadTest {

    private static ExecutorService virtualThreads() throws ReflectiveOperationException {
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aVirtualThreadsSnapshotSeesItsOwnLastCommitInAnotherContext() throws Exception {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        TxLong x = new TxLong(stm, 0);
        TxLong y = new TxLong(stm, 0);
        ExecutorService vt = virtualThreads();
        // Two virtual threads inside transactions at once: the pool now holds two contexts, and
        // hands them out in turn (first in, first out).
        CountDownLatch both = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            vt.execute(() -> stm.run(txn -> {
                x.get(txn);
                both.countDown();
                await(both);
            }));
        }
        await(both);
        // A platform thread's tracked transaction stays open: the stable point stays below it.
        CountDownLatch begun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread writer = new Thread(() -> stm.run(txn -> {
            y.get(txn);
            begun.countDown();
            await(release);
        }));
        writer.start();
        await(begun);
        AtomicLong seen = new AtomicLong(-1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        vt.execute(() -> {
            try {
                stm.run(txn -> x.set(txn, 1));                   // one pooled context
                seen.set(stm.readOnly(txn -> x.get(txn)));       // the other
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                done.countDown();
            }
        });
        await(done);
        release.countDown();
        writer.join(30_000);
        vt.shutdown();
        assertTrue(vt.awaitTermination(30, TimeUnit.SECONDS));
        assertNull(failure.get());
        assertEquals(1, seen.get(), "the snapshot missed its own thread's commit");
    }

    @Test
    void idlePooledContextsHoldBackNoVersions() throws Exception {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        TxLong hot = new TxLong(stm, 0);
        MvccControl cc = (MvccControl) stm.concurrencyControl();
        Field cell = TxLong.class.getDeclaredField("cell");
        cell.setAccessible(true);
        TxItem item = (TxItem) cell.get(hot);
        // Eight virtual threads inside snapshots at once: eight pooled contexts, each of which read
        // a snapshot and a version of the hot cell, then went idle in the pool.
        int readers = 8;
        CountDownLatch inside = new CountDownLatch(readers);
        ExecutorService vt = virtualThreads();
        for (int i = 0; i < readers; i++) {
            vt.execute(() -> {
                stm.run(txn -> hot.set(txn, hot.get(txn) + 1));
                stm.readOnly(txn -> {
                    long v = hot.get(txn);
                    inside.countDown();
                    await(inside);
                    return v;
                });
            });
        }
        vt.shutdown();
        assertTrue(vt.awaitTermination(30, TimeUnit.SECONDS));
        // A platform thread now updates the cell: the horizon must follow it, not stay at the idle
        // contexts' old snapshots.
        AtomicInteger longest = new AtomicInteger();
        for (int i = 0; i < 2_000; i++) {
            stm.run(txn -> hot.set(txn, hot.get(txn) + 1));
            if ((i & 15) == 0) {
                stm.readOnly(txn -> hot.get(txn));
            }
            longest.accumulateAndGet(cc.chainLength(item), Math::max);
        }
        assertEquals(readers + 2_000, hot.single().get());
        int bound = MvccClock.ADVANCE_PERIOD + 2;
        assertTrue(longest.get() <= bound, "the chain grew to " + longest.get() + " versions, bound " + bound);
    }
}
