package io.jato.stm;

import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The opt-in MXBean of a store ({@link Stm.Builder#jmx}): registered only when asked, under a
 * quoted ObjectName, its attributes equal to the store's statistics through the MBeanServer and a
 * proxy, a duplicate name refused at build, and unregistering. Every store a test registers is
 * unregistered after it, and the test fails if any is left.
 */
@Timeout(30)
class StmJmxTest {
    /** Every store name of this class starts with it, so the check after each test finds leaks. */
    private static final String PREFIX = "jato-jmx-test-";
    private static final TxnType DEPOSIT = TxnType.of("jmx-test-deposit");
    private static final TxnType AUDIT = TxnType.of("jmx-test-audit");

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final List<Stm> stores = new ArrayList<>();

    private Stm registered(String name) {
        Stm stm = Stm.builder().name(PREFIX + name).jmx(true).build();
        stores.add(stm);
        return stm;
    }

    private static ObjectName objectName(String storeName) throws Exception {
        return new ObjectName("io.jato:type=Stm,name=" + ObjectName.quote(storeName));
    }

    @AfterEach
    void nothingIsLeftRegistered() throws Exception {
        stores.forEach(Stm::unregisterJmx);
        Set<ObjectName> left = new HashSet<>();
        for (ObjectName n : server.queryNames(new ObjectName("io.jato:type=Stm,*"), null)) {
            if (ObjectName.unquote(n.getKeyProperty("name")).startsWith(PREFIX)) {
                left.add(n);
                server.unregisterMBean(n);
            }
        }
        assertEquals(Set.of(), left, "a test left MXBeans registered");
    }

    @Test
    void aStoreRegistersNothingUnlessAsked() throws Exception {
        Stm stm = Stm.builder().name(PREFIX + "quiet").build();
        assertNull(stm.jmxName());
        assertFalse(server.isRegistered(objectName(PREFIX + "quiet")));
        assertFalse(stm.unregisterJmx());

        Stm loud = registered("loud");
        assertEquals(objectName(PREFIX + "loud").toString(), loud.jmxName());
        assertTrue(server.isRegistered(objectName(PREFIX + "loud")));
        assertTrue(server.isInstanceOf(objectName(PREFIX + "loud"), StmMXBean.class.getName()));
    }

    @Test
    void attributesEqualTheStatisticsThroughTheServerAndAProxy() throws Exception {
        Stm stm = registered("counts");
        LongItem x = new LongItem(0);
        for (int i = 0; i < 5; i++) {
            stm.run(DEPOSIT, txn -> TxnContext.of(txn, stm).writeLong(x, 1));
        }
        int[] attempts = {0};
        stm.run(AUDIT, txn -> {
            if (attempts[0]++ == 0) {
                throw TxnContext.of(txn, stm).rollback(AbortCause.READ_VALIDATION);
            }
        });
        assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            throw txn.abort();
        }));

        StmStatistics s = stm.statistics();
        assertEquals(8, s.starts());
        assertEquals(6, s.commits());
        assertEquals(2, s.aborts());
        ObjectName on = new ObjectName(stm.jmxName());
        assertEquals(PREFIX + "counts", server.getAttribute(on, "Name"));
        assertArrayEquals(new String[] {"occ"}, (String[]) server.getAttribute(on, "Protocols"));
        assertEquals(true, server.getAttribute(on, "StatisticsEnabled"));
        assertEquals(s.starts(), server.getAttribute(on, "Starts"));
        assertEquals(s.commits(), server.getAttribute(on, "Commits"));
        assertEquals(s.aborts(), server.getAttribute(on, "Aborts"));
        assertEquals(s.abortRate(), (Double) server.getAttribute(on, "AbortRate"), 0.0);
        assertEquals(0.25, s.abortRate(), 0.0);

        StmMXBean proxy = JMX.newMXBeanProxy(server, on, StmMXBean.class);
        assertEquals(PREFIX + "counts", proxy.getName());
        assertEquals(List.of("occ"), proxy.getProtocols());
        assertEquals(s.starts(), proxy.getStarts());
        assertEquals(s.commits(), proxy.getCommits());
        assertEquals(s.aborts(), proxy.getAborts());
        assertEquals(s.abortRate(), proxy.getAbortRate(), 0.0);
        Map<String, StmMXBean.TypeStatistics> expected = new LinkedHashMap<>();
        stm.statisticsByType().forEach((t, ts) -> expected.put(t.name(), StmMXBean.TypeStatistics.of(ts)));
        assertEquals(Set.of("untyped", DEPOSIT.name(), AUDIT.name()), expected.keySet());
        assertEquals(expected, proxy.getStatisticsByType());
        assertEquals(new StmMXBean.TypeStatistics(5, 5, 0), proxy.getStatisticsByType().get(DEPOSIT.name()));
        assertEquals(0.5, proxy.getStatisticsByType().get(AUDIT.name()).getAbortRate(), 0.0);

        // Attributes are read when asked, not when registered.
        stm.run(DEPOSIT, txn -> TxnContext.of(txn, stm).writeLong(x, 2));
        assertEquals(s.commits() + 1, server.getAttribute(on, "Commits"));
        assertEquals(6L, proxy.getStatisticsByType().get(DEPOSIT.name()).getCommits());
    }

    @Test
    void abortsByCauseShowsEveryCauseWithTheForcedOnesCounted() throws Exception {
        Stm stm = registered("causes");
        for (int i = 0; i < 3; i++) {
            assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
                throw txn.abort();
            }));
        }
        ObjectName on = new ObjectName(stm.jmxName());
        TabularData byCause = (TabularData) server.getAttribute(on, "AbortsByCause");
        assertEquals(AbortCause.count(), byCause.size(), byCause::toString);
        assertEquals(3L, byCause.get(new Object[] {"USER_ABORT"}).get("value"));
        assertEquals(0L, byCause.get(new Object[] {"READ_VALIDATION"}).get("value"));

        Map<String, Long> viaProxy = JMX.newMXBeanProxy(server, on, StmMXBean.class).getAbortsByCause();
        assertEquals(3L, viaProxy.get(AbortCause.USER_ABORT.name()));
        assertEquals(AbortCause.count(), viaProxy.size());
    }

    @Test
    void statisticsByTypeIsATableOfCompositeRows() throws Exception {
        Stm stm = registered("types");
        stm.run(DEPOSIT, txn -> { });
        TabularData byType = (TabularData) server.getAttribute(new ObjectName(stm.jmxName()), "StatisticsByType");
        CompositeData row = (CompositeData) byType.get(new Object[] {DEPOSIT.name()}).get("value");
        assertEquals(1L, row.get("starts"));
        assertEquals(1L, row.get("commits"));
        assertEquals(0L, row.get("aborts"));
        assertEquals(0.0, row.get("abortRate"));
        assertEquals(1, byType.size(), "only types that ran: " + byType);
    }

    @Test
    void aStoreWithoutStatisticsReadsZeros() throws Exception {
        Stm stm = Stm.builder().name(PREFIX + "uncounted").statistics(false).jmx(true).build();
        stores.add(stm);
        stm.run(txn -> { });
        ObjectName on = new ObjectName(stm.jmxName());
        assertEquals(false, server.getAttribute(on, "StatisticsEnabled"));
        assertEquals(0L, server.getAttribute(on, "Commits"));
    }

    @Test
    void aSecondStoreOfTheSameNameFailsToBuildAndRegistersNothing() throws Exception {
        Stm first = registered("twin");
        ObjectName on = objectName(PREFIX + "twin");
        Stm.Builder second = Stm.builder().name(PREFIX + "twin").jmx(true);
        IllegalStateException e = assertThrows(IllegalStateException.class, second::build);
        assertTrue(e.getMessage().contains(on.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("Stm.Builder.name"), e.getMessage());
        assertEquals(Set.of(on), server.queryNames(on, null));
        first.run(txn -> { });
        assertEquals(1L, server.getAttribute(on, "Commits"), "the MXBean is still the first store's");

        // A store of that name that does not ask for JMX is fine.
        assertNull(Stm.builder().name(PREFIX + "twin").build().jmxName());
    }

    @Test
    void unregisteringRemovesTheMXBeanOnceAndFreesTheName() throws Exception {
        Stm stm = registered("again");
        ObjectName on = objectName(PREFIX + "again");
        assertTrue(stm.unregisterJmx());
        assertFalse(server.isRegistered(on));
        assertNull(stm.jmxName());
        assertFalse(stm.unregisterJmx(), "idempotent");
        stm.run(txn -> { });
        assertEquals(1, stm.statistics().commits(), "the store goes on working");

        Stm again = registered("again");
        assertTrue(server.isRegistered(on), "the name is free again");
        assertFalse(stm.unregisterJmx());
        assertTrue(server.isRegistered(on), "the old store removes nothing of the new one's");
        assertNotNull(again.jmxName());
    }

    @Test
    void anUnregistrationThroughTheServerIsSeenAndTheNewcomerKept() throws Exception {
        Stm stm = registered("taken");
        ObjectName on = objectName(PREFIX + "taken");
        server.unregisterMBean(on);
        assertNull(stm.jmxName());
        Stm newcomer = registered("taken");
        assertFalse(stm.unregisterJmx());
        assertTrue(server.isRegistered(on));
        assertEquals(on.toString(), newcomer.jmxName());
    }

    @Test
    void theServerKeepsARegisteredStoreReachableUntilItIsUnregistered() throws InterruptedException {
        WeakReference<Stm> ref = registeredAndForgotten();
        System.gc();
        assertNotNull(ref.get(), "the MBeanServer holds the store while its MXBean is registered");
        assertTrue(ref.get().unregisterJmx());
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(ref.get(), "unregistered, the store is collectable again");
    }

    private static WeakReference<Stm> registeredAndForgotten() {
        Stm stm = Stm.builder().name(PREFIX + "forgotten").jmx(true).build();
        stm.run(txn -> { });
        return new WeakReference<>(stm);
    }

    @Test
    void anyStoreNameIsQuotedIntoAValidObjectName() throws Exception {
        for (String odd : List.of("a,b", "host:port", "k=v", "say \"hi\"", "star*?", "back\\slash", "line\nbreak", "")) {
            Stm stm = registered(odd);
            ObjectName on = new ObjectName(stm.jmxName());
            assertEquals("io.jato", on.getDomain());
            assertEquals("Stm", on.getKeyProperty("type"));
            assertEquals(PREFIX + odd, ObjectName.unquote(on.getKeyProperty("name")));
            assertEquals(PREFIX + odd, server.getAttribute(on, "Name"));
            assertTrue(stm.unregisterJmx());
        }
    }

    @Test
    void typeStatisticsRefusesNegativeCounts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new StmMXBean.TypeStatistics(1, -1, 0));
        assertTrue(e.getMessage().contains("commits=-1"), e.getMessage());
        assertEquals(0.0, new StmMXBean.TypeStatistics(0, 0, 0).getAbortRate(), 0.0);
    }
}
