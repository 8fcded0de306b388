package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.collections.TxRef;
import io.jato.protocols.suite.probe.PastProtocol;
import io.jato.protocols.suite.probe.ProbeProtocol;
import io.jato.stm.Capabilities;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several protocols in one store ({@code Stm.Builder.objectProtocol}, {@code Stm.withProtocol}):
 * how a store is built and refused, which protocol serves which object, and the cross-protocol
 * anomaly that the store's spanning-commit clock exists to prevent. The anomaly suites and the
 * serializability checker run over every pairing through {@link Protocols#all()}.
 */
@Timeout(120)
class MixedProtocolsTest {

    @Test
    void aStoreNamesItsProtocolsAndGivesAViewPerProtocol() {
        Stm stm = Stm.builder().protocol("occ").objectProtocol("tictoc").name("mixed").build();
        assertEquals(List.of("occ", "tictoc"), stm.protocols());
        assertEquals("occ", stm.protocol());
        Stm tictoc = stm.withProtocol("tictoc");
        assertEquals("tictoc", tictoc.protocol());
        assertEquals(stm.protocols(), tictoc.protocols());
        assertSame(stm, stm.withProtocol("occ"));
        assertSame(tictoc, tictoc.withProtocol("tictoc"));
        assertSame(stm, tictoc.withProtocol("occ"));
        assertEquals(Capabilities.Isolation.SERIALIZABLE, stm.capabilities().isolation());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> stm.withProtocol("global-lock"));
        assertTrue(unknown.getMessage().contains("'global-lock'") && unknown.getMessage().contains("occ, tictoc"),
                unknown::getMessage);

        // One store: a transaction may touch objects of both views, and the statistics are shared.
        TxLong a = new TxLong(stm, 1);
        TxLong b = new TxLong(tictoc, 2);
        long sum = tictoc.atomic(txn -> {
            b.set(txn, b.get(txn) + a.get(txn));
            return a.get(txn) + b.get(txn);
        });
        assertEquals(4, sum);
        assertEquals(3, b.single().get());
        StmStatistics st = stm.statistics();
        assertEquals(1, st.commits(), st::toString);
        assertEquals(st.toString(), tictoc.statistics().toString());
        assertTrue(stm.inTransaction() == tictoc.inTransaction());
    }

    /** A view is the same store for JMX too: one MXBean listing every protocol, unregistered through any view. */
    @Test
    void aStoreOfSeveralProtocolsHasOneMXBeanForEveryView() throws Exception {
        Stm stm = Stm.builder().protocol("occ").objectProtocol("tictoc").name("mixed-jmx-test").jmx(true).build();
        try {
            Stm tictoc = stm.withProtocol("tictoc");
            ObjectName on = new ObjectName("io.jato:type=Stm,name=" + ObjectName.quote("mixed-jmx-test"));
            assertEquals(on.toString(), stm.jmxName());
            assertEquals(on.toString(), tictoc.jmxName());
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            assertArrayEquals(new String[] {"occ", "tictoc"}, (String[]) server.getAttribute(on, "Protocols"));
            TxLong b = new TxLong(tictoc, 0);
            tictoc.run(txn -> b.set(txn, 1));
            assertEquals(1L, server.getAttribute(on, "Commits"));

            assertTrue(tictoc.unregisterJmx());
            assertFalse(server.isRegistered(on));
            assertNull(stm.jmxName());
            assertFalse(stm.unregisterJmx());
        } finally {
            stm.unregisterJmx();
        }
    }

    /** A view is the same store: an atomic block started through it inside a transaction joins that transaction. */
    @Test
    void aBlockStartedThroughAViewJoinsTheRunningTransaction() {
        Stm stm = Stm.builder().protocol("occ").objectProtocol("tictoc").build();
        Stm tictoc = stm.withProtocol("tictoc");
        TxLong a = new TxLong(stm, 0);
        TxLong b = new TxLong(tictoc, 0);
        stm.run(txn -> {
            a.set(txn, 1);
            tictoc.run(inner -> {
                assertSame(txn, inner);
                assertSame(stm, inner.stm());
                b.set(inner, a.get(inner) + 1);
            });
        });
        assertEquals(2, b.single().get());
        assertEquals(1, stm.statistics().commits());
    }

    @Test
    void onlySerializableProtocolsMixAndOptionsNameTheirProtocol() {
        IllegalArgumentException weak = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol("occ").objectProtocol("tictoc-si").build());
        assertTrue(weak.getMessage().contains("'tictoc-si'"), weak::getMessage);
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol("occ").objectProtocol("no-such").build());
        assertTrue(unknown.getMessage().contains("'no-such'"), unknown::getMessage);

        Stm ok = Stm.builder().protocol("occ").objectProtocol("tictoc")
                .option("tictoc.history", 4).option("heldLockSpins", 16).build();
        assertEquals(List.of("occ", "tictoc"), ok.protocols());
        IllegalArgumentException badOption = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol("occ").objectProtocol("tictoc").option("tictoc.nope", 1).build());
        assertTrue(badOption.getMessage().contains("'nope'") && badOption.getMessage().contains("tictoc"),
                badOption::getMessage);
        IllegalArgumentException badValue = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol("occ").objectProtocol("tictoc").option("tictoc.history", -1).build());
        assertTrue(badValue.getMessage().contains("history"), badValue::getMessage);
        IllegalArgumentException noProtocol = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol("occ").objectProtocol("tictoc").option("mvcc.x", 1).build());
        assertTrue(noProtocol.getMessage().contains("'mvcc.x'"), noProtocol::getMessage);
    }

    /**
     * Each object is served by the protocol of the store object it was created with: a
     * transaction that touches only default-protocol objects never reaches the other protocol's
     * commit steps, one that touches a view's object does, and one touching both reaches both.
     */
    @Test
    void eachObjectIsServedByTheProtocolItWasCreatedWith() {
        Stm stm = Stm.builder().protocol("occ").objectProtocol(ProbeProtocol.NAME).build();
        ProbeProtocol.Control probe = ProbeProtocol.lastCreated;
        TxRef<String> onOcc = new TxRef<>(stm, "a");
        TxRef<String> onProbe = new TxRef<>(stm.withProtocol(ProbeProtocol.NAME), "b");
        int before = probe.prepares.get();
        stm.run(txn -> onOcc.set(txn, onOcc.get(txn) + "1"));
        assertEquals(before, probe.prepares.get(), "an occ-only transaction reached the probe's prepare");
        stm.run(txn -> onProbe.set(txn, onProbe.get(txn) + "1"));
        assertEquals(before + 1, probe.prepares.get());
        stm.run(txn -> onProbe.set(txn, onOcc.get(txn) + onProbe.get(txn)));
        assertEquals(before + 2, probe.prepares.get());
        assertEquals("a1", onOcc.single().get());
        assertEquals("a1b1", onProbe.single().get());
        // Every transaction begins and finishes in every protocol of the store (3 here).
        assertEquals(3, probe.finishes.size());
    }

    /**
     * The anomaly a spanning transaction could commit if each protocol picked its own commit
     * timestamp. x is on a commit-point protocol, y on TicToc. T1 reads y (version 0) and waits;
     * T2 writes y and x and commits; T1 then reads x, seeing T2's write, and commits read-only.
     * T1 must follow T2 (it read x from T2) and precede it (it read y before T2 overwrote it): a
     * cycle. TicToc alone would let T1 commit at y's old timestamp, valid without extension; the
     * store's clock gives T1 a timestamp above T2's, at which y's old version is no longer valid,
     * so T1 aborts and its retry reads both new values. Fails if spanning commits skip the clock.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("commitPointProtocols")
    void aReaderSpanningTwoProtocolsSeesAWriterOfBothEntirelyOrNotAtAll(String other) {
        Stm stm = Stm.builder().protocol(other).objectProtocol("tictoc").build();
        TxLong x = new TxLong(stm, 0);
        TxLong y = new TxLong(stm.withProtocol("tictoc"), 0);
        ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
        AtomicBoolean t1Done = new AtomicBoolean();
        Interleaving il = new Interleaving();
        il.thread("T1", () -> {
            long[] xy = stm.readOnly(txn -> {
                long yv = y.get(txn);
                if (txn.attempt() == 0) {
                    il.signal("T1 read y");
                    il.await("T2 committed");
                }
                return new long[] {x.get(txn), yv};
            });
            seen.add(xy[0] + "," + xy[1]);
            t1Done.set(true);
        });
        il.thread("T2", () -> {
            il.await("T1 read y");
            stm.run(txn -> {
                y.set(txn, y.get(txn) + 1);
                x.set(txn, x.get(txn) + 1);
            });
            il.signal("T2 committed");
        });
        il.run();
        assertTrue(t1Done.get());
        String got = seen.peek();
        assertTrue("0,0".equals(got) || "1,1".equals(got),
                "T1 saw x,y = " + got + ": half of T2 (x from after it, y from before it)");
        if (il.followedSchedule() && !"global-lock".equals(other)) {
            assertEquals("1,1", got, "T1 read y before T2 and x after it; only a retry can be right");
        }
        assertEquals(List.of(), Quiescence.problems(x, y), "quiescent");
    }

    /**
     * A thread's first transaction creates its per-protocol states. If the second protocol's
     * creation fails, the first protocol's state must leave its registry (a state left there
     * would count as a live transaction forever), the failure reaches the caller, and the thread
     * runs its next transaction normally. Fails if MixedControl leaves the state registered.
     */
    @Test
    void aFailedStateCreationLeavesNoProtocolStateRegistered() throws InterruptedException {
        Stm stm = Stm.builder().protocol(ProbeProtocol.NAME).objectProtocol(PastProtocol.NAME).build();
        ProbeProtocol.Control probe = ProbeProtocol.lastCreated;
        PastProtocol.Control past = PastProtocol.lastCreated;
        TxLong x = new TxLong(stm, 0);
        IllegalStateException boom = new IllegalStateException("no state");
        past.failNewTxnState = boom;
        Throwable[] thrown = new Throwable[1];
        long[] after = new long[1];
        int[] registeredAfterFailure = new int[1];
        Thread t = new Thread(() -> {
            try {
                stm.run(txn -> x.set(txn, 1));
            } catch (Throwable e) {
                thrown[0] = e;
            }
            registeredAfterFailure[0] = CommitDriverSpiTest.live(probe.context).size();
            stm.run(txn -> x.set(txn, x.get(txn) + 1));
            after[0] = x.single().get();
        });
        t.start();
        t.join(20_000);
        assertSame(boom, thrown[0]);
        assertEquals(0, registeredAfterFailure[0], "the first protocol's state stayed registered");
        assertEquals(1, after[0], "the thread's next transaction ran");
        assertEquals(1, CommitDriverSpiTest.live(probe.context).size());
    }

    static List<String> commitPointProtocols() {
        return List.of("occ", "global-lock");
    }
}
