package io.jato.collections.internal.hash;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A lookup that misses while a resize runs waits for it without using a core: with more threads
 * than cores the resizing thread may be descheduled, and a spinning reader then keeps it off the
 * core for as long as the reader's time slice lasts (TPC-C at 8 threads on 2 cores lost a fifth of
 * its CPU to that spin). The resize is held half-way by a seam; the reader must be seen BLOCKED on
 * the index's lock, not RUNNABLE, and must answer correctly once the resize ends.
 */
class ResizeWaitTest {

    @AfterEach
    void clearSeam() {
        ChainedIndex.resizeStall = null;
    }

    @Test
    @Timeout(60)
    void aMissDuringAResizeParksUntilTheResizeEnds() throws Exception {
        LongNodeIndex index = new LongNodeIndex(0);
        int cap = index.capacity();
        for (long k = 0; k < cap * 3L / 4; k++) {
            index.link(new LongNodeIndex.Node(k, 0));
        }
        CountDownLatch stalled = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ChainedIndex.resizeStall = () -> {
            stalled.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        };
        Thread resizer = new Thread(() -> index.reserve(1));
        resizer.start();
        assertTrue(stalled.await(20, TimeUnit.SECONDS), "the resize reached the seam");
        ChainedIndex.resizeStall = null;

        AtomicReference<Object> missed = new AtomicReference<>("not returned");
        AtomicReference<Object> hit = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            missed.set(index.get(-1L));
            hit.set(index.get(7L));
        });
        reader.start();
        Thread.State state = awaitNotRunnable(reader, 10_000);
        assertEquals(Thread.State.BLOCKED, state,
                "a reader whose miss overlapped a resize must wait on the lock, not spin");
        assertEquals("not returned", missed.get(), "no miss may be reported while the resize runs");

        release.countDown();
        resizer.join(20_000);
        reader.join(20_000);
        assertNull(missed.get());
        assertEquals(7L, ((LongNodeIndex.Node) hit.get()).key);
        assertEquals(1, index.resizeCount());
    }

    /** Polls the thread's state until it stops being RUNNABLE (or the time is up); returns the last state. */
    private static Thread.State awaitNotRunnable(Thread t, long millis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        Thread.State s = t.getState();
        while ((s == Thread.State.RUNNABLE || s == Thread.State.NEW) && System.nanoTime() < end) {
            Thread.sleep(5);
            s = t.getState();
        }
        return s;
    }
}
