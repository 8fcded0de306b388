package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.stm.Stm;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TxLong} semantics inside and across transactions, under every protocol. */
class TxLongContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void getSetAndAddInsideAndAcrossTransactions(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong cell = new TxLong(stm, 10);
        assertEquals(10L, stm.atomic(cell::get));

        List<Long> seen = stm.atomic(txn -> {
            long before = cell.get(txn);
            cell.set(txn, 20);
            long own = cell.get(txn);
            long added = cell.addAndGet(txn, 5);
            return List.of(before, own, added, cell.get(txn));
        });
        assertEquals(List.of(10L, 20L, 25L, 25L), seen, "read-your-own-writes");
        assertEquals(25L, cell.single().get());

        long decremented = stm.atomic(txn -> cell.addAndGet(txn, -1));
        assertEquals(24L, decremented);
        stm.run(txn -> cell.set(txn, Long.MIN_VALUE));
        assertEquals(Long.MIN_VALUE, stm.atomic(cell::get));
        stm.run(txn -> cell.set(txn, Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, cell.single().get());
        Quiescence.assertQuiescent(cell);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void theNonTransactionalViewAndTransactionsSeeEachOther(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong cell = new TxLong(stm, 0);
        cell.single().set(42);
        assertEquals(42L, stm.atomic(cell::get));
        assertEquals(42L, stm.readOnly(cell::get));
        stm.run(txn -> cell.addAndGet(txn, 1));
        assertEquals(43L, cell.single().get());
        Quiescence.assertQuiescent(cell);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void nullArgumentsAreRejectedByName(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong cell = new TxLong(stm, 1);
        NullPointerException e = assertThrows(NullPointerException.class, () -> new TxLong(null, 1));
        assertTrue(e.getMessage().contains("stm"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> cell.set(null, 2));
        assertTrue(e.getMessage().contains("txn"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> cell.addAndGet(null, 2));
        assertTrue(e.getMessage().contains("txn"), e.getMessage());
        assertEquals(1L, cell.single().get());
        Quiescence.assertQuiescent(cell);
    }
}
