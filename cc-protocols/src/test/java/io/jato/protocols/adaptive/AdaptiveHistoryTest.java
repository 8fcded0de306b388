package io.jato.protocols.adaptive;

import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.protocols.suite.history.HistoryWorkload;
import io.jato.protocols.twophase.DeadlockPolicy;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adaptive lock under a workload that flips items between the modes all the time (issue 14
 * §3): thresholds 4 and 3, so one conflict turns an item pessimistic and one quiet event turns it
 * back, while four threads run the randomized history workload (maps, cells, records; hot items).
 * Every history must be serializable and leave every item quiescent, under both deadlock
 * policies; the run must actually switch modes. The suites run the default thresholds.
 */
@Timeout(300)
class AdaptiveHistoryTest {
    private static final int THREADS = 4;
    private static final int TXNS_PER_THREAD = 200;

    @ParameterizedTest(name = "{0}")
    @EnumSource(DeadlockPolicy.class)
    void historiesStaySerializableWhileItemsSwitchModes(DeadlockPolicy policy) {
        long base = Long.getLong("jato.history.seed", System.nanoTime());
        long switches = 0;
        int rounds = Protocols.scaled(3);
        for (int round = 0; round < rounds; round++) {
            Stm stm = Stm.builder().protocol(AdaptiveProtocol.NAME).name("adaptive-flips")
                    .option(AdaptiveProtocol.PESSIMISTIC_AT, 4).option(AdaptiveProtocol.OPTIMISTIC_AT, 3)
                    .option(AdaptiveProtocol.DEADLOCK, policy.optionValue()).build();
            String where = policy + ", round " + round + ", -Djato.history.seed=" + (base + round);
            HistoryWorkload.Result r = HistoryWorkload.run(stm, base + round, THREADS, TXNS_PER_THREAD);
            Interleaving.rethrow(r.failures());
            r.report().assertSerializable(where);
            assertTrue(r.notQuiescent().isEmpty(), () -> where + ": not quiescent: " + r.notQuiescent());
            assertEquals(THREADS * TXNS_PER_THREAD, r.committed().size(), where);
            switches += ((AdaptiveControl) stm.concurrencyControl()).modeSwitches();
        }
        assertTrue(switches > 10, "the workload should flip modes often, flipped " + switches);
    }
}
