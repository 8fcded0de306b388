package io.jato.protocols.suite;

import io.jato.collections.TxDeque;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TxDeque} under every protocol: both ends, blocking takes, and exactly-once delivery under concurrency. */
@Timeout(120)
class TxDequeContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void bothEndsBehaveLikeArrayDeque(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxDeque<String> d = new TxDeque<>(stm);
        assertNull(d.single().pollFirst());
        assertNull(d.single().pollLast());
        List<Object> seen = stm.atomic(txn -> {
            d.offerLast(txn, "b");
            d.offerFirst(txn, "a");
            d.offerLast(txn, "c");
            return Arrays.asList(d.peekFirst(txn), d.peekLast(txn), d.size(txn), d.pollLast(txn), d.pollFirst(txn),
                    d.size(txn));
        });
        assertEquals(Arrays.asList("a", "c", 3, "c", "a", 1), seen);
        assertEquals(1, d.single().size());
        d.single().offerFirst("z");
        assertEquals(List.of("z", "b"), stm.atomic(txn -> List.of(d.pollFirst(txn), d.pollFirst(txn))));
        assertTrue(stm.atomic(d::isEmpty));
        assertNull(stm.atomic(txn -> d.pollFirst(txn, 20, TimeUnit.MILLISECONDS)));
        assertThrows(NullPointerException.class, () -> stm.run(txn -> d.offerLast(txn, null)));

        CompletableFuture<String> taker = CompletableFuture.supplyAsync(() -> stm.atomic(d::takeLast));
        Thread.sleep(20);
        stm.run(txn -> d.offerFirst(txn, "woken"));
        assertEquals("woken", taker.get(30, TimeUnit.SECONDS));
        Quiescence.assertQuiescent(d);
    }

    /** Producers at both ends, consumers at both ends: every element is taken exactly once and the links stay consistent. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void everyElementIsTakenOnceFromEitherEnd(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxDeque<Integer> d = new TxDeque<>(stm);
        int perProducer = Protocols.scaled(300);
        int total = 2 * perProducer;
        AtomicInteger taken = new AtomicInteger();
        ConcurrentLinkedQueue<Integer> got = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            boolean front = p == 0;
            int base = p * perProducer;
            threads.add(new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    int e = base + i;
                    stm.run(txn -> {
                        if (front) {
                            d.offerFirst(txn, e);
                        } else {
                            d.offerLast(txn, e);
                        }
                    });
                }
            }));
        }
        for (int c = 0; c < 2; c++) {
            boolean front = c == 0;
            threads.add(new Thread(() -> {
                while (taken.get() < total) {
                    Integer e = stm.atomic(txn -> front ? d.pollFirst(txn) : d.pollLast(txn));
                    if (e != null) {
                        got.add(e);
                        taken.incrementAndGet();
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        Delivery.assertEachOnce(got, total);
        assertEquals(0, d.single().size());
        Quiescence.assertQuiescent(d);
    }
}
