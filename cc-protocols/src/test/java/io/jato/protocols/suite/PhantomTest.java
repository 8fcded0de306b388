package io.jato.protocols.suite;

import io.jato.collections.TxCounter;
import io.jato.collections.TxHashMap;
import io.jato.collections.TxRef;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.Txn;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Phantoms on point keys of {@link TxHashMap}: that a key was ABSENT is a read like any other and
 * must be validated, so an insert that commits after it invalidates the reader. Likewise for a key
 * read present and then deleted.
 */
@Timeout(120)
class PhantomTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    /**
     * The schedule of the mutual-exclusion scenarios: T1 evaluates {@code t1Reads} and, if it holds,
     * runs {@code t1Marks}; T2 evaluates {@code t2SeesMark} and, unless it holds, runs
     * {@code t2Acts}. Both read before either writes (first attempts only). In every serial order
     * exactly one of them acts, so "both acted" is an anomaly, and so is "neither acted".
     *
     * @return whether the interleaving ran as scheduled
     */
    static boolean markerRace(Stm stm, Predicate<Txn> t1Reads, Consumer<Txn> t1Marks, Predicate<Txn> t2SeesMark,
                              Consumer<Txn> t2Acts) {
        Interleaving il = new Interleaving();
        il.thread("T1", () -> stm.run(txn -> {
            boolean holds = t1Reads.test(txn);
            if (txn.attempt() == 0) {
                il.signal("T1 read");
                il.await("T2 read");
            }
            if (holds) {
                t1Marks.accept(txn);
            }
        }));
        il.thread("T2", () -> stm.run(txn -> {
            if (txn.attempt() == 0) {
                il.await("T1 read");
            }
            boolean marked = t2SeesMark.test(txn);
            if (txn.attempt() == 0) {
                il.signal("T2 read");
            }
            if (!marked) {
                t2Acts.accept(txn);
            }
        }));
        il.run();
        return il.followedSchedule();
    }

    /** @return the anomaly of a {@link #markerRace} that ended with {@code marked} and {@code acted}, or null */
    static String markerAnomaly(boolean marked, boolean acted, String bothActed) {
        return marked == acted ? (marked ? bothActed : "neither transaction acted") : null;
    }

    /**
     * Mutual exclusion through absence: T1 sets a marker if key k is absent; T2 inserts k if the
     * marker is unset. Every serial order does exactly one of the two. Scheduled: both read, then
     * both write. The marker is a {@link TxRef} or, if {@code markerInMap}, another key of the map.
     */
    static Outcome absentReadVersusInsert(Stm stm, boolean markerInMap) {
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        TxRef<String> ref = new TxRef<>(stm, null);
        boolean followed = markerRace(stm, txn -> !map.containsKey(txn, "k"), txn -> {
            if (markerInMap) {
                map.put(txn, "marker", "T1");
            } else {
                ref.set(txn, "T1");
            }
        }, txn -> (markerInMap ? map.get(txn, "marker") : ref.get(txn)) != null, txn -> map.put(txn, "k", "T2"));
        boolean marked = (markerInMap ? map.single().get("marker") : ref.single().get()) != null;
        String anomaly = markerAnomaly(marked, map.single().get("k") != null,
                "phantom: T1 saw k absent and T2 saw no marker, so both acted (marker set and k inserted)");
        return new Outcome("absent read vs insert (marker in " + (markerInMap ? "map" : "TxRef") + ") under "
                + stm.protocol(), anomaly, followed, Quiescence.problems(map, ref));
    }

    /**
     * The same with a delete: T1 sets a marker if k is present; T2 deletes k if the marker is
     * unset. Every serial order leaves exactly one of "marker set" and "k deleted" false.
     */
    static Outcome presentReadVersusDelete(Stm stm) {
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        map.single().put("k", "initial");
        TxRef<String> marker = new TxRef<>(stm, null);
        boolean followed = markerRace(stm, txn -> map.get(txn, "k") != null, txn -> marker.set(txn, "T1"),
                txn -> marker.get(txn) != null, txn -> map.remove(txn, "k"));
        String anomaly = markerAnomaly(marker.single().get() != null, map.single().get("k") == null,
                "T1 saw k present and T2 saw no marker, so both acted (marker set and k deleted)");
        return new Outcome("present read vs delete under " + stm.protocol(), anomaly, followed,
                Quiescence.problems(map, marker));
    }

    /**
     * Insert-if-absent by two transactions: each checks that k is absent, then inserts its own
     * value. Exactly one may succeed, and k holds the winner's value.
     */
    static Outcome insertIfAbsentTwice(Stm stm) {
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        List<String> winners = Collections.synchronizedList(new ArrayList<>());
        Interleaving il = new Interleaving();
        for (String me : List.of("T1", "T2")) {
            String other = me.equals("T1") ? "T2" : "T1";
            il.thread(me, () -> {
                boolean inserted = stm.atomic(txn -> {
                    boolean present = map.containsKey(txn, "k");
                    if (txn.attempt() == 0) {
                        il.signal(me + " read");
                        il.await(other + " read");
                    }
                    if (!present) {
                        map.put(txn, "k", me);
                        return true;
                    }
                    return false;
                });
                if (inserted) {
                    winners.add(me);
                }
            });
        }
        il.run();
        String anomaly = null;
        if (winners.size() != 1) {
            anomaly = "expected exactly one insert, got " + winners;
        } else if (!winners.get(0).equals(map.single().get("k"))) {
            anomaly = "k holds " + map.single().get("k") + " but " + winners.get(0) + " inserted it";
        }
        return new Outcome("insert if absent, twice, under " + stm.protocol(), anomaly, il.followedSchedule(),
                Quiescence.problems(map));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void readingAKeyAbsentConflictsWithItsInsert(String protocol) {
        absentReadVersusInsert(Protocols.store(protocol), false).assertCorrect();
        absentReadVersusInsert(Protocols.store(protocol), true).assertCorrect();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void readingAKeyPresentConflictsWithItsDelete(String protocol) {
        presentReadVersusDelete(Protocols.store(protocol)).assertCorrect();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void twoInsertIfAbsentTransactionsInsertOnce(String protocol) {
        insertIfAbsentTwice(Protocols.store(protocol)).assertCorrect();
    }

    /**
     * Unscheduled: writers toggle random keys (insert if absent, delete if present — so keys are
     * deleted and re-inserted over and over) and keep a {@link TxCounter} of the map's size in the
     * same transactions; read-only auditors count the present keys one by one and must always find
     * the counter's value. A phantom (a key appearing or vanishing behind a committed reader) shows
     * up as a mismatch.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aSizeCounterMatchesEverySnapshotWhileKeysComeAndGo(String protocol) {
        Stm stm = Protocols.store(protocol);
        int keys = 24;
        TxHashMap<Integer, Integer> map = new TxHashMap<>(stm, keys);
        TxCounter size = new TxCounter(stm);
        int perWriter = Protocols.scaled(3_000);
        AtomicInteger writersLeft = new AtomicInteger(3);
        AtomicReference<String> mismatch = new AtomicReference<>();
        AtomicInteger audits = new AtomicInteger();
        Interleaving il = new Interleaving();
        for (int w = 0; w < 3; w++) {
            SplittableRandom rnd = new SplittableRandom(w);
            il.thread("toggler-" + w, () -> {
                try {
                    for (int i = 0; i < perWriter; i++) {
                        int a = rnd.nextInt(keys);
                        int b = rnd.nextBoolean() ? rnd.nextInt(keys) : a;
                        int value = i;
                        stm.run(txn -> {
                            toggle(txn, map, size, a, value);
                            if (b != a) {
                                toggle(txn, map, size, b, value);
                            }
                        });
                    }
                } finally {
                    writersLeft.decrementAndGet();
                }
            });
        }
        il.thread("auditor", () -> {
            for (int n = 0; n < 50 || writersLeft.get() > 0; n++) {
                String bad = stm.readOnly(txn -> {
                    int present = 0;
                    for (int k = 0; k < keys; k++) {
                        present += map.containsKey(txn, k) ? 1 : 0;
                    }
                    long counted = size.get(txn);
                    return present == counted ? null : present + " keys present but the size counter says " + counted;
                });
                audits.incrementAndGet();
                if (bad != null) {
                    mismatch.compareAndSet(null, bad);
                }
            }
        });
        il.run();
        assertNull(mismatch.get(), "a committed read-only snapshot saw a phantom");
        assertEquals(map.single().size(), size.single().get());
        int[] present = {0};
        map.single().forEach((k, v) -> present[0]++);
        assertEquals(map.single().size(), present[0]);
        StmStatistics st = stm.statistics();
        assertEquals(3L * perWriter + audits.get(), st.commits(), st::toString);
        Quiescence.assertQuiescent(map, size);
    }

    private static void toggle(Txn txn, TxHashMap<Integer, Integer> map, TxCounter size, int k, int v) {
        if (map.remove(txn, k) != null) {
            size.add(txn, -1);
        } else {
            map.put(txn, k, v);
            size.add(txn, 1);
        }
    }

    /**
     * Unscheduled: four threads race to insert every key of a range with putIfAbsent, then race to
     * delete them; each key is inserted exactly once and deleted exactly once, and a counter
     * updated in the same transactions agrees.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void racingInsertsAndDeletesHappenOncePerKey(String protocol) {
        Stm stm = Protocols.store(protocol);
        int keys = 64;
        int threads = 4;
        int rounds = Protocols.scaled(10);
        for (int round = 0; round < rounds; round++) {
            TxHashMap<Integer, String> map = new TxHashMap<>(stm, keys);
            TxRef<Integer> count = new TxRef<>(stm, 0);
            ConcurrentHashMap<Integer, String> insertedBy = new ConcurrentHashMap<>();
            ConcurrentHashMap<Integer, String> deletedBy = new ConcurrentHashMap<>();
            AtomicInteger duplicates = new AtomicInteger();
            Interleaving inserts = new Interleaving();
            Interleaving deletes = new Interleaving();
            for (int t = 0; t < threads; t++) {
                String me = "racer-" + t;
                int offset = t * 7;
                inserts.thread(me, () -> {
                    for (int i = 0; i < keys; i++) {
                        int k = (i + offset) % keys;
                        boolean won = stm.atomic(txn -> {
                            if (map.putIfAbsent(txn, k, me) == null) {
                                count.set(txn, count.get(txn) + 1);
                                return true;
                            }
                            return false;
                        });
                        if (won && insertedBy.putIfAbsent(k, me) != null) {
                            duplicates.incrementAndGet();
                        }
                    }
                });
                deletes.thread(me, () -> {
                    for (int i = 0; i < keys; i++) {
                        int k = (keys - 1 - i + offset) % keys;
                        boolean won = stm.atomic(txn -> {
                            if (map.remove(txn, k) != null) {
                                count.set(txn, count.get(txn) - 1);
                                return true;
                            }
                            return false;
                        });
                        if (won && deletedBy.putIfAbsent(k, me) != null) {
                            duplicates.incrementAndGet();
                        }
                    }
                });
            }
            inserts.run();
            assertEquals(keys, count.single().get());
            assertEquals(keys, map.single().size());
            for (int k = 0; k < keys; k++) {
                assertEquals(insertedBy.get(k), map.single().get(k), "the value is the winner's");
            }
            deletes.run();
            assertEquals(0, duplicates.get(), "a key was inserted or deleted twice");
            assertEquals(keys, insertedBy.size());
            assertEquals(keys, deletedBy.size());
            assertEquals(0, count.single().get());
            assertEquals(0, map.single().size());
            for (int k = 0; k < keys; k++) {
                assertNull(map.single().get(k));
            }
            Quiescence.assertQuiescent(map, count);
        }
        StmStatistics st = stm.statistics();
        assertEquals(2L * keys * threads * rounds, st.commits(), st::toString);
    }
}
