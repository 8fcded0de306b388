package io.jato.protocols.suite;

import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxRef;
import io.jato.protocols.suite.broken.NoValidationProtocol;
import io.jato.protocols.suite.history.HistoryWorkload;
import io.jato.protocols.suite.history.RangeHistoryWorkload;
import io.jato.protocols.suite.history.SerializabilityChecker;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongFunction;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Proof that the suites are not vacuous: under {@link NoValidationProtocol} (OCC without read
 * validation) the serializability checker and the anomaly scenarios must each detect an anomaly
 * within a bounded time. If one of these tests fails, the corresponding suite has stopped
 * testing anything — its schedule no longer produces the interleaving, or its check no longer
 * looks at the outcome.
 */
@Timeout(120)
class BrokenProtocolDetectionTest {
    private static final long DETECTION_BUDGET_MILLIS = 30_000;
    private static final int SCENARIO_TRIES = 5;

    private static Stm broken() {
        return Protocols.store(NoValidationProtocol.NAME);
    }

    @Test
    void theSerializabilityCheckerFindsACycleInTheBrokenProtocolsHistories() {
        assertCheckerDetects("the randomized history test", seed -> HistoryWorkload.run(broken(), seed, 4, 200));
    }

    @Test
    void theRangeHistoriesOfTheBrokenProtocolHaveACycle() {
        for (String kind : AnySortedMap.KINDS) {
            assertCheckerDetects("the range history test on " + kind,
                    seed -> RangeHistoryWorkload.run(broken(), kind, seed, 4, 150));
        }
    }

    /** Runs {@code workload} with fresh seeds until the checker finds an anomaly, or fails after the budget. */
    private static void assertCheckerDetects(String what, LongFunction<HistoryWorkload.Result> workload) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DETECTION_BUDGET_MILLIS);
        long seed = System.nanoTime();
        for (int round = 0; System.nanoTime() - deadline < 0; round++) {
            SerializabilityChecker.Report report = workload.apply(seed + round).report();
            if (!report.isSerializable()) {
                String d = report.describe();
                assertTrue(!report.cycle().isEmpty() || report.hasLostUpdate(), d);
                assertTrue(d.contains("->") || d.contains("lost update"), d);
                return;
            }
        }
        fail("the checker found no anomaly in " + DETECTION_BUDGET_MILLIS + " ms of a protocol without read"
                + " validation: " + what + " is vacuous");
    }

    @Test
    void theLostUpdateScenarioCatchesTheBrokenProtocol() {
        assertDetected(kind -> LostUpdateTest.scenario(broken(), kind));
    }

    @Test
    void theWriteSkewScenarioCatchesTheBrokenProtocol() {
        assertDetected(kind -> WriteSkewTest.scenario(broken(), kind));
    }

    @Test
    void theTornReadScenarioCatchesTheBrokenProtocol() {
        assertDetected(kind -> TornReadTest.scenario(broken(), kind, false, false));
        assertDetected(kind -> TornReadTest.scenario(broken(), kind, true, false));
    }

    @Test
    void theReadOnlyAnomalyScenarioCatchesTheBrokenProtocol() {
        assertDetected(kind -> ReadOnlyAnomalyTest.scenario(broken(), kind));
    }

    @Test
    void thePhantomScenariosCatchTheBrokenProtocol() {
        assertDetectedOnce("absent read vs insert", () -> PhantomTest.absentReadVersusInsert(broken(), false));
        assertDetectedOnce("absent read vs insert, map marker", () -> PhantomTest.absentReadVersusInsert(broken(), true));
        assertDetectedOnce("present read vs delete", () -> PhantomTest.presentReadVersusDelete(broken()));
    }

    @Test
    void thePhantomScenariosCatchTheBrokenProtocolOnTheLongKeyHashMap() {
        assertDetectedOnce("TxLongHashMap absent read vs insert", () -> longHashMapPhantom(broken(), true));
        assertDetectedOnce("TxLongHashMap present read vs delete", () -> longHashMapPhantom(broken(), false));
    }

    /**
     * {@link PhantomTest}'s marker races on a {@link TxLongHashMap}: T1 sets a marker if key k is
     * absent (or, with {@code absent} false, present); T2 inserts (deletes) k unless the marker is
     * set. Exactly one of them acts in every serial order. The map starts at its smallest size, so
     * its stripes and index are the ones the TPC-C-sized maps use least.
     */
    static Outcome longHashMapPhantom(Stm stm, boolean absent) {
        TxLongHashMap<String> map = new TxLongHashMap<>(stm, 0);
        long k = 7L << 48 | 3L << 40 | 12345;
        if (!absent) {
            map.single().put(k, "initial");
        }
        TxRef<String> marker = new TxRef<>(stm, null);
        boolean followed = PhantomTest.markerRace(stm, txn -> map.containsKey(txn, k) != absent,
                txn -> marker.set(txn, "T1"), txn -> marker.get(txn) != null, txn -> {
                    if (absent) {
                        map.put(txn, k, "T2");
                    } else {
                        map.remove(txn, k);
                    }
                });
        boolean t2Acted = (map.single().get(k) != null) == absent;
        String anomaly = PhantomTest.markerAnomaly(marker.single().get() != null, t2Acted,
                "T1 saw k " + (absent ? "absent" : "present") + " and T2 saw no marker, so both acted");
        return new Outcome("TxLongHashMap " + (absent ? "absent read vs insert" : "present read vs delete")
                + " under " + stm.protocol(), anomaly, followed, Quiescence.problems(marker, (Quiescence.Quiescent) map::checkQuiescent));
    }

    @Test
    void theSortedMapPhantomScenariosCatchTheBrokenProtocol() {
        for (String kind : AnySortedMap.KINDS) {
            assertDetectedOnce(kind + " scan vs insert", () -> SortedMapPhantomTest.scanVersusInsert(broken(), kind, false,
                    Integer.MAX_VALUE));
            assertDetectedOnce(kind + " scan with limit vs insert", () -> SortedMapPhantomTest.scanVersusInsert(broken(),
                    kind, false, 3));
            assertDetectedOnce(kind + " descending scan with limit vs insert",
                    () -> SortedMapPhantomTest.scanVersusInsert(broken(), kind, true, 3));
            assertDetectedOnce(kind + " scan vs delete", () -> SortedMapPhantomTest.scanVersusDelete(broken(), kind));
            assertDetectedOnce(kind + " absent get vs insert", () -> SortedMapPhantomTest.absentGetVersusInsert(broken(), kind));
            assertDetectedOnce(kind + " floorKey vs insert",
                    () -> SortedMapPhantomTest.navigationVersusInsert(broken(), kind, true));
            assertDetectedOnce(kind + " ceilingKey vs insert",
                    () -> SortedMapPhantomTest.navigationVersusInsert(broken(), kind, false));
        }
    }

    /** Each cell kind whose scenario can expose the protocol must expose it. */
    private static void assertDetected(Function<String, Outcome> scenario) {
        List<String> detectedOn = new ArrayList<>();
        for (String kind : Cells.KINDS) {
            Outcome o = tryScenario(() -> scenario.apply(kind));
            if (o.anomaly() != null) {
                detectedOn.add(kind);
            }
            assertTrue(o.notQuiescent().isEmpty(), () -> o.scenario() + ": " + o.notQuiescent());
        }
        assertFalse(detectedOn.isEmpty(), "no cell kind exposed the broken protocol");
        // TxCounter's commit-time add still applies the delta to the current value, so a scenario
        // may pass on it even without validation; every other kind writes absolute values.
        for (String kind : Cells.KINDS) {
            if (!kind.equals("TxCounter")) {
                assertTrue(detectedOn.contains(kind), () -> "the scenario missed the anomaly on " + kind
                        + " (detected on " + detectedOn + ")");
            }
        }
    }

    private static void assertDetectedOnce(String what, java.util.function.Supplier<Outcome> scenario) {
        Outcome o = tryScenario(scenario);
        assertNotNull(o.anomaly(), () -> what + ": no anomaly detected in " + SCENARIO_TRIES + " runs");
    }

    private static Outcome tryScenario(java.util.function.Supplier<Outcome> scenario) {
        Outcome last = null;
        for (int i = 0; i < SCENARIO_TRIES; i++) {
            last = scenario.get();
            if (last.anomaly() != null) {
                return last;
            }
        }
        return last;
    }
}
