package io.jato.protocols.mvcc;

import io.jato.collections.TxLong;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.Stm;
import io.jato.stm.spi.TxItem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Garbage collection of versions: chains stay short under hot-key updates of any length, a live
 * snapshot holds the horizon (every version it may read stays), and once it ends the horizon
 * passes it and its versions go.
 */
@Timeout(120)
class MvccGarbageTest {

    /** The cell's item (a test looks at its version chain). */
    static TxItem item(TxLong cell) {
        try {
            Field f = TxLong.class.getDeclaredField("cell");
            f.setAccessible(true);
            return (TxItem) f.get(cell);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static MvccControl control(Stm stm) {
        return (MvccControl) stm.concurrencyControl();
    }

    /** Commits the hot-key run makes at least, past its time budget if need be. */
    private static final long MIN_COMMITS = 2_000;

    @Test
    void hotKeyChainsStayBoundedUnderALongWriteHeavyRun() throws InterruptedException {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        MvccControl cc = control(stm);
        TxLong hot = new TxLong(stm, 0);
        TxLong other = new TxLong(stm, 0);
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2_000L * Protocols.scale());
        AtomicInteger longest = new AtomicInteger();
        AtomicLong commits = new AtomicLong();
        // One writer thread: the horizon trails the newest commit by at most the commits between two
        // advances. (With several writers it also waits for the oldest attempt in flight, which a
        // descheduled thread makes arbitrarily long on a loaded machine.)
        Thread[] writers = new Thread[1];
        for (int w = 0; w < writers.length; w++) {
            writers[w] = new Thread(() -> {
                // At least MIN_COMMITS however slow the machine (a loaded CI guest managed 841 in
                // the 2 s alone), so the bound below is checked over many advances of the clock.
                while (System.nanoTime() < until || commits.get() < MIN_COMMITS) {
                    stm.run(txn -> {
                        hot.set(txn, hot.get(txn) + 1);
                        other.addAndGet(txn, 1);
                    });
                    commits.incrementAndGet();
                    // Short snapshots come and go, as TPC-C's read-only transactions do.
                    if ((commits.get() & 15) == 0) {
                        stm.readOnly(txn -> hot.get(txn) + other.get(txn));
                    }
                    longest.accumulateAndGet(Math.max(cc.chainLength(item(hot)), cc.chainLength(item(other))), Math::max);
                }
            });
            writers[w].start();
        }
        for (Thread t : writers) {
            t.join();
        }
        assertEquals(commits.get(), hot.single().get());
        // Bound: versions younger than the horizon, which trails the newest commit by at most the
        // commits between two advances (MvccClock.ADVANCE_PERIOD), plus the pending one.
        int bound = MvccClock.ADVANCE_PERIOD + 2;
        assertTrue(longest.get() <= bound, "a chain grew to " + longest.get() + " versions, bound " + bound);
        // Quiet: one more write after the horizon moved leaves the chain at its pending version's length.
        cc.advanceClock();
        stm.run(txn -> hot.set(txn, -1));
        assertTrue(cc.chainLength(item(hot)) <= 2, "chain after quiescence: " + cc.chainLength(item(hot)));
        assertEquals(null, cc.checkQuiescent(item(hot)));
    }

    @Test
    void aLiveSnapshotHoldsTheHorizonSoItsVersionsStay() {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        MvccControl cc = control(stm);
        TxLong x = new TxLong(stm, 0);
        TxLong y = new TxLong(stm, 0);
        int updates = 500;
        AtomicLong horizonWhileHeld = new AtomicLong();
        AtomicInteger chainWhileHeld = new AtomicInteger();
        AtomicLong seenY = new AtomicLong(-1);
        AtomicInteger attempts = new AtomicInteger();
        Interleaving il = new Interleaving();
        il.thread("old snapshot", () -> stm.readOnly(txn -> {
            attempts.incrementAndGet();
            long seenX = x.get(txn);
            il.signal("holding");
            il.await("updated");
            seenY.set(y.get(txn) - seenX);
            return null;
        }));
        il.thread("writer", () -> {
            il.await("holding");
            long before = cc.stableTimestamp();
            for (int i = 1; i <= updates; i++) {
                long v = i;
                stm.run(txn -> {
                    x.set(txn, v);
                    y.set(txn, v);
                });
                cc.advanceClock();
                // The horizon never passes the live snapshot, which is at or below the stable
                // point it began at.
                assertTrue(cc.horizon() <= before, "the horizon passed a live snapshot");
            }
            horizonWhileHeld.set(cc.horizon());
            chainWhileHeld.set(cc.chainLength(item(y)));
            il.signal("updated");
        });
        il.run();
        assertTrue(il.followedSchedule());
        assertEquals(1, attempts.get());
        assertEquals(0, seenY.get(), "the snapshot's y is not the y of its x");
        assertTrue(chainWhileHeld.get() >= updates, "versions the snapshot may read were collected: "
                + chainWhileHeld.get());
        // Released: the horizon moves past, and the next write cuts the chain.
        cc.advanceClock();
        assertTrue(cc.horizon() > horizonWhileHeld.get(), "the horizon stayed behind a finished snapshot");
        stm.run(txn -> y.set(txn, -1));
        assertTrue(cc.chainLength(item(y)) <= 2, "chain after the snapshot ended: " + cc.chainLength(item(y)));
    }

    @Test
    void aVersionOfAnItemWrittenOnceGoesOnceTheHorizonPassesItUnlessASnapshotHoldsIt() {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        MvccControl cc = control(stm);
        TxLong once = new TxLong(stm, 7);
        TxLong other = new TxLong(stm, 0);
        Interleaving il = new Interleaving();
        AtomicLong seen = new AtomicLong(-1);
        AtomicInteger chainWhileHeld = new AtomicInteger(-1);
        il.thread("old snapshot", () -> stm.readOnly(txn -> {
            other.get(txn);
            il.signal("holding");
            il.await("written");
            seen.set(once.get(txn));
            return null;
        }));
        il.thread("writer", () -> {
            il.await("holding");
            stm.run(txn -> once.set(txn, 8));
            // Never written again: only the horizon can free the version of 7 now.
            cc.advanceClock();
            stm.run(txn -> other.set(txn, 1));
            chainWhileHeld.set(cc.chainLength(item(once)));
            il.signal("written");
        });
        il.run();
        assertTrue(il.followedSchedule());
        assertEquals(1, chainWhileHeld.get(), "a version a live snapshot may read was cut");
        assertEquals(7, seen.get(), "the snapshot's value of the cell");
    }

    @Test
    void aVersionOfAnItemWrittenOnceGoesOnceTheHorizonPassesIt() {
        // Before, the version of 7 stayed for good: only a later writer trimmed a chain.
        assertWrittenOnceAndCut(7, (stm, cell) -> stm.run(txn -> cell.set(txn, 8)), 8,
                "a version no reader can need stayed linked");
    }

    @Test
    void aClosedDeltaGroupOfAnItemNotWrittenAgainGoesOnceTheHorizonPassesIt() {
        // A lone add is a delta group of one, closed by its opener. Before, only the counter's
        // next writer trimmed the group, so a counter added to once kept it for good.
        assertWrittenOnceAndCut(5, (stm, cell) -> stm.run(txn -> cell.add(txn, 3)), 8,
                "a closed delta group no reader can need stayed linked");
    }

    /**
     * Gives a cell holding {@code initial} one write ({@code write}, which must leave
     * {@code written}), then no other: only the horizon can free what the write pushed. Once the
     * horizon has passed the write, the writing thread's next finish must cut it; the cell keeps
     * its value for readers and later writers.
     */
    private static void assertWrittenOnceAndCut(long initial, BiConsumer<Stm, TxLong> write, long written,
                                                String problem) {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        MvccControl cc = control(stm);
        TxLong once = new TxLong(stm, initial);
        TxLong other = new TxLong(stm, 0);
        write.accept(stm, once);
        assertEquals(1, cc.chainLength(item(once)), "what the write pushed heads the chain");
        cc.advanceClock();
        stm.run(txn -> other.set(txn, 1));
        assertEquals(0, cc.chainLength(item(once)), problem);
        assertEquals(written, once.single().get());
        assertEquals(written, (long) stm.readOnly(txn -> once.get(txn)));
        stm.run(txn -> once.set(txn, once.get(txn) + 1));
        assertEquals(written + 1, (long) stm.readOnly(txn -> once.get(txn)));
    }
}
