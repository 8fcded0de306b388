package io.jato.protocols.suite;

import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contention-aware layout (seed 002 §4.5) on a TPC-C NEW-ORDER-like table: keys
 * {@code district << 32 | order}, four districts of 100 orders loaded in key order. DELIVERY scans
 * one district from its oldest order; NEW-ORDER appends orders at the end of the districts on
 * either side. Without the layout, the leaf holding the first orders of district d also holds the
 * last orders of district d-1 (a district boundary falls inside a leaf), so every append to d-1
 * changes a leaf the delivery scan observed: a false conflict that aborts the scan. With
 * {@code prefixLayout(32)} each district has leaves of its own and the scan never aborts.
 */
@Timeout(120)
class ContentionAwareLayoutTest {
    private static final int SHIFT = 32;
    private static final long ORDERS = 100;

    private static long key(long district, long order) {
        return district << SHIFT | order;
    }

    private static AnySortedMap<String> newOrders(Stm stm, String kind, boolean layout) {
        AnySortedMap<String> map = AnySortedMap.create(kind, stm, 32, layout ? SHIFT : 0);
        for (long d = 0; d < 4; d++) {
            for (long o = 1; o <= ORDERS; o++) {
                map.singlePut(key(d, o), "order");
            }
        }
        return map;
    }

    /** Delivery of district {@code d}: the oldest order (a scan with limit 1), then the whole district. */
    private static long deliveryScan(io.jato.stm.Txn txn, AnySortedMap<String> map, long d) {
        long[] seen = {0};
        map.scan(txn, key(d, 0), true, key(d + 1, 0), false, 1, false, (k, v) -> ++seen[0] > 0);
        map.scan(txn, key(d, 0), true, key(d + 1, 0), false, Integer.MAX_VALUE, false, (k, v) -> ++seen[0] > 0);
        return seen[0];
    }

    /**
     * Scheduled: the delivery scan of district 1 reads, then waits while new-order appends to
     * districts 0 and 2 commit, then commits. With the layout it commits at once; without it, it
     * must retry whenever the protocol let the schedule happen (the control that the test can see
     * the false conflict at all).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.jato.protocols.suite.AnySortedMap#protocolsAndKinds")
    void aDeliveryScanIsNotAbortedByNewOrdersInOtherDistricts(String protocol, String kind) {
        for (int run = 0; run < 3; run++) {
            boolean layout = run != 1;
            // Run 2: district 1 was fully delivered; its (empty) leaf must still be its own.
            boolean drained = run == 2;
            Stm stm = Protocols.store(protocol);
            AnySortedMap<String> map = newOrders(stm, kind, layout);
            if (drained) {
                stm.run(txn -> {
                    for (long o = 1; o <= ORDERS; o++) {
                        map.remove(txn, key(1, o));
                    }
                });
            }
            AtomicInteger attempts = new AtomicInteger();
            AtomicReference<String> lastRead = new AtomicReference<>();
            Interleaving il = new Interleaving();
            il.thread("delivery", () -> stm.run(txn -> {
                attempts.incrementAndGet();
                assertEquals(drained ? 0 : ORDERS + 1, deliveryScan(txn, map, 1));
                if (txn.attempt() == 0) {
                    il.signal("scanned");
                    il.await("new orders");
                }
                // Reading a new order orders the delivery after NEW-ORDER in every single-version
                // protocol (TicToc would otherwise commit the scan before it, conflict or not); a
                // multi-version one may read it as of before NEW-ORDER (absent).
                lastRead.set(map.get(txn, key(2, ORDERS + 1)));
            }));
            il.thread("new-order", () -> {
                il.await("scanned");
                stm.run(txn -> {
                    map.put(txn, key(0, ORDERS + 1), "new");
                    map.put(txn, key(2, ORDERS + 1), "new");
                });
                il.signal("new orders");
            });
            il.run();
            if (layout) {
                assertEquals(1, attempts.get(), "with the layout, new orders in other districts aborted the delivery scan"
                        + (drained ? " of an empty district" : ""));
            } else if (il.followedSchedule() && lastRead.get() != null) {
                // Serialized after NEW-ORDER: without the layout its insert aborted the scan.
                assertEquals(2, attempts.get(), "without the layout the scan shares a leaf with district 0's last orders");
            }
            Quiescence.assertQuiescent(map);
        }
    }

    /**
     * Unscheduled, for a while: one thread runs delivery scans of district 1, another appends new
     * orders to districts 0 and 2. Prints the counts; with the layout the scan never aborts, and
     * without it, it does whenever the protocol aborts on conflicts at all (the scheduled control).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.jato.protocols.suite.AnySortedMap#protocolsAndKinds")
    void scanAbortsWithAndWithoutTheLayout(String protocol, String kind) {
        long[] with = run(protocol, kind, true);
        long[] without = run(protocol, kind, false);
        System.out.println("[layout] " + protocol + " " + kind + ": delivery scans with layout " + with[0]
                + " committed, " + with[1] + " aborted; without layout " + without[0] + " committed, "
                + without[1] + " aborted (new orders committed: " + with[2] + " / " + without[2] + ")");
        assertEquals(0, with[1], "delivery scans aborted with the layout");
        assertTrue(with[0] > 0 && without[0] > 0);
        if (protocol.equals("occ")) {
            assertTrue(without[1] > 0, "no false conflict without the layout: the test no longer shows the problem");
        }
    }

    /** @return {scans committed, scan attempts aborted, new orders committed} */
    private static long[] run(String protocol, String kind, boolean layout) {
        Stm stm = Protocols.store(protocol);
        AnySortedMap<String> map = newOrders(stm, kind, layout);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong scans = new AtomicLong();
        AtomicLong attempts = new AtomicLong();
        AtomicLong orders = new AtomicLong();
        long millis = 150L * Protocols.scale();
        Interleaving il = new Interleaving();
        il.thread("delivery", () -> {
            long end = System.nanoTime() + millis * 1_000_000;
            while (System.nanoTime() - end < 0) {
                stm.run(txn -> {
                    attempts.incrementAndGet();
                    deliveryScan(txn, map, 1);
                    Thread.yield(); // a delivery does more work than the scan: widen the window
                });
                scans.incrementAndGet();
            }
            stop.set(true);
        });
        il.thread("new-order", () -> {
            for (long o = ORDERS + 1; !stop.get(); o++) {
                long order = o;
                stm.run(txn -> map.put(txn, key(order % 2 == 0 ? 0 : 2, order), "new"));
                orders.incrementAndGet();
            }
        });
        il.run();
        Quiescence.assertQuiescent(map);
        StmStatistics st = stm.statistics();
        assertEquals(st.starts(), st.commits() + st.aborts(), st::toString);
        return new long[] {scans.get(), attempts.get() - scans.get(), orders.get()};
    }
}
