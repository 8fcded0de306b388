package io.jato.protocols.twophase;

import io.jato.collections.TxLong;
import io.jato.protocols.suite.Quiescence;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.CyclicBarrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * 2PL's deadlock policies (issue 14 §6): two transactions that lock the same two items in opposite
 * orders, round after round, always both finish — wait-die lets only the older wait, no-wait lets
 * nobody wait. Store escalation is off, so the policy alone must break every cycle.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DeadlockTest {
    private static final int ROUNDS = 300;

    @ParameterizedTest(name = "{0}")
    @EnumSource(DeadlockPolicy.class)
    void twoTransactionsLockingInOppositeOrdersAlwaysFinish(DeadlockPolicy policy) throws Exception {
        Stm stm = Stm.builder().protocol(TwoPhaseProtocol.NAME)
                .option(TwoPhaseProtocol.DEADLOCK, policy.optionValue()).escalateAfter(0).build();
        TxLong a = new TxLong(stm, 0);
        TxLong b = new TxLong(stm, 0);
        CyclicBarrier round = new CyclicBarrier(2);
        Thread t1 = new Thread(() -> rounds(stm, round, a, b), "a-then-b");
        Thread t2 = new Thread(() -> rounds(stm, round, b, a), "b-then-a");
        t1.start();
        t2.start();
        t1.join();
        t2.join();
        assertEquals(2L * ROUNDS, a.single().get(), "every increment of a committed once");
        assertEquals(2L * ROUNDS, b.single().get(), "every increment of b committed once");
        Quiescence.assertQuiescent(a, b);
    }

    /** Each round, both threads start together and increment {@code first}, pause, then {@code second}. */
    private static void rounds(Stm stm, CyclicBarrier round, TxLong first, TxLong second) {
        try {
            for (int r = 0; r < ROUNDS; r++) {
                round.await();
                stm.run(t -> {
                    first.set(t, first.get(t) + 1);
                    for (int i = 0; i < 2_000; i++) {
                        Thread.onSpinWait(); // widen the window in which the other takes its first lock
                    }
                    second.set(t, second.get(t) + 1);
                });
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anUnknownPolicyIsRefusedNamingTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol(TwoPhaseProtocol.NAME).option(TwoPhaseProtocol.DEADLOCK, "wound-wait").build());
        assertEquals(true, e.getMessage().contains(TwoPhaseProtocol.DEADLOCK), e.getMessage());
    }
}
