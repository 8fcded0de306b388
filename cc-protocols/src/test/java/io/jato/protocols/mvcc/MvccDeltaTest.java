package io.jato.protocols.mvcc;

import io.jato.collections.TxCounter;
import io.jato.collections.TxLong;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.TxnAbortedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Delta versions (seed 002 §6.1): commutative adds under {@code mvcc} join the item's delta group
 * instead of locking it, so adders never wait for or abort each other; snapshots read the exact
 * sum at their timestamp; a group is flattened after {@link DeltaGroup#MAX_JOINS} adds; full
 * writes and reads after deltas see the flattened value.
 */
@Timeout(60)
class MvccDeltaTest {

    /** Conflict causes: what two adders must not cause each other. */
    private static long conflicts(StmStatistics d) {
        return d.aborts(AbortCause.LOCK_BUSY) + d.aborts(AbortCause.READ_LOCKED) + d.aborts(AbortCause.READ_BUSY)
                + d.aborts(AbortCause.READ_VALIDATION) + d.aborts(AbortCause.TIMESTAMP_ORDER);
    }

    /** Holds a member of {@code counter}'s delta group inside its commit ({@link HeldCommit}). */
    private static HeldCommit heldAdder(Stm stm, TxCounter counter, TxCounter other) throws InterruptedException {
        return new HeldCommit(stm, txn -> counter.add(txn, 1), other);
    }

    @Test
    void anAdderCommitsWhileAnotherAdderOfTheSameCounterIsInsideItsCommit() throws Exception {
        // maxAttempts 2: without delta versions the second adder waits for the first one's lock,
        // aborts LOCK_BUSY twice and gives up.
        Stm stm = Protocols.builder(MvccProtocol.NAME).maxAttempts(2).build();
        TxCounter counter = new TxCounter(stm);
        TxCounter other = new TxCounter(stm);
        StmStatistics d;
        HeldCommit held = heldAdder(stm, counter, other);
        try (held) {
            StmStatistics before = stm.statistics();
            for (int i = 0; i < 5; i++) {
                stm.run(txn -> counter.add(txn, 10));
            }
            d = stm.statistics().minus(before);
        }
        assertNull(held.failure());
        assertEquals(0, conflicts(d), "adders aborted each other: " + d);
        assertEquals(51, counter.single().get());
        assertEquals(1, other.single().get());
        assertNull(counter.checkQuiescent());
    }

    /**
     * A full group refuses members: one that holds another lock aborts after the spin bound (it
     * could be part of a cycle); one that holds nothing waits for the group to close, then commits
     * (a bounded wait would abort it: maxAttempts 1 makes that a failure).
     */
    @Test
    void aGroupIsFlattenedAfterItsBoundAndRefusesFurtherMembers() throws Exception {
        Stm stm = Protocols.builder(MvccProtocol.NAME).maxAttempts(1).lockSpinLimit(50).build();
        TxCounter counter = new TxCounter(stm);
        TxCounter other = new TxCounter(stm);
        TxLong first = new TxLong(stm, 0);
        int joined = 0;
        TxnAbortedException refused;
        AtomicReference<Throwable> lateFailure = new AtomicReference<>();
        Thread late;
        HeldCommit held = heldAdder(stm, counter, other);
        try (held) {
            for (int i = 1; i < DeltaGroup.MAX_JOINS; i++) {
                stm.run(txn -> counter.add(txn, 1));
                joined++;
            }
            refused = assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
                first.set(txn, 1); // locked first: this adder holds a lock while it waits
                counter.add(txn, 1);
            }));
            long starts = stm.statistics().starts();
            late = new Thread(() -> {
                try {
                    stm.run(txn -> counter.add(txn, 100));
                } catch (Throwable e) {
                    lateFailure.set(e);
                }
            });
            late.start();
            while (stm.statistics().starts() == starts) {
                Thread.onSpinWait();
            }
            Thread.sleep(50); // long past the spin bound of 50: without the unbounded wait it aborts
        }
        late.join();
        assertNull(held.failure());
        assertNull(lateFailure.get(), "an adder holding no lock must wait for a full group, not abort");
        assertEquals(DeltaGroup.MAX_JOINS - 1, joined);
        assertEquals(AbortCause.LOCK_BUSY, refused.abortCause(), refused.getMessage());
        assertEquals(DeltaGroup.MAX_JOINS + 100, counter.single().get(), "the groups' adds are flattened in place");
        assertEquals(0, first.single().get());
        assertNull(counter.checkQuiescent());
    }

    @Test
    void twoAddersOfOneCounterCommitWithoutConflictAborts() throws Exception {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        TxCounter counter = new TxCounter(stm);
        int each = Protocols.scaled(5_000);
        StmStatistics before = stm.statistics();
        Workers.run(2, k -> {
            for (int i = 0; i < each; i++) {
                stm.run(txn -> counter.add(txn, 1));
            }
        });
        StmStatistics d = stm.statistics().minus(before);
        assertEquals(2L * each, counter.single().get());
        // Adders join each other's groups; an adder that holds no other lock waits for a full one.
        assertEquals(0, conflicts(d), "conflict aborts between adders: " + d);
        assertNull(counter.checkQuiescent());
    }

    /**
     * Two cells always added to together; snapshots taken meanwhile must see them equal (the exact
     * sums at one timestamp) and never decreasing; a reading writer (a full write after deltas)
     * moves both at once.
     */
    @Test
    void snapshotsSeeExactSumsAndFullWritesFollowDeltas() throws Exception {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        TxLong x = new TxLong(stm, 0);
        TxCounter y = new TxCounter(stm, 0);
        int each = Protocols.scaled(3_000);
        AtomicReference<String> bad = new AtomicReference<>();
        Workers.run(3, k -> {
            if (k < 2) {
                for (int i = 0; i < each; i++) {
                    if (k == 1 && i % 100 == 0) {
                        stm.run(txn -> {
                            long v = x.get(txn);
                            x.set(txn, v + 2);
                            y.add(txn, 2);
                        });
                    } else {
                        stm.run(txn -> {
                            x.add(txn, 1);
                            y.add(txn, 1);
                        });
                    }
                }
            } else {
                long last = -1;
                for (int i = 0; i < each; i++) {
                    long[] seen = stm.readOnly(txn -> new long[] {x.get(txn), y.get(txn)});
                    if (seen[0] != seen[1] || seen[0] < last) {
                        bad.compareAndSet(null, "snapshot " + seen[0] + "/" + seen[1] + " after " + last);
                    }
                    last = seen[0];
                }
            }
        });
        assertNull(bad.get());
        long expected = 2L * each + each / 100;
        assertEquals(expected, x.single().get());
        assertEquals(expected, y.single().get());
        assertNull(x.checkQuiescent());
        assertNull(y.checkQuiescent());
    }

    /** Transfers by commutative adds, audited by snapshots and by reading transactions. */
    @Test
    void bankInvariantWithCommutativeTransfers() throws Exception {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        int n = 8;
        long each = 1_000;
        TxLong[] accounts = new TxLong[n];
        TxCounter[] counters = new TxCounter[n];
        for (int i = 0; i < n; i++) {
            accounts[i] = new TxLong(stm, each);
            counters[i] = new TxCounter(stm, each);
        }
        int transfers = Protocols.scaled(3_000);
        AtomicReference<String> bad = new AtomicReference<>();
        Workers.run(3, k -> {
            java.util.SplittableRandom r = new java.util.SplittableRandom(k);
            for (int i = 0; i < transfers; i++) {
                int from = r.nextInt(n);
                int to = r.nextInt(n);
                long amount = r.nextInt(10);
                if (k < 2) {
                    stm.run(txn -> {
                        accounts[from].add(txn, -amount);
                        accounts[to].add(txn, amount);
                        counters[from].add(txn, -amount);
                        counters[to].add(txn, amount);
                    });
                } else {
                    boolean snapshot = (i & 1) == 0;
                    long[] sums = snapshot
                            ? stm.readOnly(txn -> sums(txn, accounts, counters))
                            : stm.atomic(txn -> sums(txn, accounts, counters));
                    if (sums[0] != n * each || sums[1] != n * each) {
                        bad.compareAndSet(null, (snapshot ? "snapshot" : "tracked") + " sums " + sums[0] + "/" + sums[1]);
                    }
                }
            }
        });
        assertNull(bad.get());
        long[] sums = stm.readOnly(txn -> sums(txn, accounts, counters));
        assertEquals(n * each, sums[0]);
        assertEquals(n * each, sums[1]);
        for (int i = 0; i < n; i++) {
            assertNull(accounts[i].checkQuiescent());
            assertNull(counters[i].checkQuiescent());
        }
    }

    /**
     * Delta groups and the horizon: a live snapshot keeps every group it may read (it reads a second
     * cell, added to with the first, after 200 adds); once it ends, the horizon passes and one more
     * add leaves the chain short.
     */
    @Test
    void aLiveSnapshotKeepsTheGroupsItMayReadAndTheyGoAfterIt() throws Exception {
        Stm stm = Protocols.store(MvccProtocol.NAME);
        MvccControl cc = (MvccControl) stm.concurrencyControl();
        TxLong x = new TxLong(stm, 5);
        TxLong y = new TxLong(stm, 5);
        CountDownLatch read = new CountDownLatch(1);
        CountDownLatch added = new CountDownLatch(1);
        AtomicReference<long[]> seen = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread snapshot = new Thread(() -> {
            try {
                seen.set(stm.readOnly(txn -> {
                    long first = x.get(txn);
                    read.countDown();
                    try {
                        added.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return new long[] {first, y.get(txn)};
                }));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        snapshot.start();
        read.await();
        for (int i = 0; i < 200; i++) {
            stm.run(txn -> {
                x.add(txn, 1);
                y.add(txn, 1);
            });
        }
        assertTrue(cc.chainLength(MvccGarbageTest.item(y)) > 100, "the snapshot's horizon keeps the groups");
        added.countDown();
        snapshot.join();
        assertNull(failure.get());
        assertEquals(5, seen.get()[0]);
        assertEquals(5, seen.get()[1], "the snapshot's later read sums to its timestamp");
        cc.advanceClock();
        stm.run(txn -> y.add(txn, 1));
        assertTrue(cc.chainLength(MvccGarbageTest.item(y)) <= 2, "chain after the snapshot: " + cc.chainLength(MvccGarbageTest.item(y)));
        assertEquals(206, y.single().get());
        assertEquals(205, x.single().get());
        assertNull(y.checkQuiescent());
    }

    private static long[] sums(io.jato.stm.Txn txn, TxLong[] accounts, TxCounter[] counters) {
        long a = 0;
        long c = 0;
        for (int i = 0; i < accounts.length; i++) {
            a += accounts[i].get(txn);
            c += counters[i].get(txn);
        }
        return new long[] {a, c};
    }
}
