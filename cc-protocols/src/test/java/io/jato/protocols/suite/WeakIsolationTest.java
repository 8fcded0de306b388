package io.jato.protocols.suite;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The protocols below serializability ({@link Protocols#weaklyIsolated()}: TicToc at snapshot
 * isolation and repeatable read, seed 001 §5.4), which the serializability suites exclude. Each
 * anomaly scenario of the suites is run against them to show what the level allows and what it
 * still prevents:
 *
 * <table>
 *   <caption>anomalies by level</caption>
 *   <tr><th>anomaly</th><th>tictoc (SR)</th><th>tictoc-si</th><th>tictoc-rr</th></tr>
 *   <tr><td>lost update</td><td>prevented</td><td>prevented</td><td>prevented</td></tr>
 *   <tr><td>read skew (torn pair)</td><td>prevented</td><td>prevented</td><td>allowed</td></tr>
 *   <tr><td>write skew</td><td>prevented</td><td>allowed</td><td>allowed</td></tr>
 * </table>
 *
 * The scheduled scenarios make an allowed anomaly happen deterministically, so "allowed" is
 * asserted as "happens" — a proof that the level really is weaker, not just declared so.
 */
@Timeout(120)
class WeakIsolationTest {
    private static final String SI = "tictoc-si";
    private static final String RR = "tictoc-rr";
    private static final List<String> KINDS = List.of("TxLong", "TxRef", "TxHashMap", "TxSortedMap");

    static Stream<Arguments> weakAndKinds() {
        return Protocols.weaklyIsolated().stream().flatMap(p -> Cells.KINDS.stream().map(k -> Arguments.of(p, k)));
    }

    static Stream<String> kinds() {
        return KINDS.stream();
    }

    @Test
    void theWeakLevelsAreRegisteredAndExcludedFromTheSerializableSuites() {
        assertEquals(List.of(RR, SI), Protocols.weaklyIsolated());
        assertTrue(Protocols.correct().contains("tictoc"));
        assertTrue(Protocols.correct().stream().noneMatch(Protocols.weaklyIsolated()::contains));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("weakAndKinds")
    void noLevelLosesAnUpdate(String protocol, String kind) {
        LostUpdateTest.scenario(Protocols.store(protocol), kind).assertCorrect();
    }

    /**
     * Cells only: map cells are loaded with {@code single()} writes, which raise TicToc's floor
     * (docs/tictoc.md) above the versions the scenario reads, so the snapshot moves past them and
     * the second writer aborts — SI there is stricter than it has to be, never weaker.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"TxLong", "TxRef"})
    void snapshotIsolationAllowsWriteSkew(String kind) {
        assertAnomaly(WriteSkewTest.scenario(Protocols.store(SI), kind), "write skew");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void repeatableReadAllowsWriteSkew(String kind) {
        assertAnomaly(WriteSkewTest.scenario(Protocols.store(RR), kind), "write skew");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void serializableTicTocAllowsNeither(String kind) {
        Stm stm = Protocols.store("tictoc");
        WriteSkewTest.scenario(stm, kind).assertCorrect();
        TornReadTest.scenario(stm, kind, false, false).assertCorrect();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void snapshotIsolationPreventsReadSkew(String kind) {
        TornReadTest.scenario(Protocols.store(SI), kind, false, false).assertCorrect();
        TornReadTest.scenario(Protocols.store(SI), kind, true, false).assertCorrect();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void repeatableReadAllowsReadSkew(String kind) {
        assertAnomaly(TornReadTest.scenario(Protocols.store(RR), kind, false, false), "torn pair");
    }

    private static void assertAnomaly(Outcome o, String expected) {
        assertTrue(o.followedSchedule(), o.scenario() + ": the schedule did not run");
        assertNotNull(o.anomaly(), o.scenario() + ": expected the level to allow " + expected);
        assertTrue(o.anomaly().contains(expected), o.scenario() + ": " + o.anomaly());
        assertTrue(o.notQuiescent().isEmpty(), o.scenario() + ": " + o.notQuiescent());
    }
}
