package io.jato.protocols.swisstm;

import io.jato.protocols.suite.Steps;
import io.jato.protocols.twophase.TwoPhaseProtocol;
import io.jato.stm.Stm;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * SwissTM's contention manager beside 2PL in one store: a greedy SwissTM transaction that asks a
 * younger greedy owner to abort waits for it, and that owner may itself be waiting for a 2PL lock
 * the greedy one holds (wait-die lets it: it is the older by the store's age). The owner must notice
 * the request while it waits, abort and free the SwissTM lock. Schedule: Y takes its greedy
 * timestamp first (a SwissTM write), X takes the older age (a 2PL write), Y then holds a 2PL item X
 * waits for, and Y asks X to give up a SwissTM item. Without the poll in RwLocks' wait, X waited out
 * {@code waitSpins} while Y gave up first, and Y needed a second attempt, in every run.
 *
 * <p>The schedule runs up to {@link #ROUNDS} times and one round must see Y commit on its first
 * attempt. A round can miss on a loaded 2-core machine (CI's JDK 17 stage once saw 2 attempts while
 * the other test fork ran a suite): Y's wait for the owner is bounded in polls, and an owner
 * descheduled between its abort and its release, or one that retakes the item in its next attempt
 * while Y is parked, can outlast it. Without the poll Y gives up in every round.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MixedGreedyWaitTest {
    /** SwissTM is domain 0, 2PL domain 1. */
    private static final int TWO_PHASE = 1;
    private static final int ROUNDS = 3;

    @Test
    void aLockWaiterGivesWayWhenTheGreedyTransactionAsks() throws Exception {
        StringBuilder seen = new StringBuilder();
        for (int r = 0; r < ROUNDS; r++) {
            int yAttempts = round(seen);
            if (yAttempts == 1) {
                return;
            }
        }
        fail("the greedy transaction never got its lock on its first attempt (the waiter did not give"
                + " way) in " + ROUNDS + " rounds: " + seen);
    }

    /** Runs the schedule once on a fresh store; checks the outcome; returns Y's attempts. */
    private static int round(StringBuilder seen) throws Exception {
        Stm stm = Stm.builder().protocol(SwissTmProtocol.NAME).objectProtocol(TwoPhaseProtocol.NAME)
                .option(SwissTmProtocol.GREEDY_AFTER, 1)
                .escalateAfter(0).build();
        LongItem s1 = new LongItem(0);              // SwissTM: Y's first write (Y becomes greedy first)
        LongItem s2 = new LongItem(0);              // SwissTM: X owns it, Y asks X to abort
        LongItem p1 = new LongItem(0, TWO_PHASE);   // 2PL: X's first lock (X is older by age)
        LongItem p2 = new LongItem(0, TWO_PHASE);   // 2PL: Y holds it, X waits for it

        CountDownLatch yGreedy = new CountDownLatch(1);
        CountDownLatch xOlder = new CountDownLatch(1);
        CountDownLatch yHoldsP2 = new CountDownLatch(1);
        CountDownLatch xOwnsS2 = new CountDownLatch(1);
        AtomicInteger xAttempts = new AtomicInteger();
        AtomicInteger yAttempts = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();

        Thread y = new Thread(() -> stm.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            boolean first = yAttempts.getAndIncrement() == 0;
            ctx.writeLong(s1, 1);                        // greedy timestamp 1
            if (first) {
                yGreedy.countDown();
                Steps.await(xOlder);
            }
            ctx.writeLong(p2, 2);                        // 2PL exclusive lock, age after X's
            if (first) {
                yHoldsP2.countDown();
                Steps.await(xOwnsS2);
            }
            ctx.writeLong(s2, 3);                        // owned by X, younger greedy: ask, then wait
        }), "y");
        Thread x = new Thread(() -> stm.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            boolean first = xAttempts.getAndIncrement() == 0;
            if (first) {
                Steps.await(yGreedy);
            }
            ctx.writeLong(p1, 10);                       // X's first lock: the older age
            if (first) {
                xOlder.countDown();
                Steps.await(yHoldsP2);
            }
            ctx.writeLong(s2, 20);                       // greedy timestamp 2
            if (first) {
                xOwnsS2.countDown();
            }
            ctx.writeLong(p2, 30);                       // held by Y, the younger by age: X waits
        }), "x");
        for (Thread t : new Thread[] {x, y}) {
            t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
            t.start();
        }
        x.join();
        y.join();
        assertNull(failure.get(), () -> "a transaction failed: " + failure.get());

        seen.append(seen.length() == 0 ? "" : "; ").append("Y ").append(yAttempts.get())
                .append(" attempts, X ").append(xAttempts.get()).append(", ").append(stm.statistics());
        for (LongItem item : new LongItem[] {s1, s2, p1, p2}) {
            assertNull(stm.concurrencyControl().checkQuiescent(item), "no lock is left held");
        }
        if (yAttempts.get() == 1) {
            assertTrue(xAttempts.get() >= 2, "the waiter aborted on the request");
            assertEquals(30, Steps.read(stm, p2), "X committed last");
        }
        return yAttempts.get();
    }
}
