package io.jato.protocols.mvcc;

import io.jato.collections.TxCounter;
import io.jato.protocols.records.Account;
import io.jato.protocols.records.CappedDeposit;
import io.jato.protocols.records.Deposit;
import io.jato.protocols.suite.Protocols;
import io.jato.records.RecordLayout;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.TxnAbortedException;
import io.jato.stm.TxnFunction;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Delta versions of a record's {@code @Commutative} updaters under {@code mvcc} (docs/mvcc.md,
 * "Delta versions"): updaters of one record group join its delta group instead of locking it, a
 * member's updaters run before its point of no return (one that throws changes nothing), and
 * readers at any timestamp see the base with exactly the updaters committed at or below it. Only
 * with the option {@link MvccProtocol#UPDATER_DELTAS}; without it they stay exclusive writes.
 */
@Timeout(120)
class MvccRecordDeltaTest {
    private static final long OPENING = 1_000;

    /** Conflict causes: what two updaters of one group must not cause each other. */
    private static long conflicts(StmStatistics d) {
        return d.aborts(AbortCause.LOCK_BUSY) + d.aborts(AbortCause.READ_LOCKED) + d.aborts(AbortCause.READ_BUSY)
                + d.aborts(AbortCause.READ_VALIDATION) + d.aborts(AbortCause.TIMESTAMP_ORDER);
    }

    /** A builder for an {@code mvcc} store with {@link MvccProtocol#UPDATER_DELTAS} on. */
    static Stm.Builder withUpdaterDeltas() {
        return Protocols.builder(MvccProtocol.NAME).option(MvccProtocol.UPDATER_DELTAS, true);
    }

    private static Account account(Stm stm, RecordLayout layout) {
        return Account.create(stm, layout, new Account.Image().setOwner("o").setBalance(OPENING));
    }

    /** Holds a member of {@code account}'s hot group's delta group inside its commit ({@link HeldCommit}). */
    private static HeldCommit held(Stm stm, Account account, Account.Updater updater, TxCounter other)
            throws InterruptedException {
        return new HeldCommit(stm, txn -> account.update(txn, updater), other);
    }

    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void anUpdaterCommitsWhileAnotherUpdaterOfTheGroupIsInsideItsCommit(RecordLayout layout) throws Exception {
        // maxAttempts 2: without delta versions these updaters wait for the held one's lock,
        // abort LOCK_BUSY twice and give up.
        Stm stm = withUpdaterDeltas().maxAttempts(2).build();
        Account account = account(stm, layout);
        TxCounter other = new TxCounter(stm);
        fiveDepositsJoinTheHeldGroup(stm, account, held(stm, account, new Deposit(1), other));
        assertEquals(1, other.single().get());
    }

    /**
     * Runs five deposits of 10 into {@code account} while {@code held} (a deposit of 1 into it) is
     * inside its commit, then lets it finish: no deposit may abort on a conflict, and all six apply.
     */
    private static void fiveDepositsJoinTheHeldGroup(Stm stm, Account account, HeldCommit held) {
        StmStatistics d;
        try (held) {
            StmStatistics before = stm.statistics();
            for (int i = 0; i < 5; i++) {
                stm.run(txn -> account.update(txn, new Deposit(10)));
            }
            d = stm.statistics().minus(before);
            // Committed while the group is open: a snapshot now sees the five deposits (they are
            // below any stable point taken after them) without waiting for the held member.
        }
        assertNull(held.failure());
        assertEquals(0, conflicts(d), "updaters aborted each other: " + d);
        Account.Image im = account.single().get();
        assertEquals(OPENING + 51, im.balance(), "every member's updaters are flattened in place");
        assertEquals(6, im.ops());
        assertEquals("o", im.owner(), "the other columns sharing the item are kept");
        assertNull(account.checkQuiescent());
    }

    /** Without the option (the default) a record's updaters stay an exclusive write: the same schedule gives up. */
    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void withoutTheOptionUpdatersStayExclusive(RecordLayout layout) throws Exception {
        anUpdaterBesideAHeldOneGivesUp(Protocols.builder(MvccProtocol.NAME).maxAttempts(2).build(), layout);
    }

    /**
     * Holds an updater of a record inside its commit and runs another: it must give up LOCK_BUSY
     * (the held one locked the group exclusively), and only the held one's deposit is applied.
     */
    private static void anUpdaterBesideAHeldOneGivesUp(Stm stm, RecordLayout layout) throws Exception {
        Account account = account(stm, layout);
        TxCounter other = new TxCounter(stm);
        TxnAbortedException refused;
        HeldCommit held = held(stm, account, new Deposit(1), other);
        try (held) {
            refused = assertThrows(TxnAbortedException.class,
                    () -> stm.run(txn -> account.update(txn, new Deposit(10))));
        }
        assertNull(held.failure());
        assertEquals(AbortCause.LOCK_BUSY, refused.abortCause(), refused.getMessage());
        assertEquals(OPENING + 1, account.single().get().balance());
        assertNull(account.checkQuiescent());
    }

    /**
     * With the option at {@code contended}, an updater's first attempt that finds no group open
     * writes exclusively, as without the option: a first attempt beside it gives up (fails if the
     * held one opens a group, since the other would join it and commit). One attempt only: a retry
     * would be a delta that waits for the exclusive holder, which is held until the end.
     */
    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void contendedDeltasLeaveAnUncontendedFirstAttemptExclusive(RecordLayout layout) throws Exception {
        anUpdaterBesideAHeldOneGivesUp(Protocols.builder(MvccProtocol.NAME)
                .option(MvccProtocol.UPDATER_DELTAS, MvccProtocol.DELTAS_CONTENDED).maxAttempts(1).build(), layout);
    }

    /**
     * With the option at {@code contended}, a retry opens a group (the held updater rolls its first
     * attempt back), and first attempts of other updaters join it while it is open: they commit
     * without a conflict (fails if a retry stays exclusive, or if a first attempt does not join an
     * open group: both give up LOCK_BUSY).
     */
    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void contendedDeltasOpenAGroupInARetryAndFirstAttemptsJoinIt(RecordLayout layout) throws Exception {
        Stm stm = Protocols.builder(MvccProtocol.NAME).option(MvccProtocol.UPDATER_DELTAS, MvccProtocol.DELTAS_CONTENDED)
                .maxAttempts(2).build();
        Account account = account(stm, layout);
        TxCounter other = new TxCounter(stm);
        fiveDepositsJoinTheHeldGroup(stm, account, new HeldCommit(stm, txn -> {
            if (txn.attempt() == 0) {
                // As a conflict would: the retry is what may open a group.
                throw TxnContext.of(txn, stm).rollback(AbortCause.READ_VALIDATION);
            }
            account.update(txn, new Deposit(1));
        }, other));
    }

    /** A value the option does not take is refused when the store is built, naming the option and its values. */
    @Test
    void anUnknownUpdaterDeltasValueIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Protocols.builder(MvccProtocol.NAME).option(MvccProtocol.UPDATER_DELTAS, "sometimes").build());
        assertTrue(e.getMessage().contains(MvccProtocol.UPDATER_DELTAS) && e.getMessage().contains("sometimes")
                && e.getMessage().contains(MvccProtocol.DELTAS_CONTENDED), e.getMessage());
    }

    /**
     * A member whose updater throws on the group's running result (not on the value in place, which
     * its check phase saw) fails in its prepare step: the caller gets the exception, nothing of that
     * transaction is visible, the group closes with the other member's deposit, and the thread and
     * the record stay usable.
     */
    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void anUpdaterThatFailsOnTheRunningResultChangesNothing(RecordLayout layout) throws Exception {
        // maxAttempts 50: without delta versions the deposit below waits for the held lock and gives up.
        Stm stm = withUpdaterDeltas().maxAttempts(50).build();
        Account account = account(stm, layout);
        TxCounter other = new TxCounter(stm);
        HeldCommit held = held(stm, account, new CappedDeposit(100, OPENING + 150), other);
        try (held) {
            stm.run(txn -> account.update(txn, new Deposit(100)));
        }
        Throwable failure = held.failure();
        assertInstanceOf(IllegalStateException.class, failure, () -> "expected the updater's exception, got " + failure);
        assertTrue(failure.getMessage().contains("above the cap"), failure.getMessage());
        Account.Image im = account.single().get();
        assertEquals(OPENING + 100, im.balance());
        assertEquals(1, im.ops());
        assertEquals(0, other.single().get(), "the failed transaction's other write is not visible");
        assertNull(account.checkQuiescent());
        assertNull(other.checkQuiescent());
        stm.run(txn -> account.update(txn, new CappedDeposit(1, OPENING + 150)));
        assertEquals(OPENING + 101, account.single().get().balance());
    }

    /**
     * Two records always deposited to together, by updaters only; snapshots and tracked readers
     * taken meanwhile must see them equal (each reads both groups at one timestamp, computed from
     * open and closed delta groups), and no deposit may be lost.
     */
    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void readersSeeOneStateAcrossRecordDeltaGroups(RecordLayout layout) throws Exception {
        Stm stm = withUpdaterDeltas().build();
        Account a = account(stm, layout);
        Account b = account(stm, layout);
        int each = Protocols.scaled(3_000);
        PairedReaders.run(stm, each, i -> txn -> {
            a.update(txn, new Deposit(1 + (i & 3)));
            b.update(txn, new Deposit(1 + (i & 3)));
        }, txn -> new long[] {a.balance(txn), b.balance(txn), a.ops(txn), b.ops(txn)});
        long expected = 0;
        for (int i = 0; i < each; i++) {
            expected += 1 + (i & 3);
        }
        for (Account r : new Account[] {a, b}) {
            Account.Image im = r.single().get();
            assertEquals(OPENING + 2 * expected, im.balance(), "a deposit was lost or applied twice");
            assertEquals(2L * each, im.ops());
            assertNull(r.checkQuiescent());
        }
    }

    /**
     * A bank with updater deltas on: a transfer reads and sets the source's balance (an exclusive
     * write of its group) and deposits into the target with a {@code @Commutative} updater (a delta
     * member), so exclusive writers, delta members and readers meet on the same groups. Audits,
     * as snapshots and as tracked transactions, must always see the opening total; at the end
     * every committed transfer's deposit is applied exactly once and nothing is left locked.
     */
    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void aBankMixingExclusiveWritesAndDeltasKeepsItsTotal(RecordLayout layout) throws Exception {
        bank(withUpdaterDeltas().build(), layout);
    }

    /**
     * The same bank in a store of {@code occ} and {@code mvcc} (accounts alternate between them):
     * transfers span both protocols, and a delta member's prepare is reached through the mixed
     * store's forwarding ({@code MixedControl.prepare}).
     */
    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void theBankKeepsItsTotalWhenDeltasShareTransactionsWithOcc(RecordLayout layout) throws Exception {
        bank(Protocols.builder("occ+" + MvccProtocol.NAME)
                .option(MvccProtocol.NAME + "." + MvccProtocol.UPDATER_DELTAS, true).build(), layout);
    }

    private static void bank(Stm stm, RecordLayout layout) throws Exception {
        int accounts = 8;
        Account[] bank = new Account[accounts];
        for (int i = 0; i < accounts; i++) {
            bank[i] = account(stm, layout);
        }
        long total = accounts * OPENING;
        int each = Protocols.scaled(3_000);
        AtomicLong moved = new AtomicLong();
        AtomicInteger writersDone = new AtomicInteger();
        AtomicReference<String> bad = new AtomicReference<>();
        Workers.run(4, id -> {
            if (id < 2) {
                SplittableRandom rnd = new SplittableRandom(id);
                for (int i = 0; i < each; i++) {
                    int from = rnd.nextInt(accounts);
                    int to = (from + 1 + rnd.nextInt(accounts - 1)) % accounts;
                    long amount = 1 + rnd.nextInt(20);
                    boolean done = stm.atomic(txn -> {
                        long b = bank[from].balance(txn);
                        if (b < amount) {
                            return false;
                        }
                        bank[from].setBalance(txn, b - amount);
                        bank[to].update(txn, new Deposit(amount));
                        return true;
                    });
                    if (done) {
                        moved.incrementAndGet();
                    }
                }
                writersDone.incrementAndGet();
                return;
            }
            boolean snapshot = id == 2;
            TxnFunction<Long> sum = txn -> {
                long s = 0;
                for (Account a : bank) {
                    s += a.balance(txn);
                }
                return s;
            };
            for (int n = 0; n < 100 || writersDone.get() < 2; n++) {
                long seen = snapshot ? stm.readOnly(sum) : stm.atomic(sum);
                if (seen != total) {
                    bad.compareAndSet(null, (snapshot ? "snapshot" : "tracked") + " audit saw " + seen);
                }
            }
        });
        assertNull(bad.get());
        long sum = 0;
        long ops = 0;
        for (Account a : bank) {
            Account.Image im = a.single().get();
            assertTrue(im.balance() >= 0, "overdrawn: " + im.balance());
            sum += im.balance();
            ops += im.ops();
            assertNull(a.checkQuiescent());
        }
        assertEquals(total, sum);
        assertEquals(moved.get(), ops, "each committed transfer applied its deposit exactly once");
    }
}
