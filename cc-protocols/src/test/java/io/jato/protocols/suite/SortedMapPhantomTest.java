package io.jato.protocols.suite;

import io.jato.collections.TxCounter;
import io.jato.collections.TxRef;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.Txn;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Phantoms in sorted maps: what a range scan, a navigation ({@code floorKey}, ...) or a lookup of an
 * absent key read includes the ABSENCE of keys, and an insert or delete that commits inside what it
 * read must invalidate it; an insert elsewhere must not. Each scheduled scenario is the mutual
 * exclusion pattern of {@link PhantomTest}: T1 sets a marker if what it read is unchanged, T2 changes
 * it if the marker is unset; every serial order does exactly one of the two.
 */
@Timeout(120)
class SortedMapPhantomTest {
    private static final String KINDS = "io.jato.protocols.suite.AnySortedMap#protocolsAndKinds";

    /** Keys 0, 10, ..., 190 present; nodes of 4 keys, so the scanned range spans several leaves. */
    private static AnySortedMap<String> loaded(Stm stm, String kind) {
        AnySortedMap<String> map = AnySortedMap.create(kind, stm, 4, 0);
        for (long k = 0; k < 200; k += 10) {
            map.singlePut(k, "v" + k);
        }
        return map;
    }

    /**
     * {@link PhantomTest#markerRace}: T1 sets a marker if {@code read} returns true (what it read is
     * unchanged); T2 runs {@code change} if it sees no marker; {@code changed} tells whether the
     * change happened (committed state).
     */
    static Outcome markerScenario(Stm stm, String what, AnySortedMap<String> map, Predicate<Txn> read,
                                  Consumer<Txn> change, Predicate<AnySortedMap<String>> changed) {
        TxRef<String> marker = new TxRef<>(stm, null);
        boolean followed = PhantomTest.markerRace(stm, read, txn -> marker.set(txn, "T1"),
                txn -> marker.get(txn) != null, change);
        String anomaly = PhantomTest.markerAnomaly(marker.single().get() != null, changed.test(map),
                "phantom: T1's read (" + what + ") did not see T2's change, T2 did not see T1's marker, and both committed");
        return new Outcome(what + " on " + map + " under " + stm.protocol(), anomaly, followed,
                Quiescence.problems(map, marker));
    }

    /** A scan of [50, 100] (optionally descending with a limit) versus an insert into what it read. */
    static Outcome scanVersusInsert(Stm stm, String kind, boolean descending, int limit) {
        AnySortedMap<String> map = loaded(stm, kind);
        List<Long> expected = new ArrayList<>();
        for (long k = descending ? 100 : 50; descending ? k >= 50 : k <= 100; k += descending ? -10 : 10) {
            if (expected.size() < limit) {
                expected.add(k);
            }
        }
        long insert = descending ? 95 : 55;
        return markerScenario(stm, "scan [50, 100]" + (descending ? " descending" : "") + " limit " + limit
                        + " vs insert " + insert, map,
                txn -> {
                    List<Long> seen = new ArrayList<>();
                    map.scan(txn, 50, true, 100, true, limit, descending, (k, v) -> seen.add(k));
                    return seen.equals(expected);
                },
                txn -> map.put(txn, insert, "T2"), m -> m.contents().containsKey(insert));
    }

    /** A scan of [50, 100] versus the delete of a key it saw. */
    static Outcome scanVersusDelete(Stm stm, String kind) {
        AnySortedMap<String> map = loaded(stm, kind);
        return markerScenario(stm, "scan [50, 100] vs delete 70", map,
                txn -> map.keys(txn, 50, 100).size() == 6,
                txn -> map.remove(txn, 70), m -> !m.contents().containsKey(70L));
    }

    /** A lookup of an absent key versus its insert. */
    static Outcome absentGetVersusInsert(Stm stm, String kind) {
        AnySortedMap<String> map = loaded(stm, kind);
        return markerScenario(stm, "absent get 75 vs insert 75", map,
                txn -> map.get(txn, 75) == null,
                txn -> map.put(txn, 75, "T2"), m -> m.contents().containsKey(75L));
    }

    /** A navigation ({@code floorKey(78) == 70} or {@code ceilingKey(71) == 80}) versus an insert between. */
    static Outcome navigationVersusInsert(Stm stm, String kind, boolean floor) {
        AnySortedMap<String> map = loaded(stm, kind);
        return markerScenario(stm, (floor ? "floorKey(78)" : "ceilingKey(71)") + " vs insert 75", map,
                txn -> floor ? Long.valueOf(70).equals(map.nav(txn, AnySortedMap.FLOOR, 78))
                        : Long.valueOf(80).equals(map.nav(txn, AnySortedMap.CEILING, 71)),
                txn -> map.put(txn, 75, "T2"), m -> m.contents().containsKey(75L));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(KINDS)
    void scansLookupsAndNavigationConflictWithChangesToWhatTheyRead(String protocol, String kind) {
        scanVersusInsert(Protocols.store(protocol), kind, false, Integer.MAX_VALUE).assertCorrect();
        scanVersusInsert(Protocols.store(protocol), kind, false, 3).assertCorrect();
        scanVersusInsert(Protocols.store(protocol), kind, true, 3).assertCorrect();
        scanVersusDelete(Protocols.store(protocol), kind).assertCorrect();
        absentGetVersusInsert(Protocols.store(protocol), kind).assertCorrect();
        navigationVersusInsert(Protocols.store(protocol), kind, true).assertCorrect();
        navigationVersusInsert(Protocols.store(protocol), kind, false).assertCorrect();
    }

    /**
     * T1 scans [1000, 1100] of a 400-key map and waits while T2 inserts, deletes and updates keys
     * far away (other leaves) and commits: T1 then commits at its first attempt. As a control, the
     * same schedule with T2 inserting 1055 makes T1 retry whenever the schedule could run.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(KINDS)
    void changesOutsideTheScannedRangeDoNotAbortTheScan(String protocol, String kind) {
        for (boolean inside : new boolean[] {false, true}) {
            Stm stm = Protocols.store(protocol);
            AnySortedMap<String> map = AnySortedMap.create(kind, stm, 8, 0);
            for (long k = 0; k < 4000; k += 10) {
                map.singlePut(k, "v" + k);
            }
            AtomicInteger attempts = new AtomicInteger();
            AtomicReference<String> lastRead = new AtomicReference<>();
            Interleaving il = new Interleaving();
            il.thread("scanner", () -> stm.run(txn -> {
                attempts.incrementAndGet();
                map.keys(txn, 1000, 1100);
                if (txn.attempt() == 0) {
                    il.signal("scanned");
                    il.await("changed");
                }
                // Reading the writer's key orders the scan after the writer in every
                // single-version protocol (TicToc would otherwise commit a read-only scan before
                // the insert); a multi-version one may still read it as of before the writer.
                lastRead.set(map.get(txn, 2000));
            }));
            il.thread("writer", () -> {
                il.await("scanned");
                stm.run(txn -> {
                    if (inside) {
                        map.put(txn, 1055, "new");
                    } else {
                        map.put(txn, 3555, "new");
                        map.remove(txn, 200);
                    }
                    map.put(txn, 2000, "updated");
                });
                il.signal("changed");
            });
            il.run();
            if (!inside) {
                assertEquals(1, attempts.get(), "the scan was aborted by changes outside its range");
            } else if (il.followedSchedule() && !"v2000".equals(lastRead.get())) {
                // Serialized after the writer: its insert inside the range must have aborted the scan.
                assertEquals(2, attempts.get(), "the control: an insert inside the range must abort the scan");
            }
            Quiescence.assertQuiescent(map);
        }
    }

    /**
     * Unscheduled: writers toggle random keys (insert if absent, delete if present, so leaves split
     * and empty out) and keep a counter per half of the key space in the same transactions;
     * read-only auditors count the keys of a random half - or both - by scanning, in either
     * direction, and must always find what the counters say.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(KINDS)
    void rangeCountsMatchCountersWhileKeysComeAndGo(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        int keys = 64;
        AnySortedMap<Integer> map = AnySortedMap.create(kind, stm, 4, 0);
        TxCounter low = new TxCounter(stm);
        TxCounter high = new TxCounter(stm);
        int perWriter = Protocols.scaled(2_000);
        AtomicInteger writersLeft = new AtomicInteger(2);
        AtomicReference<String> mismatch = new AtomicReference<>();
        AtomicInteger audits = new AtomicInteger();
        Interleaving il = new Interleaving();
        for (int w = 0; w < 2; w++) {
            SplittableRandom rnd = new SplittableRandom(w);
            il.thread("toggler-" + w, () -> {
                try {
                    for (int i = 0; i < perWriter; i++) {
                        int a = rnd.nextInt(keys);
                        int b = rnd.nextInt(keys);
                        stm.run(txn -> {
                            toggle(txn, map, a < keys / 2 ? low : high, a);
                            if (b != a) {
                                toggle(txn, map, b < keys / 2 ? low : high, b);
                            }
                        });
                    }
                } finally {
                    writersLeft.decrementAndGet();
                }
            });
        }
        il.thread("auditor", () -> {
            SplittableRandom rnd = new SplittableRandom(99);
            for (int n = 0; n < 50 || writersLeft.get() > 0; n++) {
                int which = rnd.nextInt(3);
                boolean desc = rnd.nextBoolean();
                String bad = stm.readOnly(txn -> {
                    long from = which == 1 ? keys / 2 : 0;
                    long to = which == 0 ? keys / 2 - 1 : keys - 1;
                    int[] seen = {0};
                    map.scan(txn, from, true, to, true, Integer.MAX_VALUE, desc, (k, v) -> ++seen[0] > 0);
                    long counted = (which != 1 ? low.get(txn) : 0) + (which != 0 ? high.get(txn) : 0);
                    return seen[0] == counted ? null
                            : seen[0] + " keys in [" + from + ", " + to + "] but the counters say " + counted;
                });
                audits.incrementAndGet();
                if (bad != null) {
                    mismatch.compareAndSet(null, bad);
                }
            }
        });
        il.run();
        assertNull(mismatch.get(), "a committed read-only scan saw a phantom");
        assertEquals(low.single().get() + high.single().get(), map.contents().size());
        StmStatistics st = stm.statistics();
        assertEquals(2L * perWriter + audits.get(), st.commits(), st::toString);
        Quiescence.assertQuiescent(map, low, high);
    }

    private static void toggle(Txn txn, AnySortedMap<Integer> map, TxCounter count, int k) {
        if (map.remove(txn, k) != null) {
            count.add(txn, -1);
        } else {
            map.put(txn, k, k);
            count.add(txn, 1);
        }
    }
}
