package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.stm.Stm;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The adversarial writer of the starvation tests (issue 14 §5): a thread that moves one unit
 * between two random accounts, transaction after transaction, without pause, until closed. Its
 * transfers keep the accounts' total.
 */
public final class TransferLoop implements AutoCloseable {
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicInteger transfers = new AtomicInteger();
    private final Thread thread;

    private TransferLoop(Stm stm, TxLong[] accounts, long seed) {
        this.thread = new Thread(() -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            while (!stop.get()) {
                int from = rnd.nextInt(accounts.length);
                int to = rnd.nextInt(accounts.length);
                stm.run(t -> {
                    accounts[from].set(t, accounts[from].get(t) - 1);
                    accounts[to].set(t, accounts[to].get(t) + 1);
                });
                transfers.incrementAndGet();
            }
        }, "transfers");
    }

    /** Starts the loop and returns once it has committed {@code warmUp} transfers. */
    public static TransferLoop start(Stm stm, TxLong[] accounts, long seed, int warmUp) {
        TransferLoop loop = new TransferLoop(stm, accounts, seed);
        loop.thread.start();
        while (loop.transfers.get() < warmUp && loop.thread.isAlive()) {
            Thread.onSpinWait();
        }
        return loop;
    }

    /** @return the transfers committed so far */
    public int transfers() {
        return transfers.get();
    }

    /** Stops the loop and waits for its thread (at most 30 s). */
    @Override
    public void close() {
        stop.set(true);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
