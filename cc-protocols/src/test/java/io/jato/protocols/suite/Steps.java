package io.jato.protocols.suite;

import io.jato.stm.Stm;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Helpers for tests that step two transactions through a fixed schedule with latches. */
public final class Steps {
    private Steps() {
    }

    /** Waits for the other thread's step; fails the test after 30 s or on an interrupt. */
    public static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the other transaction did not reach its step");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** @return {@code item}'s committed value, read in a transaction of {@code stm} */
    public static long read(Stm stm, LongItem item) {
        return stm.atomic(txn -> TxnContext.of(txn, stm).readLong(item));
    }
}
