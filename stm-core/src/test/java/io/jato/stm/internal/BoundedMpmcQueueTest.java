package io.jato.stm.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pool's queue: bounds, order, and no element lost or duplicated under concurrent offers and polls. */
@Timeout(60)
class BoundedMpmcQueueTest {

    @Test
    void holdsItsCapacityInOrderThenRefuses() {
        BoundedMpmcQueue<Integer> q = new BoundedMpmcQueue<>(5);
        assertEquals(8, q.capacity(), "rounded up to a power of two");
        assertNull(q.poll());
        for (int lap = 0; lap < 3; lap++) {
            for (int i = 0; i < 8; i++) {
                assertTrue(q.offer(i));
            }
            assertFalse(q.offer(99), "full");
            for (int i = 0; i < 8; i++) {
                assertEquals(i, q.poll());
            }
            assertNull(q.poll(), "empty again");
        }
        assertThrows(NullPointerException.class, () -> q.offer(null));
        assertThrows(IllegalArgumentException.class, () -> new BoundedMpmcQueue<>(0));
        assertEquals(2, new BoundedMpmcQueue<>(1).capacity());
    }

    @Test
    void concurrentProducersAndConsumersHandOverEachElementOnce() throws Exception {
        int threads = 2;
        int perThread = 50_000;
        BoundedMpmcQueue<Integer> q = new BoundedMpmcQueue<>(16);
        AtomicIntegerArray taken = new AtomicIntegerArray(threads * perThread);
        AtomicInteger consumed = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int base = t * perThread;
            all.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    Integer v = base + i;
                    while (!q.offer(v)) {
                        Thread.yield();
                    }
                }
            }));
            all.add(new Thread(() -> {
                try {
                    while (consumed.get() < threads * perThread) {
                        Integer v = q.poll();
                        if (v == null) {
                            Thread.yield();
                            continue;
                        }
                        if (taken.getAndIncrement(v) != 0) {
                            throw new AssertionError("element " + v + " taken twice");
                        }
                        consumed.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    consumed.set(Integer.MAX_VALUE);
                }
            }));
        }
        for (Thread t : all) {
            t.start();
        }
        for (Thread t : all) {
            t.join(50_000);
        }
        assertNull(failure.get());
        for (int i = 0; i < taken.length(); i++) {
            assertEquals(1, taken.get(i), "element " + i);
        }
        assertNull(q.poll());
    }
}
