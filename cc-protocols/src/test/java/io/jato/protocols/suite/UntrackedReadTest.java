package io.jato.protocols.suite;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLong;
import io.jato.collections.TxRef;
import io.jato.protocols.suite.probe.PastProtocol;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Untracked reads ({@code TxnContext.untrack}, {@code Entry.UNTRACKED}): what a multi-version
 * protocol does for a transaction declared read-only, whose snapshot is consistent by
 * construction. An untracked read joins no read list, so the commit never validates it — a
 * concurrent writer cannot make such a transaction retry — and the core refuses it in any
 * transaction that may write, where skipping validation would commit writes on unchecked reads.
 * Driven by the test protocol {@link PastProtocol} (OCC underneath), whose reads are not really
 * snapshots: the tests check the bookkeeping, not a protocol's snapshot.
 */
class UntrackedReadTest {

    /** A reference, a long and a map read (an observed absence stripe or node) in one transaction. */
    private static final class Cells {
        final TxRef<String> ref;
        final TxLong num;
        final TxHashMap<String, String> map;

        Cells(Stm stm) {
            ref = new TxRef<>(stm, "r0");
            num = new TxLong(stm, 0);
            map = new TxHashMap<>(stm);
            map.single().put("k", "m0");
        }

        String readAll(Txn t) {
            return ref.get(t) + "," + num.get(t) + "," + map.get(t, "k") + "," + map.get(t, "absent");
        }

        void writeAll(Stm stm, int i) {
            stm.run(t -> {
                ref.set(t, "r" + i);
                num.set(t, i);
                map.put(t, "k", "m" + i);
                map.put(t, "absent", "now present");
                map.remove(t, "absent");
            });
        }
    }

    /**
     * Reads everything, lets another thread commit new values of everything, reads again: the
     * second reads come from the entries of the first. Returns the attempts the transaction took,
     * the read-list sizes seen and the values.
     */
    private static List<Object> readAcrossAWriter(Stm stm, Cells c, List<Integer> readCounts) {
        int[] attempts = new int[1];
        String[] seen = new String[2];
        stm.readOnly(t -> {
            attempts[0]++;
            seen[0] = c.readAll(t);
            if (attempts[0] == 1) {
                Thread w = new Thread(() -> c.writeAll(stm, 1));
                w.start();
                join(w);
            }
            seen[1] = c.readAll(t);
            readCounts.add(((TxnContext) t).readCount());
            return null;
        });
        return List.of(attempts[0], seen[0], seen[1]);
    }

    private static void join(Thread t) {
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aDeclaredReadOnlyTransactionsUntrackedReadsAreNeverValidated() {
        Stm stm = Stm.builder().protocol(PastProtocol.NAME).build();
        PastProtocol.lastCreated.untrackReadOnly = true;
        Cells c = new Cells(stm);
        List<Integer> readCounts = new ArrayList<>();
        List<Object> r = readAcrossAWriter(stm, c, readCounts);
        assertEquals(1, r.get(0), "an untracked transaction committed on its first attempt");
        assertEquals("r0,0,m0,null", r.get(1));
        assertEquals(r.get(1), r.get(2), "a second read of an item returns the first read's value");
        assertEquals(List.of(0), readCounts, "no read joined the read list");
        assertEquals("r1,1,m1,null", stm.readOnly(c::readAll), "the writer committed");
    }

    /** The control: the same schedule with tracked reads retries, so the test above can fail. */
    @Test
    void trackedReadsOfTheSameScheduleAreValidatedAndRetried() {
        Stm stm = Stm.builder().protocol(PastProtocol.NAME).build();
        Cells c = new Cells(stm);
        List<Integer> readCounts = new ArrayList<>();
        List<Object> r = readAcrossAWriter(stm, c, readCounts);
        assertEquals(2, r.get(0), "validation failed once");
        assertEquals("r1,1,m1,null", r.get(2));
        assertTrue(readCounts.get(0) >= 4, "every read was listed: " + readCounts);
    }

    /**
     * A transaction that may write must validate its reads: untracking one there is a protocol
     * bug the core reports (also in a read-only block nested in a writing transaction), and the
     * failure leaves the thread and the store usable.
     */
    @Test
    void untrackingAReadOfATransactionThatMayWriteIsRefused() {
        Stm stm = Stm.builder().protocol(PastProtocol.NAME).build();
        PastProtocol.Control past = PastProtocol.lastCreated;
        past.untrackAll = true;
        Cells c = new Cells(stm);
        IllegalStateException top = assertThrows(IllegalStateException.class, () -> stm.run(t -> {
            c.ref.get(t);
        }));
        assertTrue(top.getMessage().contains("not declared read-only"), top.getMessage());
        assertThrows(IllegalStateException.class, () -> stm.run(t -> {
            stm.readOnly(inner -> c.num.get(inner));
            c.num.set(t, 5);
        }));
        assertEquals(0, c.num.single().get(), "the refused transaction wrote nothing");
        past.untrackAll = false;
        stm.run(t -> c.num.set(t, c.num.get(t) + 1));
        assertEquals(1, c.num.single().get());
        assertEquals(List.of(), Quiescence.problems(c.ref, c.num), "quiescent");
    }
}
