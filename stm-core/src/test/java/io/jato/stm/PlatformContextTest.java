package io.jato.stm;

import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A platform thread finds its own context by its thread id (StoreContexts' table, 16 slots in a new
 * store): threads whose ids share a slot, threads that outlive or replace each other, and more
 * threads than slots each get exactly their own context, every time.
 */
class PlatformContextTest {
    /** The table's length in a new store (StoreContexts.MIN_BY_THREAD). */
    private static final int SLOTS = 16;

    /** Runs a transaction on the calling thread; returns the context it ran in. */
    private static TxnContext contextOf(Stm stm, LongItem x) {
        AtomicReference<TxnContext> seen = new AtomicReference<>();
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            c.writeLong(x, c.readLong(x) + 1);
            seen.set(c);
        });
        return seen.get();
    }

    /** A started thread that runs {@code body}, created so that its id falls in {@code slot} of a {@code SLOTS} table. */
    private static Thread inSlot(long slot, Runnable body) {
        List<Thread> skipped = new ArrayList<>();
        for (int i = 0; i <= 4 * SLOTS; i++) {
            Thread t = new Thread(body);
            if ((t.getId() & (SLOTS - 1)) == slot) {
                t.start();
                return t;
            }
            skipped.add(t); // never started: only its id is used up
        }
        throw new AssertionError("no thread id fell in slot " + slot + " in " + skipped.size() + " tries");
    }

    @Test
    void twoLiveThreadsWhoseIdsShareASlotEachGetTheirOwnContext() throws Exception {
        Stm stm = Stm.create();
        LongItem x = new LongItem(0);
        CyclicBarrier turn = new CyclicBarrier(2);
        List<Set<TxnContext>> seen = List.of(newIdentitySet(), newIdentitySet());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable[] bodies = new Runnable[2];
        for (int k = 0; k < 2; k++) {
            Set<TxnContext> mine = seen.get(k);
            bodies[k] = () -> {
                try {
                    for (int i = 0; i < 200; i++) {
                        turn.await(10, TimeUnit.SECONDS); // both alive, alternating with each other
                        TxnContext c = contextOf(stm, x);
                        assertSame(Thread.currentThread(), ownerOf(c));
                        mine.add(c);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    turn.reset();
                }
            };
        }
        Thread first = new Thread(bodies[0]);
        first.start();
        Thread second = inSlot(first.getId() & (SLOTS - 1), bodies[1]);
        first.join(30_000);
        second.join(30_000);
        assertNull(failure.get(), () -> "a thread failed: " + failure.get());
        assertEquals(1, seen.get(0).size(), "the first thread ran in more than one context");
        assertEquals(1, seen.get(1).size(), "the second thread ran in more than one context");
        assertNotSame(seen.get(0).iterator().next(), seen.get(1).iterator().next(),
                "two threads whose ids share a slot were given one context");
        assertEquals(400, stm.atomicLong(t -> TxnContext.of(t, stm).readLong(x)));
    }

    @Test
    void aThreadInTheSlotOfADeadOneNeverGetsItsContext() throws Exception {
        Stm stm = Stm.create();
        LongItem x = new LongItem(0);
        AtomicReference<TxnContext> dead = new AtomicReference<>();
        Thread gone = new Thread(() -> dead.set(contextOf(stm, x)));
        gone.start();
        gone.join();
        AtomicReference<TxnContext> next = new AtomicReference<>();
        AtomicReference<TxnContext> again = new AtomicReference<>();
        Thread t = inSlot(gone.getId() & (SLOTS - 1), () -> {
            next.set(contextOf(stm, x));
            again.set(contextOf(stm, x));
        });
        t.join();
        assertNotSame(dead.get(), next.get(), "a new thread was given a dead thread's context");
        assertSame(next.get(), again.get(), "a thread changed contexts between two transactions");
        assertSame(t, ownerOf(next.get()));
    }

    @Test
    void moreLiveThreadsThanSlotsEachKeepOneContextOfTheirOwn() throws Exception {
        Stm stm = Stm.create();
        LongItem x = new LongItem(0);
        int threads = 5 * SLOTS; // the table grows (and ids of unrelated threads interleave)
        CountDownLatch allStarted = new CountDownLatch(threads);
        CountDownLatch release = new CountDownLatch(1);
        List<Set<TxnContext>> seen = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> ts = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
            Set<TxnContext> mine = newIdentitySet();
            seen.add(mine);
            Thread t = new Thread(() -> {
                try {
                    mine.add(contextOf(stm, x));
                    allStarted.countDown();
                    assertTrue(release.await(30, TimeUnit.SECONDS));
                    for (int i = 0; i < 50; i++) {
                        TxnContext c = contextOf(stm, x);
                        assertSame(Thread.currentThread(), ownerOf(c));
                        mine.add(c);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            ts.add(t);
            t.start();
        }
        assertTrue(allStarted.await(30, TimeUnit.SECONDS), "threads did not start");
        release.countDown();
        for (Thread t : ts) {
            t.join(30_000);
        }
        assertNull(failure.get(), () -> "a thread failed: " + failure.get());
        Set<TxnContext> all = newIdentitySet();
        for (Set<TxnContext> mine : seen) {
            assertEquals(1, mine.size(), "a thread ran in more than one context");
            all.addAll(mine);
        }
        assertEquals(threads, all.size(), "threads shared contexts");
        assertEquals(threads * 51L, stm.atomicLong(t -> TxnContext.of(t, stm).readLong(x)));
    }

    private static Set<TxnContext> newIdentitySet() {
        return Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static Thread ownerOf(TxnContext c) {
        return io.jato.stm.internal.StoreAccess.get().owner(c);
    }
}
