package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.protocols.suite.Failures.Boom;
import io.jato.protocols.suite.broken.NoValidationProtocol;
import io.jato.protocols.suite.faulty.FaultyProtocol;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.TxnAbortedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The store's contract under every protocol: protocol selection, statistics, argument checks. */
class StoreContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @Test
    void theProtocolsAreDiscoveredAndTheBrokenOnesKeptOutOfTheSuites() {
        List<String> all = Stm.availableProtocols();
        assertTrue(all.contains("occ"), all::toString);
        assertTrue(all.contains("global-lock"), all::toString);
        assertTrue(all.contains(NoValidationProtocol.NAME), "the test service file registers the broken protocol");
        assertFalse(Protocols.correct().contains(NoValidationProtocol.NAME));
        assertTrue(all.contains(FaultyProtocol.NAME), "the test service file registers the fault-injecting protocol");
        assertFalse(Protocols.correct().contains(FaultyProtocol.NAME));
        assertFalse(Protocols.weaklyIsolated().contains(FaultyProtocol.NAME));
        // Under a selection (a protocol of another project runs the suites), the selected ones only.
        assertTrue(Protocols.correct().containsAll(List.of("occ", "global-lock").stream()
                .filter(Protocols::isSelected).toList()), Protocols.correct()::toString);
        assertTrue(Protocols.correct().stream().allMatch(Protocols::isSelected), Protocols.correct()::toString);
        assertEquals(all.stream().sorted().toList(), all, "availableProtocols() is sorted");
    }

    @Test
    void anUnknownProtocolNameIsRejectedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol("no-such-protocol").build());
        assertTrue(e.getMessage().contains("no-such-protocol"), e.getMessage());
        for (String known : Stm.availableProtocols()) {
            assertTrue(e.getMessage().contains(known), () -> "'" + known + "' missing from: " + e.getMessage());
        }
        NullPointerException npe = assertThrows(NullPointerException.class, () -> Stm.builder().protocol(null));
        assertTrue(npe.getMessage().contains("protocolName"), npe.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aStoreRunsTheProtocolItWasBuiltWith(String protocol) {
        Stm stm = Protocols.store(protocol, "named");
        // A pairing "a+b" is a store whose default protocol is a, with b for objects bound to it.
        // A variant "p/option" is a store of p with that option on.
        List<String> names = Stream.of(protocol.split("\\" + Protocols.PAIR_SEPARATOR)).map(Protocols::protocolName)
                .collect(Collectors.toList());
        assertEquals(names.get(0), stm.protocol());
        assertEquals(names, stm.protocols());
        String joined = String.join(Protocols.PAIR_SEPARATOR, names);
        assertEquals(joined, stm.concurrencyControl().name());
        for (String p : names) {
            assertEquals(p, stm.withProtocol(p).protocol());
        }
        assertEquals("named", stm.name());
        assertTrue(stm.toString().contains(joined), stm::toString);
        assertFalse(stm.inTransaction());
        boolean inside = stm.atomic(txn -> stm.inTransaction() && txn.stm() == stm && txn.attempt() == 0);
        assertTrue(inside);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void nullBodiesAreRejectedByName(String protocol) {
        Stm stm = Protocols.store(protocol);
        NullPointerException e = assertThrows(NullPointerException.class, () -> stm.atomic(null));
        assertTrue(e.getMessage().contains("body"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> stm.run(null));
        assertTrue(e.getMessage().contains("body"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> stm.readOnly(null));
        assertTrue(e.getMessage().contains("body"), e.getMessage());
        assertEquals(0, stm.statistics().starts());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void statisticsCountCommitsAndAbortsByCause(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        StmStatistics zero = stm.statistics();
        assertEquals(0, zero.starts());
        assertEquals(0.0, zero.abortRate());

        stm.run(txn -> x.set(txn, 1));
        stm.atomic(x::get);
        stm.readOnly(x::get);
        assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            throw txn.abort();
        }));
        assertThrows(Boom.class, () -> stm.run(txn -> {
            x.set(txn, 2);
            throw new Boom("user");
        }));
        assertThrows(IllegalStateException.class, () -> stm.readOnly(txn -> {
            x.set(txn, 3);
            return null;
        }));
        StmStatistics st = stm.statistics();
        assertEquals(3, st.commits());
        assertEquals(1, st.aborts(AbortCause.USER_ABORT));
        assertEquals(2, st.aborts(AbortCause.USER_EXCEPTION));
        assertEquals(3, st.aborts());
        assertEquals(6, st.starts());
        assertEquals(Map.of(AbortCause.USER_ABORT, 1L, AbortCause.USER_EXCEPTION, 2L), st.abortsByCause());
        assertEquals(0.5, st.abortRate(), 1e-9);

        stm.run(txn -> x.set(txn, 4));
        StmStatistics delta = stm.statistics().minus(st);
        assertEquals(1, delta.commits());
        assertEquals(1, delta.starts());
        assertEquals(0, delta.aborts());

        // Counters of a thread that has finished are kept.
        Thread t = new Thread(() -> stm.run(txn -> x.set(txn, 5)));
        t.start();
        Failures.thrownBy(t::join);
        assertEquals(st.commits() + 2, stm.statistics().commits());
        assertEquals(5L, x.single().get());
        Quiescence.assertQuiescent(x);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void statisticsCanBeTurnedOff(String protocol) {
        Stm stm = Protocols.builder(protocol).statistics(false).build();
        TxLong x = new TxLong(stm, 0);
        stm.run(txn -> x.set(txn, 1));
        assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            throw txn.abort();
        }));
        StmStatistics st = stm.statistics();
        assertEquals(0, st.starts());
        assertEquals(0, st.commits());
        assertEquals(0, st.aborts());
        assertEquals(1L, x.single().get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void storesWithTheSameProtocolAreIndependent(String protocol) {
        Stm a = Protocols.store(protocol, "A");
        Stm b = Protocols.store(protocol, "B");
        TxLong xa = new TxLong(a, 0);
        TxLong xb = new TxLong(b, 0);
        // Transactions of different stores are not joined: one started inside another's is refused
        // before its body runs (it used to commit on its own, once per attempt of the outer one).
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> a.run(ta -> {
            xa.set(ta, 1);
            assertFalse(b.inTransaction());
            b.run(tb -> xb.set(tb, 1));
        }));
        assertTrue(refused.getMessage().contains("store 'B'"), refused.getMessage());
        assertEquals(0L, xa.single().get());
        assertEquals(0L, xb.single().get());
        assertEquals(0, a.statistics().commits());
        assertEquals(0, b.statistics().starts());
        // One after the other, each commits on its own.
        a.run(ta -> xa.set(ta, 2));
        b.run(tb -> xb.set(tb, 3));
        assertEquals(2L, xa.single().get());
        assertEquals(3L, xb.single().get());
        Quiescence.assertQuiescent(xa, xb);
    }
}
