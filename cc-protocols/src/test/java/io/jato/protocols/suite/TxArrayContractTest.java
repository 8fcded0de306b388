package io.jato.protocols.suite;

import io.jato.collections.TxLongArray;
import io.jato.collections.TxRefArray;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TxLongArray} and {@link TxRefArray} under every protocol: semantics, bounds, and a sum invariant under concurrency. */
@Timeout(120)
class TxArrayContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void elementsReadWriteAndAddOnTheirOwn(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLongArray longs = new TxLongArray(stm, new long[] {1, 2, 3});
        assertEquals(3, longs.length());
        List<Long> seen = stm.atomic(txn -> {
            longs.set(txn, 0, 10);
            longs.add(txn, 1, 5);          // commit-time add
            longs.add(txn, 1, 5);
            return List.of(longs.get(txn, 0), longs.get(txn, 1), longs.get(txn, 2));
        });
        assertEquals(List.of(10L, 12L, 3L), seen);
        stm.run(txn -> longs.add(txn, 2, -3));
        assertEquals(0L, longs.single().get(2));
        assertEquals(5L, longs.single().addAndGet(2, 5));
        assertTrue(longs.single().compareAndSet(2, 5, 6));
        assertFalse(longs.single().compareAndSet(2, 5, 7));
        longs.single().set(0, -1);
        assertEquals(List.of(-1L, 12L, 6L), stm.readOnly(txn -> List.of(longs.get(txn, 0), longs.get(txn, 1),
                longs.get(txn, 2))));

        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                () -> stm.run(txn -> longs.set(txn, 3, 1)));
        assertTrue(e.getMessage().contains("3") && e.getMessage().contains("length"), e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> stm.run(txn -> longs.get(txn, -1)));
        assertThrows(IndexOutOfBoundsException.class, () -> longs.single().get(3));
        assertThrows(IllegalArgumentException.class, () -> new TxLongArray(stm, -1));
        assertThrows(NullPointerException.class, () -> new TxLongArray(stm, null));

        TxRefArray<String> refs = new TxRefArray<>(stm, 2);
        assertNull(refs.single().get(0));
        stm.run(txn -> {
            refs.set(txn, 0, "a");
            assertEquals("a", refs.getAndSet(txn, 0, "b"));
        });
        assertEquals("b", refs.single().get(0));
        assertTrue(refs.single().compareAndSet(1, null, "c"));
        assertEquals("c", stm.atomic(txn -> refs.get(txn, 1)));
        refs.single().set(1, null);
        assertNull(refs.single().get(1));
        assertThrows(IndexOutOfBoundsException.class, () -> stm.run(txn -> refs.set(txn, 2, "x")));
        assertEquals("b", refs.single().get(0), "a refused write changes nothing");
        Quiescence.assertQuiescent(longs, refs);
    }

    /** Transfers between random elements, by read-write and by commit-time adds: the sum never changes. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void transfersBetweenElementsKeepTheSum(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        int n = 16;
        TxLongArray accounts = new TxLongArray(stm, n);
        TxRefArray<Long> boxed = new TxRefArray<>(stm, n);
        for (int i = 0; i < n; i++) {
            accounts.single().set(i, 100);
            boxed.single().set(i, 100L);
        }
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            long seed = w;
            threads.add(new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(seed);
                for (int i = 0; i < Protocols.scaled(500); i++) {
                    int from = rnd.nextInt(n);
                    int to = rnd.nextInt(n);
                    long amount = rnd.nextInt(10);
                    stm.run(txn -> {
                        if (seed == 0) {
                            accounts.add(txn, from, -amount);
                            accounts.add(txn, to, amount);
                        } else {
                            accounts.set(txn, from, accounts.get(txn, from) - amount);
                            accounts.set(txn, to, accounts.get(txn, to) + amount);
                        }
                        boxed.set(txn, from, boxed.get(txn, from) - amount);
                        boxed.set(txn, to, boxed.get(txn, to) + amount);
                    });
                    long[] sums = stm.readOnly(txn -> {
                        long a = 0;
                        long b = 0;
                        for (int k = 0; k < n; k++) {
                            a += accounts.get(txn, k);
                            b += boxed.get(txn, k);
                        }
                        return new long[] {a, b};
                    });
                    if (sums[0] != 100L * n || sums[1] != 100L * n) {
                        problems.add("sums " + sums[0] + ", " + sums[1]);
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), new ArrayList<>(problems));
        Quiescence.assertQuiescent(accounts, boxed);
    }
}
