package io.jato.protocols.adaptive;

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

/**
 * Wait-die across two lock protocols of one store (2PL and the adaptive lock, each with its own
 * lock table): a transaction must be equally old in both. The test builds the schedule in which
 * per-protocol age counters make each of two transactions the older one in a different protocol:
 * T1 takes its first 2PL lock before T2's, T2 its first adaptive lock before T1's; then T1 waits
 * for a 2PL item T2 holds while T2 waits for an adaptive item T1 holds. With one store-wide age,
 * T1 is older everywhere: T2 dies at once and T1 commits on its first attempt. With a counter per
 * protocol, both waited until {@code waitSpins} ran out and both aborted (CI: four threads of
 * {@code LostUpdateTest} stalled for 60 s under the pairing).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MixedWaitDieTest {
    /** 2PL is domain 0, the adaptive lock domain 1. */
    private static final int ADAPTIVE = 1;

    @Test
    void aTransactionIsEquallyOldInEveryLockProtocolOfTheStore() throws Exception {
        Stm stm = Stm.builder().protocol(TwoPhaseProtocol.NAME).objectProtocol(AdaptiveProtocol.NAME)
                .option(TwoPhaseProtocol.WAIT_SPINS, 2_000)
                .option(AdaptiveProtocol.NAME + "." + AdaptiveProtocol.WAIT_SPINS, 2_000)
                .option(AdaptiveProtocol.NAME + "." + AdaptiveProtocol.PESSIMISTIC_AT, 1)
                .option(AdaptiveProtocol.NAME + "." + AdaptiveProtocol.OPTIMISTIC_AT, 0)
                .escalateAfter(0).build();
        LongItem x = new LongItem(0);            // 2PL: T1 locks it first
        LongItem z = new LongItem(0);            // 2PL: T2 holds it, T1 waits for it
        LongItem y = new LongItem(0, ADAPTIVE);  // adaptive: T2 locks it first
        LongItem w = new LongItem(0, ADAPTIVE);  // adaptive: T1 holds it, T2 waits for it
        ModeSwitch conflicts = new ModeSwitch(1, 0);
        for (int i = 0; i < 16; i++) {
            conflicts.record(y, ModeSwitch.CONFLICT);
            conflicts.record(w, ModeSwitch.CONFLICT);
        }
        assertTrue(AdaptiveControl.isPessimistic(y) && AdaptiveControl.isPessimistic(w),
                "the adaptive items are pessimistic: their accesses take locks at once");

        CountDownLatch t1LockedX = new CountDownLatch(1);
        CountDownLatch t2LockedY = new CountDownLatch(1);
        CountDownLatch t1LockedW = new CountDownLatch(1);
        CountDownLatch t2LockedZ = new CountDownLatch(1);
        AtomicInteger t1Attempts = new AtomicInteger();
        AtomicInteger t2Attempts = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();

        Thread t1 = new Thread(() -> stm.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            boolean first = t1Attempts.getAndIncrement() == 0;
            ctx.writeLong(x, ctx.readLong(x) + 1);      // T1's first lock: a 2PL one
            if (first) {
                t1LockedX.countDown();
                Steps.await(t2LockedY);
            }
            ctx.readLong(w);                             // adaptive shared lock, after T2's first adaptive lock
            if (first) {
                t1LockedW.countDown();
                Steps.await(t2LockedZ);
            }
            ctx.writeLong(z, ctx.readLong(z) + 1);          // waits for T2's 2PL lock: T1 is older
        }), "t1");
        Thread t2 = new Thread(() -> stm.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            boolean first = t2Attempts.getAndIncrement() == 0;
            if (first) {
                Steps.await(t1LockedX);
            }
            long seen = ctx.readLong(y);                 // T2's first adaptive lock, before T1's
            if (first) {
                t2LockedY.countDown();
                Steps.await(t1LockedW);
            }
            ctx.writeLong(z, ctx.readLong(z) + 10);      // 2PL exclusive lock, after T1's first 2PL lock
            if (first) {
                t2LockedZ.countDown();
            }
            ctx.writeLong(w, seen + 100);                // wants T1's adaptive item: T2 is younger and dies
        }), "t2");
        for (Thread t : new Thread[] {t1, t2}) {
            t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
            t.start();
        }
        t1.join();
        t2.join();
        assertNull(failure.get(), () -> "a transaction failed: " + failure.get());

        assertEquals(1, t1Attempts.get(), "T1 is the older transaction in both protocols: it waits and commits at once");
        // T2's retries die too while T1 still holds z (T2 stays the younger): at least one death.
        assertTrue(t2Attempts.get() >= 2, "T2 is the younger in both protocols: its first attempt dies");
        assertEquals(1, Steps.read(stm, x));
        assertEquals(11, Steps.read(stm, z));
        assertEquals(100, Steps.read(stm, w));
        for (LongItem item : new LongItem[] {x, y, z, w}) {
            assertNull(stm.concurrencyControl().checkQuiescent(item), "no lock is left held");
        }
    }
}
