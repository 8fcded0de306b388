package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.collections.TxQueue;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.TxnInterruptedException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Blocking {@code retry}, {@code retryFor}, {@code orElse} and {@link TxQueue#take} under every
 * protocol: a waiting transaction is woken by the commit that changes what it read, composes over
 * alternatives, times out, and leaves nothing behind when interrupted.
 */
@Timeout(120)
class BlockingRetryContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void consumersBlockedInTakeReceiveEveryElementOnce(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxQueue<Integer> q = new TxQueue<>(stm);
        int total = Protocols.scaled(200);
        ConcurrentLinkedQueue<Integer> got = new ConcurrentLinkedQueue<>();
        List<Thread> consumers = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            consumers.add(new Thread(() -> {
                for (int i = 0; i < total / 2; i++) {
                    got.add(stm.atomic(q::take));
                }
            }));
        }
        consumers.forEach(Thread::start);
        for (int i = 0; i < total; i++) {
            int e = i;
            stm.run(txn -> q.offer(txn, e));
            if (i % 50 == 0) {
                Thread.sleep(5);                            // let the consumers drain and block
            }
        }
        for (Thread t : consumers) {
            t.join();
        }
        Delivery.assertEachOnce(got, total);
        assertNull(q.single().poll());
        Quiescence.assertQuiescent(q);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void orElseTakesFromWhicheverQueueGetsAnElementFirst(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxQueue<String> a = new TxQueue<>(stm);
        TxQueue<String> b = new TxQueue<>(stm);
        b.single().offer("b0");
        assertEquals("b0", stm.atomic(txn -> txn.orElse(a::take, b::take)), "the second when the first is empty");
        a.single().offer("a0");
        b.single().offer("b1");
        assertEquals("a0", stm.atomic(txn -> txn.orElse(a::take, b::take)), "the first when it has one");

        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<String> taker = CompletableFuture.supplyAsync(() -> stm.atomic(txn -> {
            String e = txn.orElse(t -> a.take(t), t -> {
                started.countDown();
                return t.orElse(x -> {
                    throw x.retry();                       // nested: a third alternative that waits too
                }, x -> {
                    String v = b.poll(x);
                    if (v == null || v.equals("b1")) {
                        throw x.retry();                  // b1 stays: wait for something new on a or b
                    }
                    return v;
                });
            });
            return e;
        }));
        started.await();
        Thread.sleep(30);
        stm.run(txn -> a.offer(txn, "a1"));                // wakes the waiter through a's read
        assertEquals("a1", taker.get(30, TimeUnit.SECONDS));
        assertEquals("b1", b.single().poll());
        Quiescence.assertQuiescent(a, b);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aTimedPollReturnsNullAfterItsTimeoutAndAnInterruptLeavesNothingBehind(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxQueue<String> q = new TxQueue<>(stm);
        TxLong touched = new TxLong(stm, 0);
        long start = System.nanoTime();
        assertNull(stm.atomic(txn -> q.poll(txn, 50, TimeUnit.MILLISECONDS)));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50));

        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread consumer = new Thread(() -> {
            try {
                stm.run(txn -> {
                    touched.set(txn, 1);
                    txn.afterRollback(cause -> {
                        if (cause == AbortCause.RETRY) {
                            waiting.countDown();
                        }
                    });
                    q.take(txn);
                });
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        consumer.start();
        waiting.await();
        Thread.sleep(20);
        consumer.interrupt();
        assertInstanceOf(TxnInterruptedException.class, outcome.get(30, TimeUnit.SECONDS));
        assertEquals(0L, touched.single().get(), "the waiting transaction was rolled back");
        q.single().offer("after");
        assertEquals("after", stm.atomic(q::take));
        Quiescence.assertQuiescent(q, touched);
    }
}
