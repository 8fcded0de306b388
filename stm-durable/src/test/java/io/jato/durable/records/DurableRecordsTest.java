package io.jato.durable.records;

import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.durable.Codecs;
import io.jato.durable.CorruptFileException;
import io.jato.durable.DurabilityMode;
import io.jato.durable.DurableLongMap;
import io.jato.durable.DurableStore;
import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records as durable values: a row put into a long-keyed durable map is logged whole, every later
 * write to its columns (setters, commit-time updaters, from any code) is logged as the groups it
 * wrote, and recovery rebuilds each row from its last put and the later group writes — in the
 * split and the coarse layout, in hash and sorted maps, through checkpoints.
 */
class DurableRecordsTest {
    @TempDir
    Path dir;

    /** One opening of the store: a hash table and a sorted table of rows. */
    static final class Db implements AutoCloseable {
        final Stm stm;
        final RecordLayout layout;
        final TxLongHashMap<Row> hashRows;
        final TxLongSortedMap<Row> sortedRows;
        final DurableStore store;
        final DurableLongMap<Row> hash;
        final DurableLongMap<Row> sorted;

        Db(Path dir, RecordLayout layout) {
            this(dir, layout, (String) null);
        }

        /** @param protocol the store's protocol, null for the default */
        Db(Path dir, RecordLayout layout, String protocol) {
            this(dir, layout, protocol == null ? Stm.builder().build() : Stm.builder().protocol(protocol).build());
        }

        Db(Path dir, RecordLayout layout, Stm stm) {
            this.stm = stm;
            this.layout = layout;
            hashRows = new TxLongHashMap<>(stm);
            sortedRows = new TxLongSortedMap<>(stm);
            store = DurableStore.builder(dir, stm)
                    .mode(DurabilityMode.DURABLE)
                    .epochMillis(2)
                    .longMap("rows", hashRows, Codecs.records(() -> Row.create(stm, layout)))
                    .longMap("sorted-rows", sortedRows, Codecs.records(() -> Row.create(stm, layout)))
                    .open();
            hash = store.longMap("rows");
            sorted = store.longMap("sorted-rows");
        }

        Row row(String owner) {
            return Row.create(stm, layout, new Row.Image().setOwner(owner).setTier(RowSpec.Tier.BASIC));
        }

        @Override
        public void close() {
            store.close();
        }
    }

    static String describe(Row r) {
        if (r == null) {
            return "absent";
        }
        Row.Image i = r.single().get();
        return i.owner() + "/" + i.tier() + "/" + i.flagged() + " balance " + i.balance() + " x" + i.transfers()
                + " audit " + i.note() + "/" + i.score() + "/" + (int) i.mark();
    }

    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void rowsAndTheirColumnWritesSurviveAReopen(RecordLayout layout) {
        try (Db db = new Db(dir, layout)) {
            db.store.atomic(tx -> {
                db.hash.put(tx, 1, db.row("ann"));
                db.hash.put(tx, 2, db.row("bob"));
                db.sorted.put(tx, -5, db.row("cy"));
                return null;
            });
            // Setters on a stored row, read from the map by ordinary code.
            db.store.atomic(tx -> {
                Row r = db.hashRows.get(tx, 1);
                r.setBalance(tx, 100);
                r.setNote(tx, "héllo ☃"); // not ASCII: the UTF-8 path
                r.setTier(tx, RowSpec.Tier.GOLD);
                return null;
            });
            // A commit-time updater and a setter of another group.
            db.store.atomic(tx -> {
                db.hashRows.get(tx, 2).update(tx, new Deposit(7));
                db.sortedRows.get(tx, -5).setScore(tx, -0.0);
                db.sortedRows.get(tx, -5).setMark(tx, '\uffff');
                return null;
            });
            db.store.atomic(tx -> {
                db.hashRows.get(tx, 2).update(tx, new Deposit(5));
                db.hashRows.get(tx, 2).setFlagged(tx, true);
                return null;
            });
            assertEquals("ann/GOLD/false balance 100 x0 audit héllo ☃/0.0/0", describe(db.hashRows.single().get(1)));
        }
        try (Db db = new Db(dir, layout)) {
            assertEquals("ann/GOLD/false balance 100 x0 audit héllo ☃/0.0/0", describe(db.hashRows.single().get(1)));
            assertEquals("bob/BASIC/true balance 12 x2 audit null/0.0/0", describe(db.hashRows.single().get(2)));
            assertEquals("cy/BASIC/false balance 0 x0 audit null/-0.0/65535", describe(db.sortedRows.single().get(-5)));
            // Recovered rows are watched: their writes are logged too.
            db.store.atomic(tx -> {
                db.hashRows.get(tx, 1).setBalance(tx, 101);
                return null;
            });
        }
        try (Db db = new Db(dir, layout)) {
            assertEquals("ann/GOLD/false balance 101 x0 audit héllo ☃/0.0/0", describe(db.hashRows.single().get(1)));
        }
    }

    @Test
    void writesBeforeAndAfterThePutInOneTransactionAreLogged() {
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            db.store.atomic(tx -> {
                Row r = db.row("dee");
                r.setBalance(tx, 40); // before the put: the put logs the row as the commit installs it
                db.hash.put(tx, 4, r);
                r.setNote(tx, "after"); // after the put, same transaction
                r.update(tx, new Deposit(2));
                return null;
            });
        }
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            assertEquals("dee/BASIC/false balance 42 x1 audit after/0.0/0", describe(db.hashRows.single().get(4)));
        }
    }

    @Test
    void aRemovedRowsLaterWritesAreNotLoggedUnderItsOldKey() {
        AtomicReference<Row> removed = new AtomicReference<>();
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            db.store.atomic(tx -> db.hash.put(tx, 9, db.row("old")));
            db.store.atomic(tx -> {
                removed.set(db.hash.remove(tx, 9));
                return null;
            });
            db.store.atomic(tx -> db.hash.put(tx, 9, db.row("new")));
            // Code that kept the removed row writes it: not the row stored at 9 any more.
            db.store.atomic(tx -> {
                removed.get().setBalance(tx, 666);
                removed.get().setOwner(tx, "stale");
                return null;
            });
            assertEquals("new/BASIC/false balance 0 x0 audit null/0.0/0", describe(db.hashRows.single().get(9)));
        }
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            assertEquals("new/BASIC/false balance 0 x0 audit null/0.0/0", describe(db.hashRows.single().get(9)));
        }
    }

    @Test
    void aRowIsStoredUnderOneKeyAndAFailedPutLeavesNoClaim() {
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            Row r = db.row("eve");
            // An attempt that puts the row and then fails: the row is not stored anywhere.
            assertThrows(IllegalStateException.class, () -> db.store.atomic(tx -> {
                db.hash.put(tx, 1, r);
                throw new IllegalStateException("user failure");
            }));
            db.store.atomic(tx -> db.hash.put(tx, 2, r)); // so it may go under another key
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.store.atomic(tx -> db.sorted.put(tx, 3, r)));
            assertTrue(e.getMessage().contains("'rows' at key 2"), e.getMessage());
            assertNull(db.sortedRows.single().get(3), "a refused put changes nothing");
            assertSame(r, db.hashRows.single().get(2));
            assertNull(db.hashRows.single().get(1));
            // The same row under its own key again is fine (no change of key).
            db.store.atomic(tx -> db.hash.put(tx, 2, r));
            db.store.atomic(tx -> {
                r.setBalance(tx, 3);
                return null;
            });
        }
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            assertNull(db.hashRows.single().get(1));
            assertEquals("eve/BASIC/false balance 3 x0 audit null/0.0/0", describe(db.hashRows.single().get(2)));
        }
    }

    @Test
    void aBulkLoadIsDurableFromAdoptLoadedOn() {
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            for (long k = 0; k < 100; k++) {
                db.hashRows.single().put(k, db.row("loaded" + k));
            }
            db.sortedRows.single().put(7, db.row("sorted7"));
            assertNotNull(db.store.adoptLoaded());
            db.store.atomic(tx -> {
                db.hashRows.get(tx, 3).setBalance(tx, 33);
                db.sortedRows.get(tx, 7).update(tx, new Deposit(4));
                return null;
            });
        }
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            assertEquals(100, db.hashRows.single().size());
            assertEquals("loaded99/BASIC/false balance 0 x0 audit null/0.0/0", describe(db.hashRows.single().get(99)));
            assertEquals("loaded3/BASIC/false balance 33 x0 audit null/0.0/0", describe(db.hashRows.single().get(3)));
            assertEquals("sorted7/BASIC/false balance 4 x1 audit null/0.0/0", describe(db.sortedRows.single().get(7)));
        }
    }

    @Test
    void aLogOfOtherRowsIsRefusedNamingTheFile() {
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            db.store.atomic(tx -> db.hash.put(tx, 1, db.row("ann")));
            db.store.atomic(tx -> {
                db.hashRows.get(tx, 1).setNote(tx, "group 2");
                return null;
            });
        }
        Stm stm = Stm.builder().build();
        TxLongHashMap<Slim> slim = new TxLongHashMap<>(stm);
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> DurableStore.builder(dir, stm)
                .longMap("rows", slim, Codecs.records(() -> Slim.create(stm)))
                .longMap("sorted-rows", new TxLongSortedMap<Slim>(stm), Codecs.records(() -> Slim.create(stm)))
                .open());
        assertTrue(e.getMessage().contains(".jlog") && e.getMessage().contains("'rows'"), e.getMessage());
        assertEquals(0, slim.single().size());
    }

    @Test
    void aRowOfAnotherClassIsRefused() {
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            @SuppressWarnings({"unchecked", "rawtypes"})
            DurableLongMap<Object> raw = (DurableLongMap) db.hash;
            assertThrows(IllegalArgumentException.class, () -> db.store.atomic(tx -> raw.put(tx, 1, "not a row")));
            assertNull(db.hashRows.single().get(1));
        }
    }

    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void concurrentWritersAndACheckpointRecoverExactlyTheLastState(RecordLayout layout) throws Exception {
        runAndRecover(dir, null, layout, 4, 1500);
    }

    @Test
    void everyProtocolLogsRowWritesAndRecoversThem() throws Exception {
        List<String> tried = new ArrayList<>();
        for (String protocol : Stm.availableProtocols()) {
            if (protocol.startsWith("test-") || protocol.equals("none")) {
                continue;
            }
            tried.add(protocol);
            runAndRecover(Files.createDirectory(dir.resolve(protocol)), protocol, RecordLayout.SPLIT, 2, 300);
        }
        assertTrue(tried.size() > 1, "protocols tried: " + tried);
    }

    @Test
    void storesMixingProtocolsLogAndRecoverRows() throws Exception {
        // Rows, their maps and the log stripes bound to the store's protocols in turn, so each
        // transaction's writes span two protocols (docs/mixed-protocols.md).
        for (String[] pair : new String[][] {{"occ", "tictoc"}, {"mvcc", "occ"}, {"swisstm", "mvcc"}, {"2pl", "occ"}}) {
            String name = pair[0] + "+" + pair[1];
            runAndRecover(Files.createDirectory(dir.resolve(name)), name, () -> Stm.builder().protocol(pair[0])
                    .objectProtocol(pair[1]).rotateObjectProtocols(true).build(), RecordLayout.SPLIT, 2, 300);
        }
    }

    @Test
    void anUpdaterThatThrowsAtCommitRollsTheDurableCommitBack() {
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            db.store.atomic(tx -> db.hash.put(tx, 1, db.row("ann")));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> db.store.atomic(tx -> {
                Row r = db.hashRows.get(tx, 1);
                r.setNote(tx, "with the failing update");
                r.update(tx, new Explode());
                return null;
            }));
            assertEquals("updater failure", e.getMessage());
            assertEquals("ann/BASIC/false balance 0 x0 audit null/0.0/0", describe(db.hashRows.single().get(1)),
                    "nothing of the failed commit is visible");
            assertNull(db.hashRows.checkQuiescent(), "no lock left held");
            assertNull(db.hashRows.single().get(1).checkQuiescent(), "no row lock left held");
            // The thread and the store go on: the next commit is logged and recovered.
            db.store.atomic(tx -> {
                db.hashRows.get(tx, 1).update(tx, new Deposit(9));
                return null;
            });
        }
        try (Db db = new Db(dir, RecordLayout.SPLIT)) {
            assertEquals("ann/BASIC/false balance 9 x1 audit null/0.0/0", describe(db.hashRows.single().get(1)));
        }
    }

    /**
     * Threads transfer between rows (a setter and a commit-time updater), write other groups and
     * replace whole rows, with a checkpoint in the middle; after a reopen every row must read as
     * it did at close.
     */
    private static void runAndRecover(Path dir, String protocol, RecordLayout layout, int threadCount, int txns)
            throws Exception {
        runAndRecover(dir, protocol, () -> Stm.builder().protocol(protocol == null ? "occ" : protocol).build(), layout,
                threadCount, txns);
    }

    private static void runAndRecover(Path dir, String protocol, Supplier<Stm> stms, RecordLayout layout,
                                      int threadCount, int txns) throws Exception {
        int rows = 64;
        TreeMap<Long, String> expected = new TreeMap<>();
        Stm stm = stms.get();
        try (Db db = new Db(dir, layout, stm)) {
            db.store.atomic(tx -> {
                for (int k = 0; k < rows; k++) {
                    (k % 2 == 0 ? db.hash : db.sorted).put(tx, k, db.row("r" + k));
                }
                return null;
            });
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int t = 0; t < threadCount; t++) {
                int seed = t;
                threads.add(new Thread(() -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    try {
                        for (int i = 0; i < txns; i++) {
                            int a = rnd.nextInt(rows);
                            int b = rnd.nextInt(rows);
                            int op = rnd.nextInt(4);
                            db.store.atomic(tx -> {
                                Row ra = a % 2 == 0 ? db.hashRows.get(tx, a) : db.sortedRows.get(tx, a);
                                Row rb = b % 2 == 0 ? db.hashRows.get(tx, b) : db.sortedRows.get(tx, b);
                                switch (op) {
                                    case 0 -> {
                                        ra.setBalance(tx, ra.balance(tx) - 1);
                                        rb.update(tx, new Deposit(1));
                                    }
                                    case 1 -> ra.setNote(tx, "n" + seed + "." + rnd.nextInt(1000));
                                    case 2 -> {
                                        // Replace a row with a fresh one carrying its columns on.
                                        Row fresh = db.row(ra.owner(tx) + "'");
                                        fresh.setBalance(tx, ra.balance(tx));
                                        fresh.setTransfers(tx, ra.transfers(tx));
                                        (a % 2 == 0 ? db.hash : db.sorted).put(tx, a, fresh);
                                    }
                                    default -> rb.setScore(tx, rb.score(tx) + 0.5);
                                }
                                return null;
                            });
                            if (seed == 0 && i == txns / 2) {
                                db.store.checkpoint();
                            }
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(failures.isEmpty(), () -> "worker failed: " + failures);
            long sum = 0;
            for (long k = 0; k < rows; k++) {
                Row r = k % 2 == 0 ? db.hashRows.single().get(k) : db.sortedRows.single().get(k);
                assertNotNull(r);
                expected.put(k, describe(r));
                sum += r.single().get().balance();
            }
            if (stm.capabilities().serializable()) {
                // Only a serializable store keeps the total: at a weaker level a transfer's blind
                // deposit into a row that a concurrent replacement (case 2) copied and unlinked
                // is a write skew (each read what the other wrote: the map key, the balance),
                // which tictoc-si and tictoc-rr allow (docs/tictoc.md). What this test is about,
                // recovering exactly the state at close, holds at every level and is checked below.
                assertEquals(0, sum, protocol + ": transfers keep the total");
            }
        }
        try (Db db = new Db(dir, layout, stms.get())) {
            assertNotNull(db.store.recoveryReport().checkpoint(), db.store.recoveryReport().toString());
            for (long k = 0; k < rows; k++) {
                Row r = k % 2 == 0 ? db.hashRows.single().get(k) : db.sortedRows.single().get(k);
                assertEquals(expected.get(k), describe(r), protocol + ", row " + k + "; " + db.store.recoveryReport());
            }
        }
    }
}
