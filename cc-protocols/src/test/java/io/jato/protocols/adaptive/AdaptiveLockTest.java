package io.jato.protocols.adaptive;

import io.jato.stm.Stm;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adaptive lock end to end, in one store: real conflicts move an item's mode, a pessimistic
 * read holds the shared lock until the attempt ends, committed writes move it back, and an
 * optimistic read is still validated when its item turned pessimistic before the commit.
 */
@Timeout(60)
class AdaptiveLockTest {

    private static Stm store(int pessimisticAt, int optimisticAt) {
        return Stm.builder().protocol(AdaptiveProtocol.NAME).escalateAfter(0)
                .option(AdaptiveProtocol.PESSIMISTIC_AT, pessimisticAt)
                .option(AdaptiveProtocol.OPTIMISTIC_AT, optimisticAt).build();
    }

    /** Commits {@code x = value} from another thread (a conflicting writer), and waits for it. */
    private static void writeFromAnotherThread(Stm stm, LongItem x, long value) {
        Thread t = new Thread(() -> stm.run(txn -> TxnContext.of(txn, stm).writeLong(x, value)));
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aFailedValidationTurnsTheItemPessimisticAndItsNextReadLocksIt() {
        Stm stm = store(4, 3);
        AdaptiveControl cc = (AdaptiveControl) stm.concurrencyControl();
        LongItem x = new LongItem(0);
        LongItem y = new LongItem(0);
        AtomicInteger attempts = new AtomicInteger();
        boolean[] lockedWhileReading = new boolean[2];
        long seen = stm.atomic(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            int attempt = attempts.getAndIncrement();
            long v = ctx.readLong(x);
            lockedWhileReading[attempt] = cc.isLocked(x);
            if (attempt == 0) {
                assertFalse(AdaptiveControl.isPessimistic(x), "a fresh item is optimistic");
                writeFromAnotherThread(stm, x, 7);
            }
            ctx.writeLong(y, v);
            return v;
        });
        assertEquals(2, attempts.get(), "the optimistic read failed validation once");
        assertEquals(7, seen);
        assertFalse(lockedWhileReading[0], "an optimistic read takes no lock");
        assertTrue(lockedWhileReading[1], "after the conflict the item was pessimistic: its read took the shared lock");
        assertFalse(cc.isLocked(x), "the shared lock is released when the attempt ends");
        assertTrue(cc.modeSwitches() >= 1);
        assertNull(cc.checkQuiescent(x));
        assertNull(cc.checkQuiescent(y));
    }

    @Test
    void committedWritesDecayTheScoreBackToOptimistic() {
        Stm stm = store(8, 2);
        AdaptiveControl cc = (AdaptiveControl) stm.concurrencyControl();
        LongItem x = new LongItem(0);
        cc.modes().record(x, ModeSwitch.CONFLICT);
        cc.modes().record(x, ModeSwitch.CONFLICT);
        assertTrue(AdaptiveControl.isPessimistic(x));
        for (int i = 1; i <= 6; i++) {
            long value = i;
            stm.run(txn -> {
                TxnContext ctx = TxnContext.of(txn, stm);
                ctx.writeLong(x, ctx.readLong(x) + value);
            });
            // Score 8 - i: pessimistic down to 3, optimistic at 2.
            assertEquals(i < 6, AdaptiveControl.isPessimistic(x), "after " + i + " quiet writes");
        }
        assertEquals(21L, (long) stm.atomic(txn -> TxnContext.of(txn, stm).readLong(x)));
        assertEquals(2, cc.modeSwitches());
        assertNull(cc.checkQuiescent(x));
    }

    @Test
    void anOptimisticReadIsValidatedEvenIfItsItemTurnedPessimisticMeanwhile() {
        Stm stm = store(4, 0); // the writer's commit (a quiet event) must not turn it back
        AdaptiveControl cc = (AdaptiveControl) stm.concurrencyControl();
        LongItem x = new LongItem(0);
        LongItem y = new LongItem(0);
        AtomicInteger attempts = new AtomicInteger();
        long seen = stm.atomic(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            long v = ctx.readLong(x);
            if (attempts.getAndIncrement() == 0) {
                cc.modes().record(x, ModeSwitch.CONFLICT); // the item turns pessimistic after our optimistic read...
                assertTrue(AdaptiveControl.isPessimistic(x));
                writeFromAnotherThread(stm, x, 5); // ...and a pessimistic writer changes it
            }
            ctx.writeLong(y, v + 1);
            return v;
        });
        assertEquals(2, attempts.get(), "the read taken optimistically was validated at commit");
        assertTrue(AdaptiveControl.isPessimistic(x), "the item stayed pessimistic through the commit");
        assertEquals(5, seen);
        assertEquals(6L, (long) stm.atomic(txn -> TxnContext.of(txn, stm).readLong(y)));
        assertNull(cc.checkQuiescent(x));
    }

    @Test
    void badThresholdsAreRefusedAtBuild() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store(8, 9));
        assertTrue(e.getMessage().contains(AdaptiveProtocol.OPTIMISTIC_AT), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> store(64, 2));
    }
}
