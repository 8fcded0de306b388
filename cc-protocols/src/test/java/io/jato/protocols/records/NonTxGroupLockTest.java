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

/**
 * A non-transactional operation over a split record's groups never waits while it holds one.
 * Under a protocol whose transactions lock as they run (2PL, SwissTM), a transaction holds the hot
 * group and then writes the default group while {@code single().get()} locks the groups in order.
 * The snapshot used to take the default group and wait for the hot one without bound, while the
 * transaction waited for the default group until its wait bound ran out and aborted: every such
 * meeting cost milliseconds (RecordInPlaceReadStressTest ran ~100 operations a second under 2PL).
 * Now the snapshot releases what it holds when a later group is busy and waits for that one
 * holding nothing, so the transaction gets the default group and commits at its first attempt.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NonTxGroupLockTest {
    /** The protocols whose transactions hold write locks while their bodies run. */
    static Stream<String> protocols() {
        return Protocols.singles().filter(p -> Protocols.store(p).capabilities().has(Capabilities.Feature.EAGER_LOCKING));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void aSnapshotWaitingForAGroupHoldsNoOtherGroup(String protocol) throws Exception {
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
        Thread snapshot = new Thread(() -> {
            try {
                seen.set(a.single().get());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "snapshot");
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

    static Stream<String> everyProtocol() {
        return Protocols.singles();
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
