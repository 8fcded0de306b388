package io.jato.protocols.mvcc;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLong;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write-free tracked attempt commits below its execution timestamp, at the newest version it
 * read but never below a delete it may have seen only as an absence (docs/mvcc.md, "Write-free
 * commits"). The schedule: D begins; T begins later (a higher execution timestamp) and reads y;
 * D sets y and removes k, and commits below T's execution timestamp; the collector unlinks k
 * (T's bound is above D's commit, so the horizon may pass it); T then finds k absent. Without the
 * bound T committed at the old y's version, before D, having seen D's delete: y = 0 with k absent,
 * a state no serial order produces.
 */
@Timeout(60)
class MvccWriteFreeTest {

    @Test
    void aReaderThatSawAnUnlinkedDeleteCommitsAboveIt() {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        MvccControl cc = (MvccControl) stm.concurrencyControl();
        TxLong y = new TxLong(stm, 0);
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        map.single().put("k", "present");
        AtomicInteger readerAttempts = new AtomicInteger();
        AtomicReference<String> committedView = new AtomicReference<>();
        AtomicInteger keptAfterDelete = new AtomicInteger(-1);
        Interleaving il = new Interleaving();
        il.thread("D", () -> {
            stm.run(txn -> {
                y.get(txn);
                if (txn.attempt() == 0) {
                    il.signal("D began");
                    il.await("T read y");
                }
                y.set(txn, 1);
                map.remove(txn, "k");
            });
            // D's finish unlinked its kept delete if the horizon allowed it.
            keptAfterDelete.set(cc.keptDeleteCount());
            il.signal("D committed");
        });
        il.thread("T", () -> {
            il.await("D began");
            // A later execution timestamp than D's (they follow System.nanoTime).
            LockSupport.parkNanos(2_000_000);
            stm.run(txn -> {
                readerAttempts.incrementAndGet();
                long seenY = y.get(txn);
                if (txn.attempt() == 0) {
                    il.signal("T read y");
                    il.await("D committed");
                }
                committedView.set("y=" + seenY + " k=" + (map.get(txn, "k") == null ? "absent" : "present"));
            });
        });
        il.run();
        assertTrue(il.followedSchedule(), "the schedule did not run as written");
        assertEquals(0, keptAfterDelete.get(), "premise: D's delete was unlinked before T looked for the key");
        String view = committedView.get();
        assertTrue(view.equals("y=1 k=absent") || view.equals("y=0 k=present"),
                "the reader committed a state no serial order produces: " + view);
        assertEquals(2, readerAttempts.get(), "T's first attempt read y before D and k after it: it must abort");
    }

    /**
     * The gain: W begins, T begins later and reads x, W overwrites x and commits (below T's
     * execution timestamp, since it began first). T wrote nothing, so it commits at the version of x
     * it read, before W, on its first attempt; validated at its execution timestamp, as before, its
     * read of x was stale there and it aborted once.
     */
    @Test
    void aReaderCommitsBeforeAWriterThatBeganFirst() {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        TxLong x = new TxLong(stm, 0);
        AtomicInteger readerAttempts = new AtomicInteger();
        AtomicReference<Long> seen = new AtomicReference<>();
        Interleaving il = new Interleaving();
        il.thread("W", () -> {
            stm.run(txn -> {
                x.get(txn);
                if (txn.attempt() == 0) {
                    il.signal("W began");
                    il.await("T read x");
                }
                x.set(txn, 1);
            });
            il.signal("W committed");
        });
        il.thread("T", () -> {
            il.await("W began");
            LockSupport.parkNanos(2_000_000);
            stm.run(txn -> {
                readerAttempts.incrementAndGet();
                long v = x.get(txn);
                if (txn.attempt() == 0) {
                    il.signal("T read x");
                    il.await("W committed");
                }
                seen.set(v);
            });
        });
        il.run();
        assertTrue(il.followedSchedule(), "the schedule did not run as written");
        assertEquals(1, x.single().get());
        assertEquals(0L, seen.get(), "T commits with the x it read, before W");
        assertEquals(1, readerAttempts.get(), "a write-free reader aborted for a writer it can precede");
    }
}
