package io.jato.protocols.mvcc;

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
 * Seed 002 Figure 3: A reads x; B writes x and commits; A writes y and commits. Serializable with
 * A before B. MVCC reads at the execution timestamp A took when it began, before B's, so A's read
 * of x is the version valid until B's commit timestamp, above A's: A commits at its own timestamp,
 * before B, and both commit with no abort - without the helper read that TicToc needs
 * ({@code TicTocScheduleTest}). OCC, the control, must abort A once.
 */
@Timeout(60)
class MvccScheduleTest {

    /** Runs the schedule; returns {@code {aborts, final x, final y}}. */
    private static long[] figure3(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        TxLong y = new TxLong(stm, 0);
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
    void mvccCommitsBothWithTheReaderFirst() {
        long[] r = figure3(MvccProtocol.NAME);
        assertEquals(0, r[0], "MVCC aborted an attempt");
        assertEquals(5, r[1]);
        assertEquals(10, r[2], "A committed with the x it read, before B");
    }

    @Test
    void occAbortsTheReader() {
        long[] r = figure3("occ");
        assertEquals(1, r[0], "OCC must abort A once: its read of x is stale at its commit");
        assertEquals(15, r[2], "A's retry reads B's x");
    }
}
