package io.jato.protocols.suite.history;

import io.jato.protocols.suite.AnySortedMap;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Randomized transactions of range scans, navigation and point operations on both sorted maps,
 * four threads, under every protocol: the recorded history of committed transactions - scans
 * recorded as reads of what they saw and of the absence of everything else in their range - must
 * have no dependency cycle, the final state must be the last committed version of every key, and
 * the tree must be well-formed and unlocked afterwards. The seed of every round is in the failure
 * message ({@value RandomHistoryTest#SEED_PROPERTY} replays a round's operation mix).
 */
@Timeout(300)
class RangeHistoryTest {
    private static final int THREADS = 4;
    private static final int TXNS_PER_THREAD = 150;

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.jato.protocols.suite.AnySortedMap#protocolsAndKinds")
    void rangeScanTransactionsFormASerializableHistory(String protocol, String kind) {
        long base = RandomHistoryTest.baseSeed();
        int rounds = Protocols.scaled(8);
        for (int round = 0; round < rounds; round++) {
            long seed = base + round;
            Stm stm = Protocols.store(protocol);
            HistoryWorkload.Result r = RangeHistoryWorkload.run(stm, kind, seed, THREADS, TXNS_PER_THREAD);
            String where = protocol + " " + kind + ", round " + round + ", -D" + RandomHistoryTest.SEED_PROPERTY + "=" + seed;
            Interleaving.rethrow(r.failures());
            r.report().assertSerializable(where);
            assertTrue(r.notQuiescent().isEmpty(), () -> where + ": not quiescent: " + r.notQuiescent());
            StmStatistics st = stm.statistics();
            assertEquals(THREADS * TXNS_PER_THREAD, r.committed().size(), where);
            assertEquals(st.starts(), st.commits() + st.aborts(), () -> where + ": " + st);
        }
    }

    /** The workload on the oracle, single-threaded: a sanity check of the recording itself. */
    @Test
    void aSingleThreadedRunIsSerializableAndMatchesTheFinalState() {
        for (String kind : AnySortedMap.KINDS) {
            HistoryWorkload.Result r = RangeHistoryWorkload.run(Protocols.store("global-lock"), kind,
                    RandomHistoryTest.baseSeed(), 1, 400);
            Interleaving.rethrow(r.failures());
            r.report().assertSerializable("single thread " + kind);
            long deletes = r.committed().stream().flatMap(t -> t.writes().stream()).filter(TxnRecord.Write::delete).count();
            long absentReads = r.committed().stream().flatMap(t -> t.reads().stream())
                    .filter(x -> x.writer() == TxnRecord.DELETED || x.writer() == Version.INITIAL).count();
            assertTrue(deletes > 0 && absentReads > 100, "the workload should delete and read absent keys");
        }
    }
}
