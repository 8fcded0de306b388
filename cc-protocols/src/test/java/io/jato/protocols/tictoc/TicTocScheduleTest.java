package io.jato.protocols.tictoc;

import io.jato.collections.TxLong;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The schedule of seed 001 §3.1 / §3.3 (Figure 1; Figure 3 of seed 002): A reads x; B writes x and
 * commits; A writes y and commits. Serializable with A before B. OCC orders transactions by their
 * commit instants, so A — committing after B with a stale read of x — must abort; TicToc computes
 * A's timestamp from what A touched and commits both.
 *
 * <p>As in the paper, x's version must be valid past y's: x is read by a read-only transaction
 * together with an item z whose wts is higher, which extends x's rts above y's.
 */
@Timeout(60)
class TicTocScheduleTest {

    /** Runs the schedule; returns {@code {aborts of A's attempts, final x, final y}}. */
    private static long[] schedule(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        TxLong y = new TxLong(stm, 0);
        TxLong z = new TxLong(stm, 0);
        for (int i = 1; i <= 3; i++) {
            long v = i;
            stm.run(txn -> z.set(txn, v));
        }
        // Reads x and z at z's wts: x's rts is extended past y's.
        stm.readOnly(txn -> x.get(txn) + z.get(txn));
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
            stm.run(txn -> x.set(txn, 5));
            il.signal("B committed");
        });
        il.run();
        assertTrue(il.followedSchedule(), protocol + ": the schedule did not run as written");
        StmStatistics d = stm.statistics().minus(before);
        assertEquals(2 + d.aborts(), d.starts(), protocol + ": " + d);
        return new long[] {d.aborts(), x.single().get(), y.single().get()};
    }

    @Test
    void ticTocCommitsBothByOrderingTheReaderFirst() {
        long[] r = schedule(TicTocProtocol.NAME);
        assertEquals(0, r[0], "TicToc aborted an attempt");
        assertEquals(5, r[1]);
        assertEquals(10, r[2], "A committed with the value of x it read, before B");
    }

    @Test
    void occAbortsTheReader() {
        long[] r = schedule("occ");
        assertEquals(1, r[0], "OCC must abort A once: its read of x is stale at its commit");
        assertEquals(5, r[1]);
        assertEquals(15, r[2], "A's retry reads B's x");
    }
}
