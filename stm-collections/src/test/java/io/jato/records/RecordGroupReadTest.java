package io.jato.records;

import io.jato.records.fixtures.Account;
import io.jato.records.fixtures.Deposit;
import io.jato.stm.Stm;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code readGroup}: a group's columns copied into an image under one observation of the group's
 * version. Committed values, the transaction's own writes and pending updaters, the columns of
 * other groups left alone, one access-set entry, bad input refused before anything is read, and a
 * read that races a writer never commits a mix of two versions.
 */
class RecordGroupReadTest {

    private static Account account(Stm stm, RecordLayout layout) {
        return Account.create(stm, layout, new Account.Image().setOwner("ann").setFlags(3).setBalance(100).setOps(1));
    }

    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void copiesTheCommittedColumnsOfOneGroupOnly(RecordLayout layout) {
        Stm stm = Stm.create();
        Account acc = account(stm, layout);
        Account.Image into = new Account.Image().setOwner("untouched").setFlags(-1);
        Account.Image got = stm.atomic(t -> acc.readGroup(t, Account.GROUP_HOT, into));
        assertSame(into, got);
        assertEquals(100, got.balance());
        assertEquals(1, got.ops());
        assertEquals("untouched", got.owner(), "a column of another group was overwritten");
        assertEquals(-1, got.flags());
        stm.readOnly(t -> acc.readGroup(t, Account.GROUP_DEFAULT, into));
        assertEquals("ann", into.owner());
        assertEquals(3, into.flags());
        assertNull(acc.checkQuiescent());
    }

    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void seesTheTransactionsOwnWritesAndUpdaters(RecordLayout layout) {
        Stm stm = Stm.create();
        Account acc = account(stm, layout);
        Account.Image into = new Account.Image();
        stm.run(t -> {
            acc.setBalance(t, 150);
            acc.update(t, new Deposit(5));
            acc.readGroup(t, Account.GROUP_HOT, into);
            assertEquals(155, into.balance());
            assertEquals(2, into.ops());
            acc.setOwner(t, "bob");
            acc.readGroup(t, Account.GROUP_DEFAULT, into);
            assertEquals("bob", into.owner());
            assertEquals(3, into.flags());
        });
        assertEquals(155, acc.single().get().balance());
        assertNull(acc.checkQuiescent());
    }

    @Test
    void oneEntryForTheWholeGroup() {
        Stm stm = Stm.create();
        Account acc = account(stm, RecordLayout.SPLIT);
        int entries = stm.atomic(t -> {
            acc.readGroup(t, Account.GROUP_HOT, new Account.Image());
            acc.readGroup(t, Account.GROUP_DEFAULT, new Account.Image());
            return TxnContext.of(t, stm).size();
        });
        assertEquals(2, entries);
    }

    @Test
    void anImageWithSetterMarksIsFilledCompletely() {
        Stm stm = Stm.create();
        Account acc = account(stm, RecordLayout.SPLIT);
        // A caller's image built with setters: those columns must still be overwritten.
        Account.Image into = new Account.Image().setBalance(-7).setOps(-7);
        stm.run(t -> acc.readGroup(t, Account.GROUP_HOT, into));
        assertEquals(100, into.balance());
        assertEquals(1, into.ops());
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsRead() {
        Stm stm = Stm.create();
        Account acc = account(stm, RecordLayout.SPLIT);
        stm.run(t -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> acc.readGroup(t, 2, new Account.Image()));
            assertTrue(e.getMessage().contains("no group 2 in Account"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> acc.readGroup(t, -1, new Account.Image()));
            assertThrows(NullPointerException.class, () -> acc.readGroup(t, Account.GROUP_HOT, null));
            assertEquals(0, TxnContext.of(t, stm).size(), "a refused read left an entry");
        });
    }

    /** A writer keeps balance == ops * 10; a group read never commits a pair that breaks it. */
    @Test
    void aGroupReadNeverCommitsTwoVersionsMixed() throws InterruptedException {
        Stm stm = Stm.create();
        Account acc = Account.create(stm, RecordLayout.SPLIT, new Account.Image().setBalance(0).setOps(0));
        AtomicInteger stop = new AtomicInteger();
        Thread writer = new Thread(() -> {
            for (int i = 1; stop.get() == 0; i++) {
                int n = i;
                stm.run(t -> {
                    acc.setOps(t, n);
                    acc.setBalance(t, n * 10L);
                });
            }
        });
        writer.start();
        try {
            Account.Image into = new Account.Image();
            for (int i = 0; i < 20_000; i++) {
                stm.readOnly(t -> acc.readGroup(t, Account.GROUP_HOT, into));
                assertEquals(into.ops() * 10L, into.balance(), "torn group read committed");
            }
        } finally {
            stop.set(1);
            writer.join();
        }
        assertNull(acc.checkQuiescent());
    }
}
