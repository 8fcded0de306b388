package io.jato.protocols.tebaldi;

import io.jato.collections.TxLong;
import io.jato.protocols.suite.Protocols;
import io.jato.protocols.suite.history.HistoryWorkload;
import io.jato.protocols.suite.history.SerializabilityChecker;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.TxnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Each node of a tree resolves exactly the conflicts between the groups it separates: a reader
 * holds a transaction open while a writer of another group changes what it read, and the test
 * sees which mechanism answered (the 2pl node blocks the writer; an occ node fails the reader's
 * validation). And a tree that omits a layer is caught by the serializability checker, so the
 * suites that run the shipped trees can fail.
 */
@Timeout(120)
class TebaldiLayersTest {
    private static final TxnType NEW_ORDER = TxnType.of("new-order");
    private static final TxnType PAYMENT = TxnType.of("payment");
    private static final TxnType DELIVERY = TxnType.of("delivery");
    private static final TxnType STOCK_LEVEL = TxnType.of("stock-level");
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(20);

    private static Stm store(String tree) {
        return Stm.builder().protocol("tebaldi").option("tree", tree).option("waitPolls", "4").escalateAfter(0).build();
    }

    /** What happened when a writer changed what an open reader had read. */
    private record Race(StmStatistics reader, StmStatistics writer, boolean writerCommittedWhileReaderOpen) {
    }

    /**
     * A reader of {@code readerType} reads x and, in its first attempt, waits until a writer of
     * {@code writerType} (another thread) either committed a write of x or was refused a lock.
     */
    private static Race race(Stm stm, TxnType readerType, boolean readOnly, TxnType writerType) {
        TxLong x = new TxLong(stm, 0);
        AtomicBoolean written = new AtomicBoolean();
        AtomicBoolean committedWhileOpen = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                stm.run(writerType, t -> x.set(t, 1));
                written.set(true);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        boolean[] first = {true};
        io.jato.stm.TxnFunction<Long> body = t -> {
            long v = x.get(t);
            if (first[0]) {
                first[0] = false;
                writer.start();
                long deadline = System.nanoTime() + WAIT_NANOS;
                while (!written.get() && stm.statistics(writerType).aborts(AbortCause.LOCK_BUSY) == 0) {
                    if (System.nanoTime() - deadline > 0) {
                        fail("the writer neither committed nor was refused a lock");
                    }
                    Thread.onSpinWait();
                }
                committedWhileOpen.set(written.get());
            }
            return v;
        };
        if (readOnly) {
            stm.readOnly(readerType, body);
        } else {
            stm.atomic(readerType, body);
        }
        try {
            writer.join(TimeUnit.NANOSECONDS.toMillis(WAIT_NANOS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertNull(failure.get());
        assertTrue(written.get(), "the writer committed once the reader finished");
        assertNull(x.checkQuiescent());
        return new Race(stm.statistics(readerType), stm.statistics(writerType), committedWhileOpen.get());
    }

    @Test
    void theTwoPlNodeBlocksAWriterOfTheOtherChild() {
        Race r = race(store("3-layer"), NEW_ORDER, false, DELIVERY);
        assertTrue(!r.writerCommittedWhileReaderOpen() && r.writer().aborts(AbortCause.LOCK_BUSY) > 0, r::toString);
        assertEquals(0, r.reader().aborts(), r::toString);
    }

    @Test
    void theLeafOrdersTransactionsOfItsOwnGroupByValidation() {
        Race r = race(store("3-layer"), NEW_ORDER, false, PAYMENT);
        assertTrue(r.writerCommittedWhileReaderOpen(), r::toString);
        assertEquals(0, r.writer().aborts(), r::toString);
        assertEquals(1, r.reader().aborts(AbortCause.READ_VALIDATION), r::toString);
    }

    @Test
    void inTheTwoLayerTreeDeliveryIsInTheUpdateGroupAndValidatedByItsLeaf() {
        Race r = race(store("2-layer"), NEW_ORDER, false, DELIVERY);
        assertTrue(r.writerCommittedWhileReaderOpen(), r::toString);
        assertEquals(1, r.reader().aborts(AbortCause.READ_VALIDATION), r::toString);
    }

    @Test
    void theRootOrdersTheReadOnlyGroupByValidationAndNeverBlocksWriters() {
        for (String tree : new String[] {"2-layer", "3-layer"}) {
            Race r = race(store(tree), STOCK_LEVEL, true, NEW_ORDER);
            assertTrue(r.writerCommittedWhileReaderOpen(), () -> tree + ": " + r);
            assertEquals(0, r.writer().aborts(), () -> tree + ": " + r);
            assertEquals(1, r.reader().aborts(AbortCause.READ_VALIDATION), () -> tree + ": " + r);
        }
    }

    /**
     * The suites do not pair the trees with other protocols (Protocols.UNPAIRED_PREFIX); this
     * checks the one pairing a user is likeliest to build, objects alternating between occ and
     * the 3-layer tree, with randomly typed transactions spanning both.
     */
    @Test
    void besideOccInOneStoreTheHistoriesStaySerializable() {
        for (int round = 0; round < 3; round++) {
            long seed = System.nanoTime();
            Stm stm = Protocols.store("occ" + Protocols.PAIR_SEPARATOR + "tebaldi");
            HistoryWorkload.Result r = HistoryWorkload.run(stm, seed, 4, Protocols.scaled(200));
            io.jato.protocols.suite.Interleaving.rethrow(r.failures());
            r.report().assertSerializable("occ+tebaldi, seed " + seed);
            assertTrue(r.notQuiescent().isEmpty(), () -> "not quiescent: " + r.notQuiescent());
            assertEquals(4 * Protocols.scaled(200), r.committed().size());
        }
    }

    // ------------------------------------------------------------------ a missing layer is caught

    private static final long DETECTION_BUDGET_MILLIS = 30_000;

    @Test
    void theThreeLayerTreeWithoutItsTwoPlNodeLosesUpdatesTheCheckerFinds() {
        assertCaught("occ(none[order-status, stock-level], none(occ[new-order, payment], occ[delivery]))");
    }

    @Test
    void theTwoLayerTreeWithoutItsRootLetsTheReadOnlyGroupReadAcrossCommitsTheCheckerFinds() {
        assertCaught("none(none[order-status, stock-level], occ[new-order, payment, delivery])");
    }

    /** Runs randomly typed histories under the unsafe tree until the checker finds a cycle or a lost update. */
    private static void assertCaught(String tree) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DETECTION_BUDGET_MILLIS);
        long seed = System.nanoTime();
        for (int round = 0; System.nanoTime() - deadline < 0; round++) {
            Stm stm = Stm.builder().protocol("tebaldi").option("tree", tree).option("unsafe", "true").build();
            HistoryWorkload.Result r = HistoryWorkload.run(stm, seed + round, 4, Protocols.scaled(200));
            SerializabilityChecker.Report report = r.report();
            if (!report.isSerializable()) {
                String d = report.describe();
                assertTrue(!report.cycle().isEmpty() || report.hasLostUpdate(), d);
                return;
            }
        }
        fail("the checker found no anomaly in " + DETECTION_BUDGET_MILLIS + " ms under " + tree
                + ", which omits a layer: the histories do not exercise it");
    }
}
