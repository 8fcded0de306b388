package io.jato.protocols.suite;

import io.jato.collections.TxHashSet;
import io.jato.collections.TxLongHashSet;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TxHashSet} and {@link TxLongHashSet} under every protocol: semantics, bad input, and an invariant under concurrency. */
@Timeout(120)
class TxHashSetContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void addRemoveContainsInsideAndAcrossTransactions(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashSet<String> set = new TxHashSet<>(stm);
        assertTrue(set.single().add("a"));
        assertFalse(set.single().add("a"));
        List<Boolean> seen = stm.atomic(txn -> List.of(set.add(txn, "b"), set.add(txn, "b"), set.contains(txn, "b"),
                set.remove(txn, "a"), set.contains(txn, "a"), set.remove(txn, "a"), set.isEmpty(txn)));
        assertEquals(List.of(true, false, true, true, false, false, false), seen);
        assertTrue(set.single().contains("b"));
        assertFalse(set.single().contains("a"));
        assertEquals(1, set.single().size());
        Set<String> all = new TreeSet<>();
        set.single().forEach(all::add);
        assertEquals(Set.of("b"), all);
        stm.run(txn -> set.remove(txn, "b"));
        assertTrue(stm.atomic(set::isEmpty));
        NullPointerException e = assertThrows(NullPointerException.class, () -> stm.run(txn -> set.add(txn, null)));
        assertTrue(e.getMessage().contains("element"), e.getMessage());
        assertThrows(NullPointerException.class, () -> set.single().contains(null));
        assertThrows(IllegalStateException.class, () -> stm.run(txn -> set.single().add("x")));
        assertEquals(0, set.single().size(), "a refused operation changes nothing");
        Quiescence.assertQuiescent(set);

        TxLongHashSet longs = new TxLongHashSet(stm);
        assertTrue(longs.single().add(7));
        List<Object> got = stm.atomic(txn -> {
            boolean added = longs.add(txn, 8);
            boolean again = longs.add(txn, 7);
            boolean removed = longs.remove(txn, 7);
            Set<Long> elements = new TreeSet<>();
            longs.forEach(txn, elements::add);
            return List.of(added, again, removed, elements, longs.size(txn));
        });
        assertEquals(List.of(true, false, true, Set.of(8L), 1), got);
        assertTrue(longs.single().contains(8));
        assertTrue(longs.single().remove(8));
        assertEquals(0, longs.single().size());
        Quiescence.assertQuiescent(longs);
    }

    /**
     * Workers move elements between two sets (remove from one, add to the other) while an
     * auditor counts both by size in one transaction: it must always see every element exactly once.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void movingElementsBetweenSetsKeepsTheirUnionWhole(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxLongHashSet left = new TxLongHashSet(stm, 64);
        TxHashSet<Long> right = new TxHashSet<>(stm, 64);
        int n = 40;
        for (long e = 0; e < n; e++) {
            left.single().add(e);
        }
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            long seed = w;
            workers.add(new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(seed);
                for (int i = 0; i < Protocols.scaled(500); i++) {
                    long e = rnd.nextInt(n);
                    stm.run(txn -> {
                        if (left.remove(txn, e)) {
                            right.add(txn, e);
                        } else if (right.remove(txn, e)) {
                            left.add(txn, e);
                        } else {
                            throw new AssertionError("element " + e + " in neither set");
                        }
                    });
                }
            }));
        }
        Thread auditor = new Thread(() -> {
            while (!stop.get()) {
                int[] sizes = stm.readOnly(txn -> new int[] {left.size(txn), right.size(txn)});
                if (sizes[0] + sizes[1] != n) {
                    problems.add("audit saw " + sizes[0] + " + " + sizes[1]);
                }
            }
        });
        workers.forEach(Thread::start);
        auditor.start();
        for (Thread t : workers) {
            t.join();
        }
        stop.set(true);
        auditor.join();
        assertEquals(List.of(), new ArrayList<>(problems));
        assertEquals(n, left.single().size() + right.single().size());
        Quiescence.assertQuiescent(left, right);
    }
}
