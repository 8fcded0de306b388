package io.jato.records;

import io.jato.collections.TxCounter;
import io.jato.collections.TxHashMap;
import io.jato.records.fixtures.Account;
import io.jato.records.fixtures.AppendDigit;
import io.jato.records.fixtures.Deposit;
import io.jato.stm.Stm;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a protocol learns about commit-time updates (the SPI an MVCC delta version or a shared
 * update lock needs): an entry whose write is operations only is flagged {@link Entry#UPDATE}, and
 * {@link Entry#COMMUTATIVE} while every operation is declared commutative; the participant lists
 * the operations; a blind write or a read of the pending value clears both flags.
 */
class UpdateOperationsTest {
    private static final int BOTH = Entry.UPDATE | Entry.COMMUTATIVE;

    private final Stm stm = Stm.create();
    /** Coarse layout: every group shares the record's own item, which the test can look up. */
    private final Account acc = Account.create(stm, RecordLayout.COARSE,
            new Account.Image().setOwner("ann").setBalance(100));

    private static int flags(TxnContext c, TxItem item) {
        return c.find(item).flags() & (BOTH | Entry.READ);
    }

    @Test
    void recordUpdatersAreOperationsWithTheirCommutativeBit() {
        Deposit d1 = new Deposit(5);
        Deposit d2 = new Deposit(7);
        AppendDigit a = new AppendDigit(3);
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            acc.update(t, d1);
            acc.update(t, d2);
            Entry e = c.find(acc);
            assertEquals(BOTH, flags(c, acc), "commutative updaters only, nothing read");
            assertEquals(2, e.participant().operationCount(c, e));
            assertSame(d1, e.participant().operation(c, e, 0));
            assertSame(d2, e.participant().operation(c, e, 1));
            acc.update(t, a);
            assertEquals(Entry.UPDATE, flags(c, acc), "an order-sensitive updater: still operations, not commutative");
            assertEquals(3, e.participant().operationCount(c, e));
        });
        assertEquals((100 + 12) * 10 + 3, acc.single().get().balance());
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            acc.update(t, d1);
            assertEquals(BOTH, flags(c, acc));
            acc.balance(t); // reading materializes: the value now depends on what was read
            assertEquals(Entry.READ, flags(c, acc));
        });
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            acc.setOwner(t, "bob");
            acc.update(t, d1);
            assertEquals(0, flags(c, acc), "a setter wrote blindly: not operations only");
        });
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            acc.update(t, d1);
            acc.setOwner(t, "cy");
            assertEquals(Entry.READ, flags(c, acc), "a setter after an update materializes the group");
        });
    }

    @Test
    void counterAddsAndMapUpdatersAreOperations() {
        TxCounter counter = new TxCounter(stm);
        TxHashMap<String, Long> map = new TxHashMap<>(stm, 16);
        map.single().put("k", 1L);
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            counter.add(t, 2);
            counter.add(t, 3);
            Entry e = c.find(counterItem(c));
            assertEquals(BOTH, e.flags() & BOTH, "adds commute");
            assertEquals(5, e.pendingLong(), "a counter's adds are one operation: their sum");
            counter.update(t, v -> v * 2);
            assertEquals(Entry.UPDATE, e.flags() & BOTH, "an updater does not commute with the add");
            assertEquals(List.of(5L), List.of(e.participant().operation(c, e, 0)));
            assertEquals(2, e.participant().operationCount(c, e));
            map.update(t, "k", v -> v + 1);
            Entry m = null;
            for (int i = 0; i < c.size(); i++) {
                Entry x = c.entryAt(i);
                if (x != e && x.has(Entry.WRITE)) {
                    m = x;
                }
            }
            assertEquals(Entry.UPDATE, m.flags() & BOTH, "a map updater is an operation");
            assertEquals(1, m.participant().operationCount(c, m));
            counter.get(t);
            assertEquals(0, e.flags() & BOTH, "reading the counter turns its operations into a value");
        });
        assertEquals(10, counter.single().get());
        assertEquals(2L, map.single().get("k"));
    }

    /** The counter's only entry: the first of the set in these single-counter transactions. */
    private static TxItem counterItem(TxnContext c) {
        return c.entryAt(0).item();
    }

    @Test
    void flagsAreOnlyForWrites() {
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            acc.balance(t);
            Entry e = c.find(acc);
            IllegalStateException ex = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> c.markUpdate(e, true));
            assertTrue(ex.getMessage().contains("not a write"), ex.getMessage());
        });
    }
}
