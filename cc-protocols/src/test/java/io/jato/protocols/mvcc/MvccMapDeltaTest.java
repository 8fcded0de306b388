package io.jato.protocols.mvcc;

import io.jato.collections.CommutativeUpdater;
import io.jato.collections.TxCounter;
import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongHashMap;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.TxnAbortedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Delta versions of a hash map value's {@link CommutativeUpdater}s under {@code mvcc} (docs/mvcc.md,
 * "Delta versions"): commutative updates of one key join its delta group instead of locking it,
 * an updater that fails on the running result changes nothing, readers see exactly the updates
 * committed at or below their timestamp, and an update whose key was deleted meanwhile retries.
 * With the option {@link MvccProtocol#UPDATER_DELTAS}.
 */
@Timeout(120)
class MvccMapDeltaTest {
    private static final CommutativeUpdater<Long> PLUS_ONE = v -> v + 1;

    private static long conflicts(StmStatistics d) {
        return d.aborts(AbortCause.LOCK_BUSY) + d.aborts(AbortCause.READ_LOCKED) + d.aborts(AbortCause.READ_BUSY)
                + d.aborts(AbortCause.READ_VALIDATION) + d.aborts(AbortCause.TIMESTAMP_ORDER);
    }

    private static CommutativeUpdater<Long> plus(long n) {
        return v -> v + n;
    }

    /**
     * Commutative updates and merges of a key commit while another update of it is held inside its
     * commit; a plain (non-commutative) updater of the same key cannot, and gives up.
     */
    @Test
    void commutativeUpdatesCommitWhileAnotherIsInsideItsCommit() throws Exception {
        // maxAttempts 2: an exclusive write waits for the held member's group, aborts twice, gives up.
        Stm stm = MvccRecordDeltaTest.withUpdaterDeltas().maxAttempts(2).build();
        TxHashMap<String, Long> map = new TxHashMap<>(stm);
        TxLongHashMap<Long> byId = new TxLongHashMap<>(stm);
        map.single().put("k", 100L);
        byId.single().put(7, 100L);
        TxCounter other = new TxCounter(stm);
        StmStatistics d;
        TxnAbortedException plain;
        HeldCommit held = new HeldCommit(stm, txn -> {
            map.update(txn, "k", PLUS_ONE);
            byId.update(txn, 7, PLUS_ONE);
        }, other);
        try (held) {
            StmStatistics before = stm.statistics();
            for (int i = 0; i < 5; i++) {
                stm.run(txn -> {
                    assertTrue(map.update(txn, "k", plus(10)));
                    byId.merge(txn, 7, 0L, plus(10));
                });
            }
            d = stm.statistics().minus(before);
            plain = assertThrows(TxnAbortedException.class,
                    () -> stm.run(txn -> map.update(txn, "k", v -> v * 2)));
        }
        assertNull(held.failure());
        assertEquals(0, conflicts(d), "commutative updaters aborted each other: " + d);
        assertEquals(AbortCause.LOCK_BUSY, plain.abortCause(), plain.getMessage());
        assertEquals(151L, map.single().get("k"));
        assertEquals(151L, byId.single().get(7));
        assertNull(map.checkQuiescent());
        assertNull(byId.checkQuiescent());
    }

    /**
     * A commutative updater that fails on the group's running result (not on the value it was
     * scheduled over) fails its own commit alone: the caller gets its exception, nothing of that
     * transaction is visible, and the key and the thread stay usable. So does one returning null.
     */
    @Test
    void anUpdaterThatFailsOnTheRunningResultChangesNothing() throws Exception {
        Stm stm = MvccRecordDeltaTest.withUpdaterDeltas().maxAttempts(50).build();
        TxHashMap<String, Long> map = new TxHashMap<>(stm);
        map.single().put("k", 100L);
        TxCounter other = new TxCounter(stm);
        CommutativeUpdater<Long> capped = v -> {
            if (v + 100 > 250) {
                throw new IllegalStateException("value " + (v + 100) + " above the cap 250");
            }
            return v + 100;
        };
        HeldCommit held = new HeldCommit(stm, txn -> map.update(txn, "k", capped), other);
        try (held) {
            stm.run(txn -> map.update(txn, "k", plus(100)));
        }
        Throwable failure = held.failure();
        assertInstanceOf(IllegalStateException.class, failure, () -> "expected the updater's exception, got " + failure);
        assertEquals(200L, map.single().get("k"));
        assertEquals(0, other.single().get(), "the failed transaction's other write is not visible");
        assertNull(map.checkQuiescent());
        assertNull(other.checkQuiescent());

        CommutativeUpdater<Long> nullAbove = v -> v > 200 ? null : v + 1;
        HeldCommit returnsNull = new HeldCommit(stm, txn -> map.update(txn, "k", nullAbove), other);
        try (returnsNull) {
            stm.run(txn -> map.update(txn, "k", PLUS_ONE));
        }
        assertInstanceOf(NullPointerException.class, returnsNull.failure());
        assertTrue(returnsNull.failure().getMessage().contains("returned null for key k"),
                returnsNull.failure().getMessage());
        assertEquals(201L, map.single().get("k"));
        assertNull(map.checkQuiescent());
        stm.run(txn -> map.update(txn, "k", PLUS_ONE));
        assertEquals(202L, map.single().get("k"));
    }

    /**
     * An update scheduled over a present key whose delete commits before the update's commit
     * cannot apply: its delta group is not opened over the deleted value; the transaction retries
     * and finds the key absent.
     */
    @Test
    void anUpdateOfAKeyDeletedMeanwhileRetriesAndFindsItAbsent() throws Exception {
        Stm stm = MvccRecordDeltaTest.withUpdaterDeltas().build();
        TxHashMap<String, Long> map = new TxHashMap<>(stm);
        map.single().put("k", 1L);
        AtomicInteger attempts = new AtomicInteger();
        boolean present = stm.atomic(txn -> {
            boolean p = map.update(txn, "k", PLUS_ONE);
            if (attempts.getAndIncrement() == 0) {
                Thread deleter = new Thread(() -> stm.run(t -> map.remove(t, "k")));
                deleter.start();
                try {
                    deleter.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            return p;
        });
        assertEquals(2, attempts.get());
        assertFalse(present);
        assertNull(map.single().get("k"));
        assertNull(map.checkQuiescent());
    }

    /**
     * Two keys always updated together by commutative updaters only; snapshots and tracked
     * readers taken meanwhile must see them equal, and no update may be lost.
     */
    @Test
    void readersSeeOneStateAcrossMapDeltaGroups() throws Exception {
        Stm stm = MvccRecordDeltaTest.withUpdaterDeltas().build();
        TxHashMap<String, Long> map = new TxHashMap<>(stm);
        map.single().put("a", 0L);
        map.single().put("b", 0L);
        int each = Protocols.scaled(3_000);
        PairedReaders.run(stm, each, i -> txn -> {
            map.update(txn, "a", plus(1 + (i & 3)));
            map.merge(txn, "b", 0L, plus(1 + (i & 3)));
        }, txn -> new long[] {map.get(txn, "a"), map.get(txn, "b")});
        long expected = 0;
        for (int i = 0; i < each; i++) {
            expected += 1 + (i & 3);
        }
        assertEquals(2 * expected, map.single().get("a"), "an update was lost or applied twice");
        assertEquals(2 * expected, map.single().get("b"));
        assertNull(map.checkQuiescent());
    }
}
