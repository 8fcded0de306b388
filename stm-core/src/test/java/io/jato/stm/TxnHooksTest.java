package io.jato.stm;

import io.jato.stm.spi.LongItem;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hooks and transaction-local values with the default protocol, where a conflict can be forced
 * deterministically (a write committed by another thread between the body's read and its commit).
 * The cross-protocol contract is in cc-protocols' TxnHooksContractTest.
 */
class TxnHooksTest {
    private final Stm stm = Stm.create();
    private final LongItem x = new LongItem(0);

    private long read(Txn t) {
        return LongCells.read(stm, t, x);
    }

    private void write(Txn t, long v) {
        LongCells.write(stm, t, x, v);
    }

    private long committed() {
        return stm.concurrencyControl().loadLong(x);
    }

    /** Commits a write of {@code v} from another thread, as a concurrent writer would. */
    private void concurrentWrite(long v) {
        CompletableFuture.runAsync(() -> stm.run(txn -> write(txn, v))).join();
    }

    @Test
    void afterRollbackRunsForEveryRolledBackAttemptAndItsOtherRegistrationsAreDiscarded() {
        List<String> log = new ArrayList<>();
        long r = stm.atomic(txn -> {
            int a = txn.attempt();
            long v = read(txn);
            txn.afterRollback(cause -> log.add("rollback " + a + " " + cause));
            txn.afterCommit(() -> log.add("commit " + a));
            txn.beforeCommit(t -> log.add("before " + a));
            if (a < 2) {
                concurrentWrite(v + 10);
            }
            write(txn, v + 1);
            return v;
        });
        assertEquals(20, r);
        assertEquals(21, committed());
        assertEquals(List.of("before 0", "rollback 0 READ_VALIDATION", "before 1", "rollback 1 READ_VALIDATION",
                "before 2", "commit 2"), log);
    }

    @Test
    void aTransactionLocalStartsAfreshInEveryAttempt() {
        TxnLocal<List<Integer>> seen = TxnLocal.withInitial(ArrayList::new);
        List<List<Integer>> atStart = new ArrayList<>();
        stm.run(txn -> {
            atStart.add(List.copyOf(seen.get(txn)));
            seen.get(txn).add(txn.attempt());
            long v = read(txn);
            if (txn.attempt() == 0) {
                concurrentWrite(v + 1);
            }
            write(txn, v + 1);
        });
        assertEquals(List.of(List.of(), List.of()), atStart, "a retried attempt must not see the last one's value");
    }

    @Test
    void aRollbackHookThatThrowsEndsTheTransactionWithoutRetry() {
        IllegalStateException boom = new IllegalStateException("boom");
        int[] attempts = {0};
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> stm.run(txn -> {
            attempts[0]++;
            long v = read(txn);
            txn.afterRollback(cause -> {
                throw boom;
            });
            concurrentWrite(v + 1);
            write(txn, v + 5);
        }));
        assertSame(boom, thrown);
        assertEquals(1, attempts[0]);
        assertEquals(1, committed(), "only the concurrent write committed");
        assertEquals(0, stm.statistics().commits() - 1, "the failed transaction did not commit");
        stm.run(txn -> write(txn, 7)); // the thread is usable
        assertEquals(7, committed());
        assertNull(stm.concurrencyControl().checkQuiescent(x));
    }

    @Test
    void aRollbackHookMayNotUseTheTransactionNorStartOneButMayUseSingleViews() {
        List<Throwable> refused = new ArrayList<>();
        List<Boolean> inside = new ArrayList<>();
        Txn[] kept = new Txn[1];
        assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            kept[0] = txn;
            txn.afterRollback(cause -> {
                inside.add(stm.inTransaction());
                try {
                    stm.run(t -> write(t, 99));
                } catch (IllegalStateException e) {
                    refused.add(e);
                }
                try {
                    kept[0].afterCommit(() -> { });
                } catch (IllegalStateException e) {
                    refused.add(e);
                }
            });
            throw txn.abort();
        }));
        assertEquals(List.of(false), inside, "single() views work in a rollback hook");
        assertEquals(2, refused.size());
        assertTrue(refused.get(0).getMessage().contains("after-rollback hook"), refused.get(0).getMessage());
        assertEquals(0, committed());
    }

    @Test
    void anAfterCommitHookMayRunATransactionOfTheSameStoreWithHooksOfItsOwn() {
        List<String> log = new ArrayList<>();
        stm.run(txn -> {
            write(txn, 1);
            txn.afterCommit(() -> {
                log.add("outer sees " + committed());
                stm.run(inner -> {
                    write(inner, read(inner) + 1);
                    inner.afterCommit(() -> log.add("inner sees " + committed()));
                });
            });
            txn.afterCommit(() -> log.add("outer second"));
        });
        assertEquals(List.of("outer sees 1", "inner sees 2", "outer second"), log);
        // The hook lists are reused: a later transaction with hooks still runs them once.
        stm.run(txn -> txn.afterCommit(() -> log.add("later")));
        assertEquals("later", log.get(log.size() - 1));
        assertEquals(4, log.size());
    }

    @Test
    void hooksRegisteredInANestedBlockBelongToTheOuterTransaction() {
        List<String> log = new ArrayList<>();
        stm.run(txn -> {
            stm.run(inner -> inner.afterCommit(() -> log.add("nested")));
            assertTrue(log.isEmpty(), "not before the outer transaction commits");
        });
        assertEquals(List.of("nested"), log);
    }

    @Test
    void registeringOutsideATransactionOrANullHookIsRefused() {
        Txn[] kept = new Txn[1];
        stm.run(txn -> {
            kept[0] = txn;
            NullPointerException e = assertThrows(NullPointerException.class, () -> txn.afterCommit(null));
            assertTrue(e.getMessage().contains("hook"), e.getMessage());
        });
        assertThrows(IllegalStateException.class, () -> kept[0].afterCommit(() -> { }));
        TxnLocal<String> local = TxnLocal.withInitial(() -> "x");
        assertThrows(IllegalStateException.class, () -> local.get(kept[0]));
        assertThrows(NullPointerException.class, () -> local.get(null));
        assertThrows(NullPointerException.class, () -> TxnLocal.withInitial(null));
        assertFalse(stm.inTransaction());
    }
}
