package io.jato.protocols.records;

import io.jato.protocols.suite.Protocols;
import io.jato.protocols.suite.Quiescence;
import io.jato.protocols.suite.Steps;
import io.jato.protocols.suite.faulty.FaultyControl;
import io.jato.protocols.suite.faulty.FaultyProtocol;
import io.jato.records.RecordLayout;
import io.jato.stm.Capabilities;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A non-transactional operation over a split record's groups never waits while it holds one.
 * Under a protocol whose transactions lock as they run (2PL, SwissTM), a transaction holds the hot
 * group and then writes the default group while {@code single().get()} locks the groups in order.
 * The snapshot used to take the default group and wait for the hot one without bound, while the
 * transaction waited for the default group until its wait bound ran out and aborted: every such
 * meeting cost milliseconds (RecordInPlaceReadStressTest ran about 250 operations a second under 2PL).
 * Now the snapshot releases what it holds when a later group is busy and waits for that one
 * holding nothing, so the transaction gets the default group and commits at its first attempt.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NonTxGroupLockTest {
    /** Every protocol; each test skips those its schedule does not apply to, saying why. */
    static Stream<String> everyProtocol() {
        return Protocols.singles();
    }

    private static boolean locksEagerly(String protocol) {
        return Stm.protocolCapabilities(Protocols.protocolName(protocol)).has(Capabilities.Feature.EAGER_LOCKING);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyProtocol")
    void aSnapshotWaitingForAGroupHoldsNoOtherGroup(String protocol) throws Exception {
        assumeTrue(locksEagerly(protocol), "only transactions that hold write locks while they run meet the snapshot here");
        Stm stm = Protocols.store(protocol);
        Account a = Account.create(stm, RecordLayout.SPLIT,
                new Account.Image().setOwner("o0").setFlags(0).setBalance(0).setOps(0));
        CountDownLatch hotHeld = new CountDownLatch(1);
        CountDownLatch snapshotWaiting = new CountDownLatch(1);
        AtomicInteger attempts = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                stm.run(t -> {
                    int attempt = attempts.incrementAndGet();
                    a.setOps(t, 7); // the hot group's write lock, held to the end
                    a.setBalance(t, 7);
                    if (attempt == 1) {
                        hotHeld.countDown();
                        Steps.await(snapshotWaiting);
                    }
                    a.setFlags(t, 7); // the default group, which the snapshot takes first
                    a.setOwner(t, "o7");
                });
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "writer");
        AtomicReference<Account.Image> seen = new AtomicReference<>();
        Thread snapshot = snapshotThread(a, seen, failure);
        writer.start();
        assertTrue(hotHeld.await(10, TimeUnit.SECONDS), "the writer never took the hot group");
        snapshot.start();
        // Let the snapshot reach its wait for the hot group (it cannot finish before the writer).
        Thread.sleep(50);
        assertTrue(snapshot.isAlive(), "the snapshot finished while the writer held the hot group");
        snapshotWaiting.countDown();
        writer.join(TimeUnit.SECONDS.toMillis(30));
        snapshot.join(TimeUnit.SECONDS.toMillis(30));
        assertNull(failure.get(), () -> "failed: " + failure.get());
        assertEquals(1, attempts.get(), () -> protocol + ": the writer waited out its bound and retried; " + stm.statistics());
        StmStatistics st = stm.statistics();
        assertEquals(0, st.aborts(), st::toString);
        Account.Image im = seen.get();
        assertEquals("o7 7 7 7", im.owner() + " " + im.flags() + " " + im.balance() + " " + im.ops(),
                "the snapshot waited for the writer's commit");
        Quiescence.assertQuiescent(a);
    }

    /**
     * The same meeting with a committer of a lock-at-commit protocol that escalated: it holds the
     * hot group's commit lock and validates its read of the default group, which an escalated
     * attempt waits for rather than abort on. A snapshot that took the default group and waited
     * for the hot one held it through that wait's whole bound (250 ms), after which the committer
     * aborted once more. Now the snapshot lets go and the escalated attempt commits.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyProtocol")
    void anEscalatedCommitterIsNotHeldByASnapshot(String protocol) throws Exception {
        // The schedule has a body wait for a non-transactional write of an item it read, which a
        // read lock (2PL, the adaptive lock in lock mode) or the store lock (global-lock) would
        // keep out forever: only protocols that lock nothing before commit run it.
        assumeTrue(!locksEagerly(protocol) && !protocol.equals("global-lock") && !protocol.equals("adaptive"),
                "the body's wait would deadlock with its own read lock");
        Stm stm = FaultyProtocol.store(protocol, b -> b.escalateAfter(1));
        FaultyControl control = FaultyProtocol.control(stm);
        Account a = Account.create(stm, RecordLayout.SPLIT,
                new Account.Image().setOwner("o0").setFlags(0).setBalance(0).setOps(0));
        AtomicInteger attempts = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicReference<Account.Image> seen = new AtomicReference<>();
        Thread snapshot = snapshotThread(a, seen, failure);
        try {
            stm.run(t -> {
                int attempt = attempts.incrementAndGet();
                int f = a.flags(t);
                if (attempt == 1) {
                    // A conflict: the next attempt is escalated (escalateAfter(1)).
                    Thread w = new Thread(() -> a.single().update(new RecordInPlaceReadStressTest.BumpDefault()));
                    w.start();
                    join(w);
                } else if (attempt == 2) {
                    // Between this commit's locks and its validation: the snapshot starts and
                    // has the time to take the default group and meet the locked hot group.
                    control.armAction(FaultyControl.Hook.VALIDATE, 1, () -> {
                        snapshot.start();
                        sleep(50);
                    });
                }
                a.setBalance(t, f + 100L);
            });
        } finally {
            control.disarm();
        }
        snapshot.join(TimeUnit.SECONDS.toMillis(30));
        assertNull(failure.get(), () -> "failed: " + failure.get());
        assertEquals(2, attempts.get(), () -> protocol + ": the escalated attempt waited out its bound; " + stm.statistics());
        assertEquals(101L, a.single().get().balance());
        assertEquals(101L, seen.get().balance(), "the snapshot waited for the commit");
        Quiescence.assertQuiescent(a);
    }

    /** A thread that takes one {@code single().get()} of {@code a} into {@code seen}. */
    private static Thread snapshotThread(Account a, AtomicReference<Account.Image> seen,
                                         AtomicReference<Throwable> failure) {
        return new Thread(() -> {
            try {
                seen.set(a.single().get());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "snapshot");
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * A lock call that throws (an {@code OutOfMemoryError} in the protocol) while the operation
     * holds other groups leaves none of them locked: the first call (nothing held yet) and the
     * second (the first group held), for a snapshot and for a write. The record then reads and
     * commits as before.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyProtocol")
    void aLockCallThatThrowsLeavesNoGroupLocked(String protocol) {
        Stm stm = FaultyProtocol.store(protocol);
        FaultyControl control = FaultyProtocol.control(stm);
        Account a = Account.create(stm, RecordLayout.SPLIT,
                new Account.Image().setOwner("o0").setFlags(0).setBalance(0).setOps(0));
        for (int k = 1; k <= 2; k++) {
            int call = k;
            control.arm(FaultyControl.Hook.NON_TX_LOCK, k, FaultyControl.When.BEFORE, new OutOfMemoryError("injected"));
            try {
                assertThrows(OutOfMemoryError.class, () -> a.single().get(), () -> "get, lock call " + call);
                Quiescence.assertQuiescent(a);
                control.arm(FaultyControl.Hook.NON_TX_LOCK, k, FaultyControl.When.BEFORE, new OutOfMemoryError("injected"));
                assertThrows(OutOfMemoryError.class,
                        () -> a.single().set(new Account.Image().setOwner("x").setFlags(9).setBalance(9).setOps(9)),
                        () -> "set, lock call " + call);
                Quiescence.assertQuiescent(a);
            } finally {
                control.disarm();
            }
        }
        Account.Image im = a.single().get();
        assertEquals("o0 0 0 0", im.owner() + " " + im.flags() + " " + im.balance() + " " + im.ops(),
                "a failed set changed nothing");
        stm.run(t -> a.setFlags(t, a.flags(t) + 1));
        a.single().set(new Account.Image().setOwner("o5").setFlags(5).setBalance(5).setOps(5));
        assertEquals(5, a.single().get().flags());
        Quiescence.assertQuiescent(a);
    }
}
