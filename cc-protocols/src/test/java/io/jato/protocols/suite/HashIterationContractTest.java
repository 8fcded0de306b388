package io.jato.protocols.suite;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxHashSet;
import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongHashSet;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code size(txn)} and {@code forEach(txn, ...)} of the hash maps and sets under every protocol:
 * what they see (the transaction's own inserts, updates and deletes), and that they are
 * phantom-safe: a transaction that took the size or iterated conflicts with an insert or delete
 * that commits before it.
 */
@Timeout(120)
class HashIterationContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void sizeAndForEachSeeTheTransactionsOwnChanges(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, Integer> map = new TxHashMap<>(stm);
        TxLongHashMap<Integer> longMap = new TxLongHashMap<>(stm);
        for (int i = 0; i < 100; i++) {
            map.single().put("k" + i, i);
            longMap.single().put(i, i);
        }
        Map<String, Integer> seen = stm.atomic(txn -> {
            map.put(txn, "new", 1000);          // own insert
            map.remove(txn, "k0");              // own delete
            map.put(txn, "k1", -1);             // own update
            map.update(txn, "k2", v -> v + 500); // pending commit-time update: applied when iterated
            Map<String, Integer> out = new TreeMap<>();
            map.forEach(txn, (k, v) -> {
                if (out.put(k, v) != null) {
                    throw new AssertionError("visited twice: " + k);
                }
            });
            assertEquals(out.size(), map.size(txn));
            return out;
        });
        Map<String, Integer> expected = new TreeMap<>();
        for (int i = 1; i < 100; i++) {
            expected.put("k" + i, i);
        }
        expected.put("new", 1000);
        expected.put("k1", -1);
        expected.put("k2", 502);
        assertEquals(expected, seen);
        assertEquals(100, map.single().size());

        long[] sums = stm.atomic(txn -> {
            longMap.remove(txn, 5);
            longMap.put(txn, 1000, 7);
            long[] s = {0, 0};
            longMap.forEach(txn, (k, v) -> {
                s[0] += k;
                s[1] += v;
            });
            return new long[] {s[0], s[1], longMap.size(txn)};
        });
        assertEquals(List.of(4950L - 5 + 1000, 4950L - 5 + 7, 100L), List.of(sums[0], sums[1], sums[2]));
        TxHashMap<String, String> empty = new TxHashMap<>(stm);
        assertEquals(0, (int) stm.atomic(empty::size));
        assertThrows(NullPointerException.class, () -> stm.run(txn -> map.forEach(txn, null)));
        Quiescence.assertQuiescent(map, longMap);
    }

    /** T1 inserts if the map is empty, T2 too: in every serial order exactly one of them inserts. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void takingTheSizeConflictsWithAConcurrentInsert(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        boolean followed = PhantomTest.markerRace(stm, txn -> map.size(txn) == 0, txn -> map.put(txn, "a", "T1"),
                txn -> map.size(txn) != 0, txn -> map.put(txn, "b", "T2"));
        int size = map.single().size();
        new Outcome("size vs insert under " + protocol, size == 1 ? null
                : size == 2 ? "phantom: both saw the map empty and inserted" : "neither inserted", followed,
                Quiescence.problems(map)).assertCorrect();
    }

    /** The same over a long set's iteration and deletes: T1 and T2 each delete one of two elements if both are there. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void iteratingConflictsWithAConcurrentDelete(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLongHashSet set = new TxLongHashSet(stm);
        set.single().add(1);
        set.single().add(2);
        boolean followed = PhantomTest.markerRace(stm, txn -> count(set, txn) == 2, txn -> set.remove(txn, 1),
                txn -> count(set, txn) != 2, txn -> set.remove(txn, 2));
        int size = set.single().size();
        new Outcome("iteration vs delete under " + protocol, size == 1 ? null
                : size == 0 ? "phantom: both saw two elements and deleted one" : "neither deleted", followed,
                Quiescence.problems(set)).assertCorrect();
    }

    /** The same over an object set's iteration and inserts. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void iteratingASetConflictsWithAConcurrentInsert(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashSet<String> set = new TxHashSet<>(stm);
        set.single().add("seed");
        boolean followed = PhantomTest.markerRace(stm, txn -> count(set, txn) == 1, txn -> set.add(txn, "T1"),
                txn -> count(set, txn) != 1, txn -> set.add(txn, "T2"));
        int size = set.single().size();
        new Outcome("set iteration vs insert under " + protocol, size == 2 ? null
                : size == 3 ? "phantom: both saw one element and added theirs" : "neither added", followed,
                Quiescence.problems(set)).assertCorrect();
    }

    private static int count(TxLongHashSet set, io.jato.stm.Txn txn) {
        int[] n = {0};
        set.forEach(txn, e -> n[0]++);
        return n[0];
    }

    private static int count(TxHashSet<String> set, io.jato.stm.Txn txn) {
        int[] n = {0};
        set.forEach(txn, e -> n[0]++);
        return n[0];
    }

    /**
     * Workers move whole balances between keys, deleting the source key and inserting (or adding
     * to) the target, while auditors sum the map by iterating it in a transaction: every audit
     * must see the total, whatever inserts and deletes commit meanwhile.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void auditsByIterationAlwaysSeeTheTotalWhileKeysComeAndGo(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxLongHashMap<Long> map = new TxLongHashMap<>(stm, 64);
        int keys = 32;
        for (int k = 0; k < keys; k++) {
            map.single().put(k, 10L);
        }
        long total = 10L * keys;
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            long seed = w;
            threads.add(new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(seed);
                for (int i = 0; i < Protocols.scaled(400); i++) {
                    long from = rnd.nextInt(2 * keys);
                    long to = rnd.nextInt(2 * keys);
                    stm.run(txn -> {
                        Long amount = map.remove(txn, from);
                        if (amount != null && from != to) {
                            Long there = map.get(txn, to);
                            map.put(txn, to, there == null ? amount : there + amount);
                        } else if (amount != null) {
                            map.put(txn, from, amount);
                        }
                    });
                }
            }));
        }
        Thread auditor = new Thread(() -> {
            while (!stop.get()) {
                long[] seen = stm.readOnly(txn -> {
                    long[] s = {0, 0};
                    map.forEach(txn, (k, v) -> {
                        s[0] += v;
                        s[1]++;
                    });
                    return new long[] {s[0], s[1], map.size(txn)};
                });
                if (seen[0] != total || seen[1] != seen[2]) {
                    problems.add("audit saw sum " + seen[0] + " over " + seen[1] + " keys, size " + seen[2]);
                }
            }
        });
        threads.forEach(Thread::start);
        auditor.start();
        for (Thread t : threads) {
            t.join();
        }
        stop.set(true);
        auditor.join();
        assertEquals(List.of(), new ArrayList<>(problems));
        long[] sum = {0};
        map.single().forEach((k, v) -> sum[0] += v);
        assertEquals(total, sum[0]);
        Quiescence.assertQuiescent(map);
    }
}
