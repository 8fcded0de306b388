package io.jato.protocols.mvcc;

import io.jato.collections.TxCounter;
import io.jato.stm.Stm;
import io.jato.stm.TxnRunnable;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds a transaction inside its commit, for the delta-version tests: on its own thread it runs
 * {@code writes}, then (a later write, so locked after them) a commit-time updater of
 * {@code blocker} that blocks in the check phase until {@link #close}. By then every write of
 * {@code writes} is locked, or has joined its delta group, and none has reached its prepare step.
 */
final class HeldCommit implements AutoCloseable {
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;

    HeldCommit(Stm stm, TxnRunnable writes, TxCounter blocker) throws InterruptedException {
        CountDownLatch inCommit = new CountDownLatch(1);
        thread = new Thread(() -> {
            try {
                stm.run(txn -> {
                    writes.run(txn);
                    blocker.update(txn, v -> {
                        inCommit.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return v + 1;
                    });
                });
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "held-commit");
        thread.start();
        inCommit.await();
    }

    /** @return what the held transaction threw, once closed; null if it committed */
    Throwable failure() {
        return failure.get();
    }

    /** Lets the held transaction finish and waits for it. */
    @Override
    public void close() {
        release.countDown();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while joining the held transaction", e);
        }
    }
}
