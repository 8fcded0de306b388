package io.jato.protocols.suite;

import io.jato.collections.TxCounter;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TxCounter} semantics (commit-time adds) inside and across transactions, under every protocol. */
class TxCounterContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void addsApplyAtCommitAndReadsSeeTheTransactionsOwnAdds(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter c = new TxCounter(stm, 100);
        assertEquals(100L, stm.atomic(c::get));

        List<Long> seen = stm.atomic(txn -> {
            c.add(txn, 5);
            long afterFirstAdd = c.get(txn);
            c.add(txn, -2);
            long afterSecondAdd = c.get(txn);
            c.add(txn, 0);
            return List.of(afterFirstAdd, afterSecondAdd, c.get(txn));
        });
        assertEquals(List.of(105L, 103L, 103L), seen, "read-your-own-adds, before and after the first read");
        assertEquals(103L, c.single().get());

        stm.run(txn -> {
            c.add(txn, 1);
            c.add(txn, 1);
        });
        assertEquals(105L, stm.atomic(c::get));
        assertEquals(0L, new TxCounter(stm).single().get());
        Quiescence.assertQuiescent(c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void theNonTransactionalViewAndTransactionsSeeEachOther(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter c = new TxCounter(stm);
        c.single().add(7);
        c.single().add(-3);
        assertEquals(4L, stm.atomic(c::get));
        assertEquals(4L, stm.readOnly(c::get));
        stm.run(txn -> c.add(txn, 6));
        assertEquals(10L, c.single().get());
        Quiescence.assertQuiescent(c);
    }

    /** Adds commute: concurrent add-only transactions never invalidate one another, and none is lost. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void concurrentAddOnlyTransactionsNeverConflictOnReads(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter c = new TxCounter(stm);
        TxCounter other = new TxCounter(stm);
        int threads = 4;
        int perThread = Protocols.scaled(2_000);
        Interleaving run = new Interleaving();
        for (int t = 0; t < threads; t++) {
            run.thread("adder-" + t, () -> {
                for (int i = 0; i < perThread; i++) {
                    stm.run(txn -> {
                        c.add(txn, 1);
                        other.add(txn, 2);
                    });
                }
            });
        }
        run.run();
        assertEquals((long) threads * perThread, c.single().get());
        assertEquals(2L * threads * perThread, other.single().get());
        StmStatistics st = stm.statistics();
        assertEquals((long) threads * perThread, st.commits());
        assertEquals(0, st.aborts(AbortCause.READ_VALIDATION), st::toString);
        assertEquals(0, st.aborts(AbortCause.READ_LOCKED), st::toString);
        assertEquals(0, st.aborts(AbortCause.INCONSISTENT_READ), st::toString);
        Quiescence.assertQuiescent(c, other);
    }

    /** Non-transactional adds are atomic and linearizable with transactional ones: none is lost. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void singleAndTransactionalAddsMixWithoutLoss(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter c = new TxCounter(stm);
        int perThread = Protocols.scaled(2_000);
        Interleaving il = new Interleaving();
        for (int t = 0; t < 2; t++) {
            il.thread("single-" + t, () -> {
                for (int i = 0; i < perThread; i++) {
                    c.single().add(1);
                }
            });
            il.thread("txn-" + t, () -> {
                for (int i = 0; i < perThread; i++) {
                    stm.run(txn -> c.add(txn, c.get(txn) >= 0 ? 1 : 0));
                }
            });
        }
        il.run();
        assertEquals(4L * perThread, c.single().get());
        Quiescence.assertQuiescent(c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void nullArgumentsAreRejectedByName(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter c = new TxCounter(stm, 1);
        NullPointerException e = assertThrows(NullPointerException.class, () -> new TxCounter(null));
        assertTrue(e.getMessage().contains("stm"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> new TxCounter(null, 3));
        assertTrue(e.getMessage().contains("stm"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> c.add(null, 2));
        assertTrue(e.getMessage().contains("txn"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> c.get(null));
        assertTrue(e.getMessage().contains("txn"), e.getMessage());
        assertEquals(1L, c.single().get());
        Quiescence.assertQuiescent(c);
    }
}
