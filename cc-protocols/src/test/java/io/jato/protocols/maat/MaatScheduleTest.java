package io.jato.protocols.maat;

import io.jato.collections.TxLong;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MaaT's range rules on fixed schedules (seed 004 §V-A, §VI-A): where a conflict narrows a
 * range and both transactions commit, where a soft write lock orders a reader before the lock's
 * holder and spares the holder an abort, where the range empties and the later one aborts, and
 * that soft locks of either kind never outlive their attempt.
 */
@Timeout(60)
class MaatScheduleTest {

    /**
     * A reads x; B writes x and w and commits; A writes y and commits. Serializable with A before
     * B. B's timestamp comes from w (its rts was extended to 3 by a reader), so B commits at 4
     * and narrows A (a soft reader of x) to [.., 3]; A needs only y's rts + 1 = 1. OCC aborts A
     * (x changed before A's commit); TicToc aborts A too (x's rts, 0, is below 1 and x has a new
     * version, so it cannot be extended); MaaT commits both.
     *
     * @return {aborts of A's attempts, final x, final y}
     */
    static long[] readerOverwrittenBeforeItCommits(String protocol) {
        return readerOverwrittenBeforeItCommits(Protocols.store(protocol), protocol);
    }

    /** The schedule above on {@code stm}; {@code protocol} names it in messages. */
    static long[] readerOverwrittenBeforeItCommits(Stm stm, String protocol) {
        TxLong x = new TxLong(stm, 0);
        TxLong y = new TxLong(stm, 0);
        TxLong z = writtenThreeTimes(stm);
        TxLong w = new TxLong(stm, 0);
        stm.readOnly(txn -> w.get(txn) + z.get(txn)); // w's rts = z's wts = 3
        StmStatistics before = stm.statistics();
        Interleaving il = new Interleaving();
        il.thread("A", () -> stm.run(txn -> {
            long seen = x.get(txn);
            if (txn.attempt() == 0) {
                il.signal("A read x");
                il.await("B committed");
            }
            y.set(txn, seen + 10);
        }));
        il.thread("B", () -> {
            il.await("A read x");
            stm.run(txn -> {
                x.set(txn, 5);
                w.set(txn, 1);
            });
            il.signal("B committed");
        });
        il.run();
        assertTrue(il.followedSchedule(), protocol + ": the schedule did not run as written");
        StmStatistics d = stm.statistics().minus(before);
        assertEquals(2 + d.aborts(), d.starts(), protocol + ": " + d);
        return new long[] {d.aborts(), x.single().get(), y.single().get()};
    }

    /** @return a new item after three commits wrote it (MaaT and TicToc: wts 3) */
    private static TxLong writtenThreeTimes(Stm stm) {
        TxLong z = new TxLong(stm, 0);
        for (int i = 1; i <= 3; i++) {
            long v = i;
            stm.run(txn -> z.set(txn, v));
        }
        return z;
    }

    @Test
    void maatNarrowsTheReadersRangeAndCommitsBoth() {
        long[] r = readerOverwrittenBeforeItCommits(MaatProtocol.NAME);
        assertEquals(0, r[0], "MaaT aborted an attempt");
        assertEquals(5, r[1]);
        assertEquals(10, r[2], "A committed with the value of x it read, before B");
    }

    @Test
    void occAndTicTocAbortTheReader() {
        for (String p : new String[] {"occ", "tictoc"}) {
            long[] r = readerOverwrittenBeforeItCommits(p);
            assertEquals(1, r[0], p + " must abort A once");
            assertEquals(15, r[2], p + ": A's retry reads B's x");
        }
    }

    /**
     * W reads y and writes x (a soft write lock on x, the write buffered) and waits; T reads x and
     * z (wts 3) and commits at 3; U writes y and commits; W commits. Serializable as T, W, U: T
     * read the x that W replaces, W read the y that U replaces. T's commit finds W's soft write
     * lock on x and pushes W's lower bound to 4 (seed 004: a reader of an item with a soft write
     * lock commits before the holder). U, about to narrow W (a soft reader of y) below its own
     * timestamp, sees that bound and commits at 5 instead of 1, leaving W [4, 4]: all three
     * commit. Without the push U would narrow W to [.., 0] and W, which must go above T's read of
     * x (x's rts 3), would abort with an empty range. OCC and TicToc abort W (y changed).
     *
     * @return {aborts of W's attempts, final x, final y, the x that T read}
     */
    static long[] softWriteLockOrdersTheReaderFirst(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        TxLong y = new TxLong(stm, 0);
        TxLong z = writtenThreeTimes(stm);
        long[] tSaw = new long[1];
        StmStatistics before = stm.statistics();
        Interleaving il = new Interleaving();
        il.thread("W", () -> stm.run(txn -> {
            long seen = y.get(txn);
            x.set(txn, seen + 7);
            if (txn.attempt() == 0) {
                il.signal("W wrote");
                il.await("U committed");
            }
        }));
        il.thread("T", () -> {
            il.await("W wrote");
            tSaw[0] = stm.atomicLong(txn -> x.get(txn) + 0 * z.get(txn));
            il.signal("T committed");
        });
        il.thread("U", () -> {
            il.await("T committed");
            stm.run(txn -> y.set(txn, 9));
            il.signal("U committed");
        });
        il.run();
        assertTrue(il.followedSchedule(), protocol + ": the schedule did not run as written");
        StmStatistics d = stm.statistics().minus(before);
        assertEquals(3 + d.aborts(), d.starts(), protocol + ": " + d);
        assertNull(x.checkQuiescent(), protocol);
        assertNull(y.checkQuiescent(), protocol);
        return new long[] {d.aborts(), x.single().get(), y.single().get(), tSaw[0]};
    }

    @Test
    void aSoftWriteLockOrdersTheReaderBeforeItsHolderAndAllCommit() {
        long[] r = softWriteLockOrdersTheReaderFirst(MaatProtocol.NAME);
        assertEquals(0, r[0], "MaaT aborted an attempt");
        assertEquals(0, r[3], "T read x before W's write");
        assertEquals(7, r[1], "W committed with the y it read, before U");
        assertEquals(9, r[2]);
    }

    @Test
    void occAndTicTocAbortTheSoftWriteLockHolder() {
        for (String p : new String[] {"occ", "tictoc"}) {
            long[] r = softWriteLockOrdersTheReaderFirst(p);
            assertEquals(1, r[0], p + " must abort W once");
            assertEquals(16, r[1], p + ": W's retry reads U's y");
        }
    }

    /**
     * A soft write lock lives as long as its attempt: a running writer's item is not quiescent
     * (checkQuiescent names the soft write lock), and a body that throws after writing leaves none.
     */
    @Test
    void softWriteLocksAreReportedWhileHeldAndReleasedAfterAThrowingBody() {
        Stm stm = Protocols.store(MaatProtocol.NAME);
        TxLong x = new TxLong(stm, 1);
        MaatControl cc = (MaatControl) stm.concurrencyControl();
        String[] whileHeld = new String[1];
        assertThrows(IllegalStateException.class, () -> stm.run(txn -> {
            x.set(txn, 2);
            whileHeld[0] = x.checkQuiescent();
            throw new IllegalStateException("user");
        }));
        assertNotNull(whileHeld[0], "a held soft write lock went unreported");
        assertTrue(whileHeld[0].contains("soft write"), whileHeld[0]);
        assertNull(x.checkQuiescent());
        assertEquals(1, x.single().get());
        stm.run(txn -> x.set(txn, 3));
        assertNull(x.checkQuiescent());
        assertEquals(3, x.single().get());
        assertEquals(MaatProtocol.NAME, cc.name());
    }

    /**
     * Write skew: A reads x and writes y, B reads y and writes x, both read before either commits.
     * A commits first at 1 and narrows B (a soft reader of y) to [.., 0]; B must write x above A's
     * read of it (rts 1), so its range [2, 0] is empty: it aborts with TIMESTAMP_ORDER in prepare
     * and its retry sees A's write.
     */
    @Test
    void anEmptiedRangeAbortsWithTimestampOrder() {
        Stm stm = Protocols.store(MaatProtocol.NAME);
        TxLong x = new TxLong(stm, 1);
        TxLong y = new TxLong(stm, 1);
        StmStatistics before = stm.statistics();
        Interleaving il = new Interleaving();
        il.thread("A", () -> stm.run(txn -> {
            long seen = x.get(txn);
            if (txn.attempt() == 0) {
                il.signal("A read");
                il.await("B read");
            }
            y.set(txn, seen + 1);
        }));
        il.thread("B", () -> stm.run(txn -> {
            long seen = y.get(txn);
            if (txn.attempt() == 0) {
                il.await("A read");
                il.signal("B read");
                il.await("A committed");
            }
            x.set(txn, seen + 1);
        }));
        il.thread("watch", () -> {
            il.await("B read");
            while (y.single().get() == 1) {
                Thread.onSpinWait();
            }
            il.signal("A committed");
        });
        il.run();
        assertTrue(il.followedSchedule(), "the schedule did not run as written");
        StmStatistics d = stm.statistics().minus(before);
        assertEquals(1, d.aborts(AbortCause.TIMESTAMP_ORDER), d.toString());
        assertEquals(1, d.aborts(), d.toString());
        assertEquals(2, y.single().get());
        assertEquals(3, x.single().get(), "B's retry read A's y");
        assertNull(x.checkQuiescent());
        assertNull(y.checkQuiescent());
    }

    /** A body that throws after reading leaves no soft lock behind (checkQuiescent reports live ones). */
    @Test
    void aThrowingBodyReleasesItsSoftLocks() {
        Stm stm = Protocols.store(MaatProtocol.NAME);
        TxLong x = new TxLong(stm, 1);
        TxLong y = new TxLong(stm, 2);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> stm.run(txn -> {
            x.get(txn);
            y.get(txn);
            throw new IllegalStateException("user");
        }));
        assertEquals("user", thrown.getMessage());
        assertNull(x.checkQuiescent());
        assertNull(y.checkQuiescent());
        // The thread is usable, and a committed reader releases its locks too.
        assertEquals(3L, (long) stm.readOnly(txn -> x.get(txn) + y.get(txn)));
        assertNull(x.checkQuiescent());
        assertNull(y.checkQuiescent());
    }
}
