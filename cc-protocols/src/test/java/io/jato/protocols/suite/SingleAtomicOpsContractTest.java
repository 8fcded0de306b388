package io.jato.protocols.suite;

import io.jato.collections.TxCounter;
import io.jato.collections.TxLong;
import io.jato.collections.TxRef;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code java.util.concurrent.atomic} operations of the {@code single()} views of
 * {@link TxRef}, {@link TxLong} and {@link TxCounter}, and {@link TxLong#add}, under every
 * protocol: results, failure atomicity, and atomicity against each other and against transactions.
 */
@Timeout(120)
class SingleAtomicOpsContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void atomicOperationsReturnWhatAtomicLongAndAtomicReferenceWould(String protocol) {
        Stm stm = Protocols.store(protocol);
        String a = new String("a");
        TxRef<String> ref = new TxRef<>(stm, a);
        assertFalse(ref.single().compareAndSet(new String("a"), "b"), "compared by identity");
        assertTrue(ref.single().compareAndSet(a, "b"));
        assertEquals("b", ref.single().getAndUpdate(s -> s + "c"));
        assertEquals("bcd", ref.single().updateAndGet(s -> s + "d"));
        assertEquals("bcd", ref.single().getAndSet("e"));
        RuntimeException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> ref.single().updateAndGet(s -> {
            throw boom;
        })));
        assertEquals("e", stm.atomic(ref::get), "a throwing update function changes nothing");
        assertThrows(NullPointerException.class, () -> ref.single().getAndUpdate(null));
        assertThrows(IllegalStateException.class, () -> stm.run(txn -> ref.single().compareAndSet("e", "f")));

        TxLong cell = new TxLong(stm, 10);
        assertTrue(cell.single().compareAndSet(10, 11));
        assertFalse(cell.single().compareAndSet(10, 12));
        assertEquals(11, cell.single().getAndAdd(4));
        assertEquals(20, cell.single().addAndGet(5));
        assertEquals(20, cell.single().getAndUpdate(v -> v * 2));
        assertEquals(41, cell.single().updateAndGet(v -> v + 1));
        assertEquals(41, cell.single().getAndSet(0));
        assertEquals(0L, stm.atomic(cell::get));

        TxCounter counter = new TxCounter(stm, 5);
        assertTrue(counter.single().compareAndSet(5, 6));
        assertEquals(6, counter.single().getAndAdd(1));
        assertEquals(9, counter.single().addAndGet(2));
        assertEquals(18, counter.single().updateAndGet(v -> v * 2));
        assertEquals(18, counter.single().getAndUpdate(v -> v - 18));
        counter.single().add(3);
        counter.single().update(v -> v + 1);
        assertEquals(4L, stm.atomic(counter::get));
        Quiescence.assertQuiescent(ref, cell, counter);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void txLongAddIsACommitTimeAddAndAddAndGetReads(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong cell = new TxLong(stm, 100);
        stm.run(txn -> {
            cell.add(txn, 5);
            cell.add(txn, -2);
        });
        assertEquals(103L, cell.single().get());
        List<Long> seen = stm.atomic(txn -> {
            cell.add(txn, 7);
            long afterAdd = cell.get(txn);             // reads, including the pending add
            cell.set(txn, 1);
            cell.add(txn, 1);                          // adds to the pending write
            return List.of(afterAdd, cell.get(txn), cell.addAndGet(txn, 10));
        });
        assertEquals(List.of(110L, 2L, 12L), seen);
        assertEquals(12L, cell.single().get());
        Quiescence.assertQuiescent(cell);
    }

    /** Threads mix single() compare-and-set loops, single() adds, and transactional adds: none is lost. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void singleOperationsAndTransactionsNeverLoseAnUpdate(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxLong cell = new TxLong(stm, 0);
        TxCounter counter = new TxCounter(stm);
        TxRef<Long> ref = new TxRef<>(stm, 0L);
        int per = Protocols.scaled(300);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            int kind = w;
            threads.add(new Thread(() -> {
                for (int i = 0; i < per; i++) {
                    if (kind == 0) {
                        long v;
                        do {
                            v = cell.single().get();
                        } while (!cell.single().compareAndSet(v, v + 1));
                        counter.single().getAndAdd(1);
                        ref.single().updateAndGet(x -> x + 1);
                    } else if (kind == 1) {
                        cell.single().getAndUpdate(v -> v + 1);
                        counter.single().addAndGet(1);
                        Long x;
                        do {
                            x = ref.single().get();
                        } while (!ref.single().compareAndSet(x, x + 1));
                    } else {
                        stm.run(txn -> {
                            cell.add(txn, 1);
                            counter.add(txn, 1);
                            ref.set(txn, ref.get(txn) + 1);
                        });
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(3L * per, cell.single().get());
        assertEquals(3L * per, counter.single().get());
        assertEquals(3L * per, (long) ref.single().get());
        Quiescence.assertQuiescent(cell, counter, ref);
    }
}
