package io.jato.protocols.suite;

import io.jato.collections.TxRef;
import io.jato.stm.Stm;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TxRef} semantics inside and across transactions, under every protocol. */
class TxRefContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void getAndSetInsideAndAcrossTransactions(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxRef<String> ref = new TxRef<>(stm, "a");
        assertEquals("a", stm.atomic(ref::get));

        List<String> seen = stm.atomic(txn -> {
            String before = ref.get(txn);
            ref.set(txn, "b");
            String own = ref.get(txn);
            ref.set(txn, "c");
            return List.of(before, own, ref.get(txn));
        });
        assertEquals(List.of("a", "b", "c"), seen, "read-your-own-writes; the last write wins");
        assertEquals("c", stm.atomic(ref::get));
        assertEquals("c", ref.single().get());

        assertEquals("c", stm.atomic(txn -> ref.getAndSet(txn, "d")));
        assertEquals("e", stm.atomic(txn -> {
            assertEquals("d", ref.getAndSet(txn, "e"));
            return ref.getAndSet(txn, "d");
        }), "getAndSet returns the transaction's own earlier write");
        assertEquals("d", ref.single().get());
        Quiescence.assertQuiescent(ref);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void nullIsAnOrdinaryValue(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxRef<String> ref = new TxRef<>(stm, null);
        assertNull(stm.atomic(ref::get));
        assertNull(ref.single().get());
        stm.run(txn -> ref.set(txn, "x"));
        stm.run(txn -> {
            ref.set(txn, null);
            assertNull(ref.get(txn));
        });
        assertNull(ref.single().get());
        assertNull(stm.atomic(txn -> ref.getAndSet(txn, "y")));
        assertEquals("y", ref.single().get());
        Quiescence.assertQuiescent(ref);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void theNonTransactionalViewAndTransactionsSeeEachOther(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxRef<Object> ref = new TxRef<>(stm, "a");
        Object value = new Object();
        ref.single().set(value);
        assertSame(value, stm.atomic(ref::get), "the ref versions the reference itself");
        assertSame(value, stm.readOnly(ref::get));
        stm.run(txn -> ref.set(txn, "t"));
        assertEquals("t", ref.single().get());
        Quiescence.assertQuiescent(ref);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void severalRefsChangeAtomically(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxRef<String> x = new TxRef<>(stm, "x");
        TxRef<String> y = new TxRef<>(stm, "y");
        stm.run(txn -> {
            String t = x.get(txn);
            x.set(txn, y.get(txn));
            y.set(txn, t);
        });
        assertEquals("y", x.single().get());
        assertEquals("x", y.single().get());
        Quiescence.assertQuiescent(x, y);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void nullArgumentsAreRejectedByName(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxRef<String> ref = new TxRef<>(stm, "a");
        NullPointerException e = assertThrows(NullPointerException.class, () -> new TxRef<>(null, "a"));
        assertTrue(e.getMessage().contains("stm"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> ref.get(null));
        assertTrue(e.getMessage().contains("txn"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> ref.set(null, "b"));
        assertTrue(e.getMessage().contains("txn"), e.getMessage());
        assertEquals("a", ref.single().get());
        Quiescence.assertQuiescent(ref);
    }
}
