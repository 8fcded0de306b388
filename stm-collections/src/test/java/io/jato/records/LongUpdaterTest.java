package io.jato.records;

import io.jato.records.fixtures.Account;
import io.jato.records.fixtures.AccountSpec;
import io.jato.records.fixtures.AppendDigitOf;
import io.jato.records.fixtures.Deposit;
import io.jato.records.fixtures.DepositBy;
import io.jato.stm.Stm;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Commit-time updaters that take their operand with the call ({@link RecordLongUpdater}): one
 * instance serves every operand, each call keeps its own operand, they mix in program order with
 * object updaters and setters, protocols that keep operations see each bound to its operand, and
 * misuse fails before anything changes.
 */
class LongUpdaterTest {
    private final Stm stm = Stm.create();

    private Account account(RecordLayout layout, long balance) {
        return Account.create(stm, layout, new Account.Image().setOwner("ann").setBalance(balance));
    }

    @Test
    void eachCallKeepsItsOwnOperandAndTheyApplyInProgramOrder() {
        for (RecordLayout layout : new RecordLayout[] {RecordLayout.SPLIT, RecordLayout.COARSE}) {
            Account a = account(layout, 1);
            stm.run(t -> {
                a.update(t, AppendDigitOf.INSTANCE, 2);
                a.update(t, new Deposit(5)); // an object updater between two operand calls
                a.update(t, AppendDigitOf.INSTANCE, 3);
            });
            assertEquals((12 + 5) * 10 + 3, a.single().get().balance(), layout.toString());
            stm.run(t -> {
                a.update(t, DepositBy.INSTANCE, 1000);
                // A read materializes the pending updaters with their operands; later calls apply at once.
                assertEquals(173 + 1000, a.balance(t));
                a.update(t, DepositBy.INSTANCE, 7);
                assertEquals(1180, a.balance(t));
                a.setBalance(t, 4);
                a.update(t, AppendDigitOf.INSTANCE, 9);
            });
            Account.Image im = a.single().get();
            assertEquals(49, im.balance(), layout.toString());
            assertEquals(1 + 2, im.ops(), "Deposit and DepositBy count their operations");
        }
    }

    @Test
    void commutativeLongUpdatersTakeNoReadDependencyAndShowAsBoundOperations() {
        Account a = account(RecordLayout.COARSE, 100);
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            a.update(t, DepositBy.INSTANCE, 5);
            a.update(t, DepositBy.INSTANCE, 7);
            Entry e = c.find(a);
            assertEquals(Entry.UPDATE | Entry.COMMUTATIVE, e.flags() & (Entry.UPDATE | Entry.COMMUTATIVE | Entry.READ));
            assertEquals(2, e.participant().operationCount(c, e));
            // What a protocol keeping operations holds: each updater bound to its own operand.
            Object second = e.participant().operation(c, e, 1);
            assertTrue(second instanceof RecordUpdater, String.valueOf(second));
            Object applied = e.participant().applyOperations(a,
                    e.participant().captureVersion(c, e), new Object[] {second, e.participant().operation(c, e, 0)});
            assertEquals(100 + 12, ((Account.Image) applied).balance());
            assertEquals(2, ((Account.Image) applied).ops());
            a.update(t, AppendDigitOf.INSTANCE, 1);
            assertEquals(Entry.UPDATE, e.flags() & (Entry.UPDATE | Entry.COMMUTATIVE | Entry.READ),
                    "an order-sensitive operand updater: still operations, no longer commutative");
        });
        assertEquals((100 + 12) * 10 + 1, a.single().get().balance());
    }

    @Test
    void outsideTransactionsTheSingleViewAppliesThem() {
        Account a = account(RecordLayout.SPLIT, 3);
        a.single().update(AppendDigitOf.INSTANCE, 4);
        a.single().update(DepositBy.INSTANCE, 60);
        assertEquals(94, a.single().get().balance());
        assertEquals(1, a.single().get().ops());
    }

    /** Both kinds in one class: what it does depends on which {@code update} scheduled it. */
    @Commutative(record = AccountSpec.class, group = "hot")
    static final class AddOneOrOperand implements Account.Updater, Account.LongUpdater {
        @Override
        public void apply(Account.Image r) {
            r.setBalance(r.balance() + 1);
        }

        @Override
        public void apply(Account.Image r, long operand) {
            r.setBalance(r.balance() + operand);
        }
    }

    @Test
    void aClassOfBothKindsRunsTheKindItWasScheduledAs() {
        AddOneOrOperand both = new AddOneOrOperand();
        for (RecordLayout layout : new RecordLayout[] {RecordLayout.SPLIT, RecordLayout.COARSE}) {
            Account a = account(layout, 0);
            // Pending at commit, then applied at once after a read materialized the group.
            stm.run(t -> {
                a.update(t, (Account.Updater) both);
                a.update(t, (Account.LongUpdater) both, 100);
            });
            assertEquals(101, a.single().get().balance(), layout.toString());
            stm.run(t -> {
                assertEquals(101, a.balance(t));
                a.update(t, (Account.LongUpdater) both, 1000);
                a.update(t, (Account.Updater) both);
            });
            assertEquals(1102, a.single().get().balance(), layout.toString());
            a.single().update((Account.Updater) both);
            a.single().update((Account.LongUpdater) both, 10_000);
            assertEquals(11_103, a.single().get().balance(), layout.toString());
        }
    }

    /** Implements the interface without the annotation that names its group. */
    static final class Unannotated implements Account.LongUpdater {
        @Override
        public void apply(Account.Image r, long operand) {
            r.setBalance(operand);
        }
    }

    /** Declares the hot group but writes a default-group column. */
    @Commutative(record = AccountSpec.class, group = "hot")
    static final class TrespassBy implements Account.LongUpdater {
        @Override
        public void apply(Account.Image r, long operand) {
            r.setFlags((int) operand);
        }
    }

    @Test
    void misuseFailsClearlyAndChangesNothing() {
        Account a = account(RecordLayout.SPLIT, 10);
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> stm.run(t -> a.update(t, (Account.LongUpdater) null, 1)));
        assertEquals("updater", npe.getMessage());
        IllegalArgumentException iae = assertThrows(IllegalArgumentException.class,
                () -> stm.run(t -> a.update(t, new Unannotated(), 1)));
        assertTrue(iae.getMessage().contains("must be a class annotated @Commutative or @CommitUpdater"), iae.getMessage());
        IllegalStateException ise = assertThrows(IllegalStateException.class, () -> stm.run(t -> {
            a.update(t, DepositBy.INSTANCE, 5);
            a.update(t, new TrespassBy(), 1);
        }));
        assertTrue(ise.getMessage().contains(TrespassBy.class.getName()) && ise.getMessage().contains("'flags'"),
                ise.getMessage());
        assertThrows(IllegalStateException.class, () -> a.single().update(new TrespassBy(), 1));
        Account.Image im = a.single().get();
        assertEquals(10, im.balance());
        assertEquals(0, im.flags());
        assertEquals(0, im.ops());
    }
}
