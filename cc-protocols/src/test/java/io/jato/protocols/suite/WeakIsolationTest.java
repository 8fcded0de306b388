package io.jato.protocols.suite;

import io.jato.collections.TxRef;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnAbortedException;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * TicToc's isolation levels (seed 001 §5.4): {@code tictoc} (serializable), {@code tictoc-si}
 * (snapshot isolation) and {@code tictoc-rr} (repeatable read). The two weak levels are excluded
 * from the serializability suites ({@link Protocols#weaklyIsolated()}); this suite is where they are
 * tested, against {@link #TABLE}: the table "Isolation levels" of {@code docs/tictoc.md}, row for
 * row ({@link #theTableIsTheOneInTheDocs} checks that the two agree, names and verdicts).
 *
 * <p>Each row is an anomaly with a deterministic schedule ({@link Interleaving}) that produces it
 * whenever a level lets it, run on every data type the row names, at every level:
 * <ul>
 *   <li>"prevented": the schedule runs and the outcome is one some serial order produces;</li>
 *   <li>"allowed": the schedule runs and the anomaly <em>happens</em> — a proof that the level
 *       really is weaker, not just declared so. Where a level is stricter than it has to be on some
 *       data type, the row names those data types and the case is skipped with the reason.</li>
 * </ul>
 * Nothing is left locked afterwards in either case.
 */
@Timeout(120)
class WeakIsolationTest {
    private static final String SR = "tictoc";
    private static final String SI = "tictoc-si";
    private static final String RR = "tictoc-rr";
    private static final List<String> LEVELS = List.of(SR, SI, RR);

    private static final boolean P = false;
    private static final boolean A = true;

    /** Every cell kind. */
    private static final List<String> CELLS = Cells.KINDS;
    /** The maps, with string keys ({@link AnyMap}). */
    private static final List<String> MAPS = AnyMap.KINDS;
    /** The sorted maps, with long keys ({@link AnySortedMap}). */
    private static final List<String> SORTED = AnySortedMap.KINDS;
    /**
     * Cells that are map keys: they are loaded with {@code single()} writes, which raise TicToc's
     * floor (docs/tictoc.md, "Departure: the floor") above the versions the schedules read, so the
     * snapshot of SI moves past them and it aborts where a multi-version SI would commit: stricter
     * than necessary, never weaker.
     */
    private static final Set<String> MAP_CELLS = Set.of("TxHashMap", "TxSortedMap", "TxLongSortedMap", "TxLongHashMap");

    /** One run of a row's schedule on a fresh store and fresh objects of one data type. */
    interface Scenario {
        Outcome run(Stm stm, String kind);
    }

    /**
     * One row of the table.
     *
     * @param anomaly      the row's name, as in the docs
     * @param allowed      per level ({@link #LEVELS} order): true if the level allows the anomaly
     * @param kinds        the data types the schedule runs on
     * @param siStricterOn data types on which SI prevents an anomaly it allows (see {@link #MAP_CELLS})
     */
    record Row(String anomaly, boolean[] allowed, List<String> kinds, Set<String> siStricterOn, Scenario scenario) {
        boolean allowedAt(String level) {
            return allowed[LEVELS.indexOf(level)];
        }

        String verdictAt(String level) {
            return allowedAt(level) ? "allowed" : "prevented";
        }
    }

    private static Row row(String anomaly, boolean sr, boolean si, boolean rr, List<String> kinds, Set<String> siStricterOn,
                           Scenario scenario) {
        return new Row(anomaly, new boolean[] {sr, si, rr}, kinds, siStricterOn, scenario);
    }

    /** docs/tictoc.md, "Isolation levels", row for row. */
    static final List<Row> TABLE = List.of(
            row("dirty read", P, P, P, CELLS, Set.of(), WeakIsolationTest::dirtyRead),
            row("non-repeatable read (value changed)", P, P, P, CELLS, Set.of(), WeakIsolationTest::changedValue),
            row("non-repeatable read (key deleted)", P, P, P, MAPS, Set.of(), WeakIsolationTest::deletedKey),
            row("lost update", P, P, P, CELLS, Set.of(), LostUpdateTest::scenario),
            row("lost update over a key looked up absent", P, P, P, MAPS, Set.of(), WeakIsolationTest::absentKeyLostUpdate),
            row("read skew", P, P, A, CELLS, Set.of(), (stm, kind) -> TornReadTest.scenario(stm, kind, false, false)),
            row("write skew", P, A, A, CELLS, MAP_CELLS, WriteSkewTest::scenario),
            row("read-only anomaly", P, A, A, CELLS, MAP_CELLS, ReadOnlyAnomalyTest::scenario),
            row("phantom (point lookup)", P, P, A, MAPS, Set.of(), WeakIsolationTest::pointPhantom),
            row("phantom (range scan)", P, P, A, SORTED, Set.of(), WeakIsolationTest::rangePhantom),
            row("write skew over a predicate (absent key)", P, A, A, MAPS, Set.of(), WeakIsolationTest::predicateWriteSkew),
            row("lost update over a key a range scan saw absent", P, P, A, SORTED, Set.of(),
                    WeakIsolationTest::scannedAbsentLostUpdate));

    static Stream<Arguments> cases() {
        return TABLE.stream().flatMap(r -> LEVELS.stream().flatMap(l -> r.kinds().stream().map(k -> Arguments.of(r.anomaly(), l, k))));
    }

    @Test
    void theWeakLevelsAreRegisteredAndExcludedFromTheSerializableSuites() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Protocols.allSelected(), "TicToc's levels are not under test");
        assertEquals(List.of(RR, SI), Protocols.weaklyIsolated());
        assertTrue(Protocols.correct().contains(SR));
        assertTrue(Protocols.correct().stream().noneMatch(Protocols.weaklyIsolated()::contains));
    }

    /** One (row, level, data type) of the table; see the class comment. */
    @ParameterizedTest(name = "{0} | {1} | {2}")
    @MethodSource("cases")
    void eachLevelAllowsOrPreventsWhatTheTableSays(String anomaly, String level, String kind) {
        Row row = TABLE.stream().filter(r -> r.anomaly().equals(anomaly)).findFirst().orElseThrow();
        boolean allowed = row.allowedAt(level);
        assumeFalse(allowed && level.equals(SI) && row.siStricterOn().contains(kind),
                "SI is stricter than necessary on map cells loaded by single() writes (the floor, docs/tictoc.md)");
        Outcome o = row.scenario().run(Protocols.store(level), kind);
        assertTrue(o.followedSchedule(), o.scenario() + ": the schedule did not run");
        if (allowed) {
            assertNotNull(o.anomaly(), o.scenario() + ": the level allows " + anomaly
                    + " and the schedule makes it happen, yet it did not");
            assertTrue(o.notQuiescent().isEmpty(), o.scenario() + ": " + o.notQuiescent());
        } else {
            o.assertCorrect();
        }
    }

    /** The table of the docs, parsed, equals {@link #TABLE}: the same rows, in order, with the same verdicts. */
    @Test
    void theTableIsTheOneInTheDocs() throws IOException {
        Path doc = Path.of(System.getProperty("basedir", "")).toAbsolutePath().resolve("../docs/tictoc.md").normalize();
        List<String> lines = Files.readAllLines(doc);
        int start = lines.indexOf("## Isolation levels (seed 001 §5.4), per store");
        assertTrue(start >= 0, "no section 'Isolation levels' in " + doc);
        List<List<String>> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (!line.startsWith("|")) {
                if (inTable) {
                    break;
                }
                continue;
            }
            inTable = true;
            List<String> cells = Arrays.stream(line.substring(1, line.lastIndexOf('|')).split("\\|"))
                    .map(c -> c.replace("**", "").replace("`", "").trim()).collect(Collectors.toList());
            rows.add(cells);
        }
        assertTrue(rows.size() > 2, "no table in section 'Isolation levels' of " + doc);
        List<String> header = rows.get(0);
        assertEquals(List.of(SR, SI, RR), header.subList(1, 4).stream().map(h -> h.split(" ")[0]).collect(Collectors.toList()),
                "the table's level columns");
        Map<String, List<String>> documented = new LinkedHashMap<>();
        for (List<String> r : rows.subList(2, rows.size())) {
            documented.put(r.get(0), r.subList(1, 4).stream().map(v -> v.toLowerCase(Locale.ROOT)).collect(Collectors.toList()));
        }
        Map<String, List<String>> tested = new LinkedHashMap<>();
        for (Row r : TABLE) {
            tested.put(r.anomaly(), LEVELS.stream().map(r::verdictAt).collect(Collectors.toList()));
        }
        assertEquals(String.join("\n", describe(tested)), String.join("\n", describe(documented)),
                "docs/tictoc.md's isolation table and WeakIsolationTest.TABLE differ");
    }

    private static List<String> describe(Map<String, List<String>> table) {
        return table.entrySet().stream().map(e -> e.getKey() + " | " + String.join(" | ", e.getValue()))
                .collect(Collectors.toList());
    }

    static Stream<Arguments> levelsAndMaps() {
        return LEVELS.stream().flatMap(l -> MAPS.stream().map(k -> Arguments.of(l, k)));
    }

    /**
     * "non-repeatable read (key deleted)" with T1's second lookup and its commit inside the
     * delete's commit: T2's install has unlinked k, and a later entry of T2 (a participant that
     * waits) holds T2 before it publishes, so k's item is still locked when T1 finds k absent and
     * validates. No level may let T1 commit having seen k present and then absent; at RR that rests
     * on the retire hook marking the item retired before the unlink, not at the publish.
     */
    @ParameterizedTest(name = "{0} | {1}")
    @MethodSource("levelsAndMaps")
    void aKeyUnlinkedByADeleteThatHasNotPublishedYetIsNotReadAbsentAfterPresent(String level, String kind) {
        Stm stm = Protocols.store(level);
        AnyMap<Long> map = loadedMap(stm, kind, "k");
        Interleaving il = new Interleaving();
        TxParticipant stall = (txn, e, ts) -> {
            il.signal("T2 unlinked k");
            il.await("T1 committed");
        };
        AtomicReference<Long[]> reads = new AtomicReference<>();
        il.thread("T1", () -> {
            reads.set(stm.atomic(txn -> {
                Long first = map.get(txn, "k");
                if (txn.attempt() == 0) {
                    il.signal("T1 read");
                    il.await("T2 unlinked k");
                }
                return new Long[] {first, map.get(txn, "k")};
            }));
            il.signal("T1 committed");
        });
        il.thread("T2", () -> {
            il.await("T1 read");
            stm.run(txn -> {
                map.remove(txn, "k");
                TxnContext ctx = TxnContext.of(txn, stm);
                // After k's entry, so installed after k is unlinked, and before anything is published.
                ctx.writeCustom(ctx.entry(new TxItem()), stall, null, null);
            });
        });
        il.run();
        Long[] r = reads.get();
        assertTrue(il.followedSchedule(), "the schedule did not run");
        assertEquals(r[0], r[1], "T1 committed having read k = " + r[0] + ", then k = " + r[1]);
        assertNull(map.singleGet("k"), "T2 deleted k");
        Quiescence.assertQuiescent(map);
    }

    // ------------------------------------------------------------------ schedules

    /**
     * Dirty read: T1 writes x = 1 and, before it ends, T2 reads x; then T1 aborts. T2 must have
     * read 0, and x stays 0.
     */
    static Outcome dirtyRead(Stm stm, String kind) {
        Cells[] c = Cells.create(kind, stm, 0);
        AtomicReference<Long> seen = new AtomicReference<>();
        Interleaving il = new Interleaving();
        il.thread("T1", () -> {
            try {
                stm.run(txn -> {
                    c[0].set(txn, 1);
                    il.signal("T1 wrote");
                    il.await("T2 read");
                    txn.abort();
                });
            } catch (TxnAbortedException expected) {
                // the user abort ends T1
            }
        });
        il.thread("T2", () -> {
            il.await("T1 wrote");
            seen.set(stm.atomic(txn -> c[0].get(txn)));
            il.signal("T2 read");
        });
        il.run();
        String anomaly = seen.get() != 0 ? "T2 read " + seen.get() + ", written by T1, which then aborted"
                : c[0].committed() != 0 ? "T1 aborted but x = " + c[0].committed() : null;
        return new Outcome("dirty read on " + kind + " under " + stm.protocol(), anomaly, il.followedSchedule(),
                Quiescence.problems((Object[]) c));
    }

    /**
     * Non-repeatable read of a value: T1 reads x, T2 increments x and commits, T1 reads x again. T1
     * must not commit having read two values.
     */
    static Outcome changedValue(Stm stm, String kind) {
        Cells[] c = Cells.create(kind, stm, 0);
        Interleaving il = new Interleaving();
        AtomicReference<long[]> reads = new AtomicReference<>();
        il.thread("T1", () -> reads.set(stm.atomic(txn -> {
            long first = c[0].get(txn);
            if (txn.attempt() == 0) {
                il.signal("T1 read");
                il.await("T2 committed");
            }
            return new long[] {first, c[0].get(txn)};
        })));
        il.thread("T2", () -> {
            il.await("T1 read");
            stm.run(txn -> c[0].set(txn, c[0].get(txn) + 1));
            il.signal("T2 committed");
        });
        il.run();
        long[] r = reads.get();
        String anomaly = r[0] != r[1] ? "T1 committed having read x = " + r[0] + ", then x = " + r[1] : null;
        return new Outcome("non-repeatable read of a value on " + kind + " under " + stm.protocol(), anomaly,
                il.followedSchedule(), Quiescence.problems((Object[]) c));
    }

    /** A map of {@code kind} holding a, b, y, z (and {@code more}); k sorts between b and y. */
    private static AnyMap<Long> loadedMap(Stm stm, String kind, String... more) {
        AnyMap<Long> map = AnyMap.create(kind, stm);
        for (String key : List.of("a", "b", "y", "z")) {
            map.singlePut(key, 1L);
        }
        for (String key : more) {
            map.singlePut(key, 7L);
        }
        return map;
    }

    /**
     * T1 looks k up, T2 runs {@code t2} and commits, T1 looks k up again; returns both lookups of
     * T1's committed attempt.
     */
    private static Long[] lookupTwice(Stm stm, AnyMap<Long> map, Interleaving il, Consumer<Txn> t2) {
        AtomicReference<Long[]> reads = new AtomicReference<>();
        il.thread("T1", () -> reads.set(stm.atomic(txn -> {
            Long first = map.get(txn, "k");
            if (txn.attempt() == 0) {
                il.signal("T1 read");
                il.await("T2 committed");
            }
            return new Long[] {first, map.get(txn, "k")};
        })));
        il.thread("T2", () -> {
            il.await("T1 read");
            stm.run(t2::accept);
            il.signal("T2 committed");
        });
        il.run();
        return reads.get();
    }

    /**
     * Non-repeatable read of a key: T1 gets k (present), T2 deletes k and commits, T1 gets k again.
     * T1 must not commit having seen k present and then absent (the delete unlinks k's node or slot,
     * so the second lookup does not reach the entry that cached the first read).
     */
    static Outcome deletedKey(Stm stm, String kind) {
        AnyMap<Long> map = loadedMap(stm, kind, "k");
        Interleaving il = new Interleaving();
        Long[] r = lookupTwice(stm, map, il, txn -> map.remove(txn, "k"));
        String anomaly = !Objects.equals(r[0], r[1]) ? "T1 committed having read k = " + r[0] + ", then k = " + r[1] : null;
        return new Outcome("non-repeatable read of a deleted key on " + kind + " under " + stm.protocol(), anomaly,
                il.followedSchedule(), Quiescence.problems(map));
    }

    /**
     * Phantom on a point key: T1 gets k (absent), T2 inserts k and commits, T1 gets k again. Allowed
     * at RR, which does not validate absence it only read.
     */
    static Outcome pointPhantom(Stm stm, String kind) {
        AnyMap<Long> map = loadedMap(stm, kind);
        Interleaving il = new Interleaving();
        Long[] r = lookupTwice(stm, map, il, txn -> map.put(txn, "k", 1L));
        String anomaly = !Objects.equals(r[0], r[1]) ? "phantom: T1 committed having read k = " + r[0] + ", then k = " + r[1]
                : null;
        return new Outcome("phantom on a point key on " + kind + " under " + stm.protocol(), anomaly,
                il.followedSchedule(), Quiescence.problems(map));
    }

    /**
     * Lost update over a key looked up absent: T1 gets k (absent), T2 adds 1 to k (inserting it) and
     * commits, T1 puts k = (what it read, 0 if absent) + 10. Every serial order leaves k = 11; k = 10
     * means T1 overwrote T2's insert without having seen it. With a, b, y, z loaded, T2's insert
     * splits a sorted map's leaf (nodes of 4), so k is no longer in the leaf T1 looked it up in.
     */
    static Outcome absentKeyLostUpdate(Stm stm, String kind) {
        AnyMap<Long> map = loadedMap(stm, kind);
        Interleaving il = new Interleaving();
        il.thread("T1", () -> stm.run(txn -> {
            Long v = map.get(txn, "k");
            if (txn.attempt() == 0) {
                il.signal("T1 read");
                il.await("T2 committed");
            }
            map.put(txn, "k", (v == null ? 0 : v) + 10);
        }));
        il.thread("T2", () -> {
            il.await("T1 read");
            stm.run(txn -> {
                Long v = map.get(txn, "k");
                map.put(txn, "k", (v == null ? 0 : v) + 1);
            });
            il.signal("T2 committed");
        });
        il.run();
        Long k = map.singleGet("k");
        String anomaly = !Long.valueOf(11).equals(k) ? "two committed additions (10 and 1) to an absent key left k = " + k
                + ": T2's insert was lost" : null;
        return new Outcome("lost update over a key looked up absent on " + kind + " under " + stm.protocol(), anomaly,
                il.followedSchedule(), Quiescence.problems(map));
    }

    /**
     * Write skew over a predicate: T1 sets a marker if k is absent, T2 inserts k if the marker is
     * unset ({@link PhantomTest#markerRace}); every serial order does exactly one of the two.
     */
    static Outcome predicateWriteSkew(Stm stm, String kind) {
        AnyMap<Long> map = AnyMap.create(kind, stm);
        TxRef<String> marker = new TxRef<>(stm, null);
        boolean followed = PhantomTest.markerRace(stm, txn -> map.get(txn, "k") == null, txn -> marker.set(txn, "T1"),
                txn -> marker.get(txn) != null, txn -> map.put(txn, "k", 1L));
        String anomaly = PhantomTest.markerAnomaly(marker.single().get() != null, map.singleGet("k") != null,
                "write skew: T1 saw k absent and set the marker, T2 saw no marker and inserted k");
        return new Outcome("write skew over an absent key on " + kind + " under " + stm.protocol(), anomaly, followed,
                Quiescence.problems(map, marker));
    }

    /** A sorted map of nodes of 4 keys holding 10, 20, ..., 100 except 55 (which was never there). */
    private static AnySortedMap<Long> loadedSorted(Stm stm, String kind) {
        AnySortedMap<Long> map = AnySortedMap.create(kind, stm, 4, 0);
        for (long k = 10; k <= 100; k += 10) {
            map.singlePut(k, 1L);
        }
        return map;
    }

    /**
     * Phantom in a range: T1 counts the keys of [10, 100], T2 inserts 55 and commits, T1 counts
     * again. Allowed at RR.
     */
    static Outcome rangePhantom(Stm stm, String kind) {
        AnySortedMap<Long> map = loadedSorted(stm, kind);
        Interleaving il = new Interleaving();
        AtomicReference<int[]> counts = new AtomicReference<>();
        il.thread("T1", () -> counts.set(stm.atomic(txn -> {
            int first = map.keys(txn, 10, 100).size();
            if (txn.attempt() == 0) {
                il.signal("T1 read");
                il.await("T2 committed");
            }
            return new int[] {first, map.keys(txn, 10, 100).size()};
        })));
        il.thread("T2", () -> {
            il.await("T1 read");
            stm.run(txn -> map.put(txn, 55, 1L));
            il.signal("T2 committed");
        });
        il.run();
        int[] c = counts.get();
        String anomaly = c[0] != c[1] ? "phantom: T1 committed having counted " + c[0] + " keys in [10, 100], then " + c[1]
                : null;
        return new Outcome("phantom in a range on " + kind + " under " + stm.protocol(), anomaly, il.followedSchedule(),
                Quiescence.problems(map));
    }

    /**
     * The lost update of {@link #absentKeyLostUpdate}, with T1 learning that 55 is absent from a
     * scan of [10, 100] instead of a lookup: at RR a key a scan did not find is a phantom (a
     * predicate read), and T1's write over it is not checked against the scan.
     */
    static Outcome scannedAbsentLostUpdate(Stm stm, String kind) {
        AnySortedMap<Long> map = loadedSorted(stm, kind);
        Interleaving il = new Interleaving();
        il.thread("T1", () -> stm.run(txn -> {
            long[] seen = {0};
            map.scan(txn, 10, true, 100, true, Integer.MAX_VALUE, false, (k, v) -> {
                if (k == 55) {
                    seen[0] = v;
                }
                return true;
            });
            if (txn.attempt() == 0) {
                il.signal("T1 read");
                il.await("T2 committed");
            }
            map.put(txn, 55, seen[0] + 10);
        }));
        il.thread("T2", () -> {
            il.await("T1 read");
            stm.run(txn -> {
                Long v = map.get(txn, 55);
                map.put(txn, 55, (v == null ? 0 : v) + 1);
            });
            il.signal("T2 committed");
        });
        il.run();
        Long v = map.contents().get(55L);
        String anomaly = !Long.valueOf(11).equals(v) ? "two committed additions (10 and 1) to an absent key left 55 = " + v
                + ": T2's insert was lost" : null;
        return new Outcome("lost update over a key a scan saw absent on " + kind + " under " + stm.protocol(), anomaly,
                il.followedSchedule(), Quiescence.problems(map));
    }
}
