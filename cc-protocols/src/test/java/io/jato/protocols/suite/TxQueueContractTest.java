package io.jato.protocols.suite;

import io.jato.collections.TxQueue;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TxQueue} under every protocol: FIFO semantics, own offers, and exactly-once delivery under concurrency. */
@Timeout(120)
class TxQueueContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void offerPollAndPeekAreFifoInsideAndAcrossTransactions(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxQueue<String> q = new TxQueue<>(stm);
        assertNull(q.single().poll());
        assertTrue(stm.atomic(q::isEmpty));
        List<Object> seen = stm.atomic(txn -> {
            q.offer(txn, "a");
            q.offer(txn, "b");
            String first = q.poll(txn);       // its own offer
            q.offer(txn, "c");
            return List.of(first, q.peek(txn), q.size(txn));
        });
        assertEquals(List.of("a", "b", 2), seen);
        assertEquals(2, q.single().size());
        q.single().offer("d");
        assertEquals("b", q.single().peek());
        assertEquals(List.of("b", "c", "d"), stm.atomic(txn -> Arrays.asList(q.poll(txn), q.poll(txn), q.poll(txn))));
        assertNull(stm.atomic(q::poll));
        assertTrue(stm.atomic(q::isEmpty));
        NullPointerException e = assertThrows(NullPointerException.class, () -> stm.run(txn -> q.offer(txn, null)));
        assertTrue(e.getMessage().contains("element"), e.getMessage());
        stm.run(txn -> {
            q.offer(txn, "x");
            q.offer(txn, "y");
        });
        assertThrows(IllegalStateException.class, () -> stm.run(txn -> {
            q.poll(txn);
            throw new IllegalStateException("rolled back");
        }));
        assertEquals("x", q.single().poll(), "a rolled-back poll removes nothing");
        Quiescence.assertQuiescent(q);
    }

    /** Producers offer numbered elements, consumers poll until all are taken: each is taken once, in each producer's order. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void everyElementIsDeliveredExactlyOnceInProducerOrder(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxQueue<long[]> q = new TxQueue<>(stm);
        int producers = 2;
        int perProducer = Protocols.scaled(400);
        int total = producers * perProducer;
        AtomicInteger taken = new AtomicInteger();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        boolean[][] seen = new boolean[producers][perProducer];
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            threads.add(new Thread(() -> {
                for (int i = 0; i < perProducer; i += 2) {
                    long first = i;
                    stm.run(txn -> {                      // two per transaction: both or neither
                        q.offer(txn, new long[] {id, first});
                        q.offer(txn, new long[] {id, first + 1});
                    });
                }
            }));
        }
        for (int c = 0; c < 2; c++) {
            threads.add(new Thread(() -> {
                long[] last = {-1, -1};
                while (taken.get() < total) {
                    long[] e = stm.atomic(q::poll);
                    if (e == null) {
                        Thread.onSpinWait();
                        continue;
                    }
                    taken.incrementAndGet();
                    int producer = (int) e[0];
                    synchronized (seen) {
                        if (seen[producer][(int) e[1]]) {
                            problems.add("delivered twice: " + Arrays.toString(e));
                        }
                        seen[producer][(int) e[1]] = true;
                    }
                    if (e[1] <= last[producer]) {
                        problems.add("out of order for producer " + producer + ": " + e[1] + " after " + last[producer]);
                    }
                    last[producer] = e[1];
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), new ArrayList<>(problems));
        assertEquals(total, taken.get());
        assertNull(q.single().poll());
        Quiescence.assertQuiescent(q);
    }
}
