package io.jato.records;

import io.jato.records.fixtures.Account;
import io.jato.records.fixtures.AppendDigit;
import io.jato.records.fixtures.Deposit;
import io.jato.records.fixtures.Trespass;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.Txn;
import io.jato.stm.TxnAbortedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Behaviour of the record runtime on the default protocol, driven through a record of the exact
 * shape the processor generates. Concurrent scenarios on every protocol are in cc-protocols'
 * {@code RecordContractTest}.
 */
class RecordTest {
    private final Stm stm = Stm.builder().statistics(true).build();
    private final Account acc = Account.create(stm, RecordLayout.SPLIT,
            new Account.Image().setOwner("ann").setFlags(3).setBalance(100).setOps(0));

    @AfterEach
    void quiescent() {
        assertNull(acc.checkQuiescent());
    }

    @Test
    void readsCommittedColumnsAndOwnWrites() {
        stm.run(t -> {
            assertEquals("ann", acc.owner(t));
            assertEquals(100, acc.balance(t));
            acc.setBalance(t, 150);
            assertEquals(150, acc.balance(t));
            assertEquals(0, acc.ops(t), "unwritten column of a written group comes from the record");
            acc.setOwner(t, "bob");
            assertEquals("bob", acc.owner(t));
            assertEquals(3, acc.flags(t));
        });
        Account.Image snap = acc.single().get();
        assertEquals(150, snap.balance());
        assertEquals("bob", snap.owner());
        assertEquals(3, snap.flags());
    }

    @Test
    void abortedWritesLeaveNoTrace() {
        assertThrows(IllegalStateException.class, () -> stm.run(t -> {
            acc.setBalance(t, -1);
            acc.update(t, new Deposit(5));
            throw new IllegalStateException("boom");
        }));
        assertEquals(100, acc.single().get().balance());
        assertEquals(0, acc.single().get().ops());
    }

    @Test
    void updaterAppliesAtCommitWithoutReadDependency() {
        stm.run(t -> {
            acc.update(t, new Deposit(5));
            acc.update(t, new Deposit(7));
        });
        Account.Image snap = acc.single().get();
        assertEquals(112, snap.balance());
        assertEquals(2, snap.ops());
    }

    @Test
    void readAfterUpdateSeesUpdatedValue() {
        long seen = stm.atomic(t -> {
            acc.update(t, new Deposit(5));
            long b = acc.balance(t);
            acc.update(t, new Deposit(1)); // applied at once: the group is now materialized
            assertEquals(106, acc.balance(t));
            return b;
        });
        assertEquals(105, seen);
        assertEquals(106, acc.single().get().balance());
    }

    @Test
    void setterAfterUpdateKeepsProgramOrder() {
        stm.run(t -> {
            acc.update(t, new AppendDigit(7));
            acc.setOps(t, 9);
            acc.update(t, new AppendDigit(1));
        });
        Account.Image snap = acc.single().get();
        assertEquals(100_71, snap.balance());
        assertEquals(9, snap.ops());
    }

    @Test
    void updateAfterSetterUsesTheSetValue() {
        stm.run(t -> {
            acc.setBalance(t, 4);
            acc.update(t, new AppendDigit(2));
        });
        assertEquals(42, acc.single().get().balance());
    }

    @Test
    void updaterTouchingAnotherGroupIsRejectedAndNothingIsWritten() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> stm.run(t -> {
            acc.setOwner(t, "zed");
            acc.update(t, new Trespass());
        }));
        assertTrue(e.getMessage().contains("flags"), e.getMessage());
        assertTrue(e.getMessage().contains(Trespass.class.getName()), e.getMessage());
        assertEquals("ann", acc.single().get().owner());
    }

    @Test
    void lambdaUpdaterIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> stm.run(t -> acc.update(t, r -> r.setBalance(1))));
        assertTrue(e.getMessage().contains("@Commutative"), e.getMessage());
    }

    @Test
    void writeInReadOnlyTransactionIsRejected() {
        assertThrows(IllegalStateException.class, () -> stm.readOnly(t -> {
            acc.update(t, new Deposit(1));
            return null;
        }));
        assertEquals(100, acc.single().get().balance());
    }

    @Test
    void recordOfAnotherStoreIsRejected() {
        Stm other = Stm.create();
        assertThrows(IllegalStateException.class, () -> other.run(acc::ops));
    }

    @Test
    void nonTransactionalViewRefusesToRunInsideTransaction() {
        assertThrows(IllegalStateException.class, () -> stm.run(t -> acc.single().get()));
        acc.single().update(new Deposit(1));
        assertEquals(101, acc.single().get().balance());
    }

    @Test
    void concurrentBlindUpdatersNeverAbortOnValidation() throws Exception {
        int threads = 2;
        int perThread = 20_000;
        StmStatistics before = stm.statistics();
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            ts[i] = new Thread(() -> {
                for (int k = 0; k < perThread; k++) {
                    stm.run(t -> acc.update(t, new Deposit(1)));
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        Account.Image snap = acc.single().get();
        assertEquals(100 + threads * perThread, snap.balance());
        assertEquals(threads * perThread, snap.ops());
        StmStatistics d = stm.statistics().minus(before);
        assertEquals(0, d.aborts(io.jato.stm.AbortCause.READ_VALIDATION), "updaters take no read dependency");
    }

    @Test
    void maxAttemptsExceptionCarriesCause() {
        Stm tight = Stm.builder().maxAttempts(1).build();
        Account a = Account.create(tight);
        assertThrows(TxnAbortedException.class, () -> tight.run(Txn::abort));
        tight.run(t -> a.setOps(t, 1));
        assertEquals(1, a.single().get().ops());
    }

    /**
     * A record is its first group's version item, but what an application sees of it is its columns
     * and the record API: no lock, version or CAS operation of the protocol slots (those are
     * reached through the SPI's {@code Items}).
     */
    @Test
    void aRecordShowsItsUserNoProtocolSlotOperations() {
        java.util.List<String> leaked = new java.util.ArrayList<>();
        for (java.lang.reflect.Method m : Account.class.getMethods()) {
            if (m.getDeclaringClass().getPackageName().equals("io.jato.stm.spi")) {
                leaked.add(m.getDeclaringClass().getSimpleName() + "." + m.getName());
            }
        }
        assertTrue(leaked.isEmpty(), "public SPI methods on a record: " + leaked);
    }
}
