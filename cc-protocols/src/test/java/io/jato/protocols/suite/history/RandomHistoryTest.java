package io.jato.protocols.suite.history;

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
 * Randomized multi-key transactions over TxHashMap, TxRef, TxLong and records (groups, blind updaters), four threads with skewed
 * access, under every protocol: the recorded history of committed transactions must have no
 * dependency cycle, the final state must be the last committed version of every item, and nothing
 * may be left locked. The seed of every round is in the failure message; set
 * {@value #SEED_PROPERTY} to replay a round's operation mix (thread timing is not replayable).
 */
@Timeout(300)
class RandomHistoryTest {
    static final String SEED_PROPERTY = "jato.history.seed";
    private static final int THREADS = 4;
    private static final int TXNS_PER_THREAD = 200;

    static long baseSeed() {
        return Long.getLong(SEED_PROPERTY, System.nanoTime());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jato.protocols.suite.Protocols#all")
    void randomTransactionsFormASerializableHistory(String protocol) {
        long base = baseSeed();
        int rounds = Protocols.scaled(20);
        long committed = 0;
        for (int round = 0; round < rounds; round++) {
            long seed = base + round;
            Stm stm = Protocols.store(protocol);
            HistoryWorkload.Result r = HistoryWorkload.run(stm, seed, THREADS, TXNS_PER_THREAD);
            String where = protocol + ", round " + round + ", -D" + SEED_PROPERTY + "=" + seed;
            Interleaving.rethrow(r.failures());
            r.report().assertSerializable(where);
            assertTrue(r.notQuiescent().isEmpty(), () -> where + ": not quiescent: " + r.notQuiescent());
            StmStatistics st = stm.statistics();
            assertEquals(THREADS * TXNS_PER_THREAD, r.committed().size(), where);
            assertEquals(r.committed().size(), st.commits(), () -> where + ": " + st);
            assertEquals(st.starts(), st.commits() + st.aborts(), () -> where + ": " + st);
            committed += r.committed().size();
        }
        assertEquals((long) rounds * THREADS * TXNS_PER_THREAD, committed);
    }

    /** The workload on the oracle protocol, single-threaded, as a sanity check of the recording itself. */
    @Test
    void aSingleThreadedRunIsSerializableAndMatchesTheFinalState() {
        HistoryWorkload.Result r = HistoryWorkload.run(Protocols.store("global-lock"), baseSeed(), 1, 500);
        Interleaving.rethrow(r.failures());
        r.report().assertSerializable("single thread");
        assertEquals(500, r.committed().size());
        long writes = r.committed().stream().mapToLong(t -> t.writes().size()).sum();
        long deletes = r.committed().stream().flatMap(t -> t.writes().stream()).filter(TxnRecord.Write::delete).count();
        assertTrue(writes > 500 && deletes > 0, "the workload should write, insert and delete");
    }
}
