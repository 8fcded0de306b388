package io.jato.workloads.tpcc;

import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One loaded warehouse against clause 4.3's cardinalities and data rules, and the consistency checker. */
class TpccLoadTest {
    private static final long SEED = 42;
    private static final long NOW = 1_700_000_000_000L;
    private static TpccDatabase db;

    @BeforeAll
    static void load() {
        db = new TpccDatabase(Stm.create(), 1, RecordLayout.SPLIT, SEED);
        db.load(new ThreadsLoader(2), NOW);
    }

    @Test
    void tablesHaveTheCardinalitiesOfOneWarehouse() {
        assertEquals(1, db.warehouse.single().size());
        assertEquals(10, db.district.single().size());
        assertEquals(30_000, db.customer.single().size());
        assertEquals(30_000, db.history.single().size());
        assertEquals(30_000, db.order.single().size());
        assertEquals(30_000, db.orderByCustomer.single().size());
        assertEquals(9_000, db.newOrder.single().size());
        assertEquals(100_000, db.item.single().size());
        assertEquals(100_000, db.stock.single().size());
        long[] lines = {0};
        db.order.single().forEach((k, o) -> {
            int n = o.single().get().orderLineCount();
            assertTrue(n >= 5 && n <= 15, "O_OL_CNT " + n);
            lines[0] += n;
            return true;
        });
        assertEquals(lines[0], db.orderLine.single().size());
        // 30,000 orders of 5..15 lines, 10 on average: within a few standard deviations of 300,000.
        assertEquals(300_000, lines[0], 3_000);
    }

    @Test
    void theLoadIsConsistent() {
        assertEquals(List.of(), TpccConsistency.checkWithoutDeliveries(db));
    }

    @Test
    void ordersGoToAPermutationOfTheCustomers() {
        for (int d = 1; d <= 10; d++) {
            boolean[] seen = new boolean[3001];
            int dd = d;
            db.order.single().scan(TpccKeys.firstOrderOf(1, d), true, TpccKeys.lastOrderOf(1, d), true,
                    Integer.MAX_VALUE, false, (key, order) -> {
                        int c = order.single().get().customerId();
                        assertFalse(seen[c], "customer " + c + " has two orders in district " + dd);
                        seen[c] = true;
                        long o = TpccKeys.orderIdOfOrder(key);
                        assertSame(order, db.orderByCustomer.single().get(TpccKeys.orderByCustomer(1, dd, c, o)));
                        return true;
                    });
            for (int c = 1; c <= 3000; c++) {
                assertTrue(seen[c], "customer " + c + " of district " + d + " has no order");
            }
        }
    }

    @Test
    void undeliveredOrdersAreTheLast900() {
        for (int d = 1; d <= 10; d++) {
            for (int o = 1; o <= 3000; o++) {
                Order order = db.order.single().get(TpccKeys.order(1, d, o));
                Order.Image oi = order.single().get();
                boolean delivered = o < 2101;
                assertEquals(!delivered, db.newOrder.single().get(TpccKeys.order(1, d, o)) == order, "order " + o);
                if (delivered) {
                    assertTrue(oi.carrierId() >= 1 && oi.carrierId() <= 10);
                } else {
                    assertEquals(0, oi.carrierId());
                }
                assertTrue(oi.allLocal());
                assertEquals(NOW, oi.entryDate());
                for (int ol = 1; ol <= oi.orderLineCount(); ol++) {
                    OrderLine.Image li = db.orderLine.single().get(TpccKeys.orderLine(1, d, o, ol)).single().get();
                    assertEquals(delivered ? NOW : 0, li.deliveryDate());
                    if (delivered) {
                        assertEquals(0, li.amount());
                    } else {
                        assertTrue(li.amount() >= 1 && li.amount() <= 999_999);
                    }
                    assertEquals(5, li.quantity());
                    assertEquals(1, li.supplyWarehouseId());
                    assertTrue(li.itemId() >= 1 && li.itemId() <= 100_000);
                    assertEquals(24, li.distInfo().length());
                }
            }
        }
    }

    @Test
    void initialMoneyFollowsTheSpecification() {
        assertEquals(30_000_000L, db.warehouse.single().get(TpccKeys.warehouse(1)).single().get().ytd());
        for (int d = 1; d <= 10; d++) {
            District.Image di = db.district.single().get(TpccKeys.district(1, d)).single().get();
            assertEquals(3_000_000L, di.ytd());
            assertEquals(3001, di.nextOrderId());
            assertTrue(di.tax() >= 0 && di.tax() <= 2000);
        }
        int bad = 0;
        for (int d = 1; d <= 10; d++) {
            for (int c = 1; c <= 3000; c++) {
                Customer.Image ci = db.customer.single().get(TpccKeys.customer(1, d, c)).single().get();
                assertEquals(-1_000L, ci.balance());
                assertEquals(1_000L, ci.ytdPayment());
                assertEquals(1, ci.paymentCount());
                assertEquals(0, ci.deliveryCount());
                assertEquals(5_000_000L, ci.creditLimit());
                assertTrue(ci.discount() >= 0 && ci.discount() <= 5000);
                assertTrue(ci.data().length() >= 300 && ci.data().length() <= 500);
                bad += ci.credit().equals("BC") ? 1 : 0;
                History.Image h = db.history.single().get(TpccKeys.history(0, TpccKeys.customer(1, d, c))).single().get();
                assertEquals(c, h.customerId());
                assertEquals(1_000L, h.amount());
            }
        }
        assertEquals(0.1, bad / 30_000.0, 0.01);
    }

    @Test
    void lastNamesAndTheirIndex() {
        for (int d = 1; d <= 10; d++) {
            int indexed = 0;
            for (int n = 0; n < 1000; n++) {
                int[] ids = db.customersByLastName.single().get(TpccKeys.lastName(1, d, n));
                assertNotNull(ids, "customer " + (n + 1) + " has last name " + n);
                String previous = "";
                for (int c : ids) {
                    Customer.Image ci = db.customer.single().get(TpccKeys.customer(1, d, c)).single().get();
                    assertEquals(TpccRandom.lastName(n), ci.last());
                    assertTrue(previous.compareTo(ci.first()) <= 0, "sorted by first name");
                    previous = ci.first();
                    indexed++;
                }
            }
            assertEquals(3000, indexed);
            for (int c = 1; c <= 1000; c++) {
                assertEquals(TpccRandom.lastName(c - 1),
                        db.customer.single().get(TpccKeys.customer(1, d, c)).single().get().last());
            }
        }
        assertEquals("PRICALLYOUGHT", db.customer.single().get(TpccKeys.customer(1, 1, 372)).single().get().last());
    }

    @Test
    void aboutOneItemAndStockRowInTenIsOriginal() {
        int items = 0;
        int stock = 0;
        for (int i = 1; i <= 100_000; i++) {
            Item.Image ii = db.item.single().get(TpccKeys.item(i)).single().get();
            assertTrue(ii.price() >= 100 && ii.price() <= 10_000);
            items += ii.data().contains(TpccRandom.ORIGINAL) ? 1 : 0;
            Stock.Image si = db.stock.single().get(TpccKeys.stock(1, i)).single().get();
            assertTrue(si.quantity() >= 10 && si.quantity() <= 100);
            assertEquals(24, si.dist10().length());
            stock += si.data().contains(TpccRandom.ORIGINAL) ? 1 : 0;
        }
        assertEquals(0.1, items / 100_000.0, 0.006);
        assertEquals(0.1, stock / 100_000.0, 0.006);
    }

    @Test
    void theCheckerNamesSeededViolations() {
        // A database of its own: ORDER-LINE is insert-only, so the extra line cannot be taken back.
        TpccDatabase db = new TpccDatabase(Stm.create(), 1, RecordLayout.SPLIT, SEED);
        db.load(new ThreadsLoader(2), NOW);
        Warehouse w = db.warehouse.single().get(TpccKeys.warehouse(1));
        Warehouse.Image wi = w.single().get();
        long newOrderKey = TpccKeys.order(1, 3, 2500);
        db.newOrder.single().remove(newOrderKey);
        // An order with fewer than 15 lines gets one more (worth nothing, delivered like its
        // first line): conditions 4 and 6 count the lines, and nothing else notices it.
        int o = 10;
        while (db.order.single().get(TpccKeys.order(1, 7, o)).single().get().orderLineCount() == 15) {
            o++;
        }
        int lines = db.order.single().get(TpccKeys.order(1, 7, o)).single().get().orderLineCount();
        OrderLine first = db.orderLine.single().get(TpccKeys.orderLine(1, 7, o, 1));
        db.orderLine.single().put(TpccKeys.orderLine(1, 7, o, lines + 1),
                OrderLine.create(db.orderLineStm, RecordLayout.SPLIT, first.single().get().setAmount(0)));
        District district = db.district.single().get(TpccKeys.district(1, 9));
        District.Image di = district.single().get();
        w.single().set(w.single().get().setYtd(wi.ytd() + 1));
        district.single().set(district.single().get().setNextOrderId(di.nextOrderId() + 1));
        List<TpccConsistency.Violation> v = TpccConsistency.check(db);
        assertEquals(List.of(
                "3 1 3", "5 1 3", "4 1 7", "6 1 7", "2 1 9", "2 1 9", "1 1 0", "8 1 0"),
                v.stream().map(x -> x.condition() + " " + x.warehouse() + " " + x.district()).toList(), v.toString());
        assertTrue(v.get(0).toString().startsWith("consistency condition 3 violated at warehouse 1, district 3: "),
                v.get(0).toString());
    }

    @Test
    void theCheckerNamesSeededViolationsOfConditions7To12() {
        long lineKey = TpccKeys.orderLine(1, 2, 2200, 1);
        OrderLine line = db.orderLine.single().get(lineKey);
        OrderLine.Image li = line.single().get();
        District district = db.district.single().get(TpccKeys.district(1, 4));
        District.Image di = district.single().get();
        Customer customer = db.customer.single().get(TpccKeys.customer(1, 6, 17));
        Customer.Image ci = customer.single().get();
        long newOrderKey = TpccKeys.order(1, 8, TpccDatabase.FIRST_UNDELIVERED_ORDER);
        Order removedNewOrder = db.newOrder.single().remove(newOrderKey);
        try {
            line.single().set(line.single().get().setDeliveryDate(NOW));
            district.single().set(district.single().get().setYtd(di.ytd() + 5));
            customer.single().set(customer.single().get().setBalance(ci.balance() - 1));
            List<TpccConsistency.Violation> v = TpccConsistency.check(db);
            assertEquals(List.of("7 1 2", "10 1 2", "12 1 2", "9 1 4", "10 1 6", "12 1 6", "5 1 8", "1 1 0"),
                    v.stream().map(x -> x.condition() + " " + x.warehouse() + " " + x.district()).toList(), v.toString());
            List<TpccConsistency.Violation> strict = TpccConsistency.checkWithoutDeliveries(db);
            assertEquals(v.size() + 1, strict.size(), strict.toString());
            assertTrue(strict.stream().anyMatch(x -> x.condition() == 11 && x.district() == 8), strict.toString());
            assertTrue(v.get(4).detail().startsWith("customer 17: C_BALANCE = -1001"), v.get(4).detail());
        } finally {
            line.single().set(li);
            district.single().set(di);
            customer.single().set(ci);
            db.newOrder.single().put(newOrderKey, removedNewOrder);
        }
        assertEquals(List.of(), TpccConsistency.checkWithoutDeliveries(db));
    }

    @Test
    void twoWarehousesLoadInParallelAndReproducibly() {
        TpccDatabase two = new TpccDatabase(Stm.create(), 2, RecordLayout.COARSE, SEED);
        ThreadsLoader loader = new ThreadsLoader(3);
        two.load(loader, NOW);
        assertEquals(List.of("items 100000", "stock rows 200000", "districts 20"), loader.phases);
        assertEquals(2, two.warehouse.single().size());
        assertEquals(20, two.district.single().size());
        assertEquals(60_000, two.customer.single().size());
        assertEquals(60_000, two.history.single().size());
        assertEquals(60_000, two.order.single().size());
        assertEquals(18_000, two.newOrder.single().size());
        assertEquals(100_000, two.item.single().size());
        assertEquals(200_000, two.stock.single().size());
        assertEquals(List.of(), TpccConsistency.check(two));
        assertEquals(RecordLayout.COARSE, two.warehouse.single().get(TpccKeys.warehouse(2)).layout());
        // Same seed, other thread count and warehouse count: warehouse 1 holds the same rows.
        Customer.Image a = db.customer.single().get(TpccKeys.customer(1, 4, 2345)).single().get();
        Customer.Image b = two.customer.single().get(TpccKeys.customer(1, 4, 2345)).single().get();
        assertEquals(a.first() + a.last() + a.street1() + a.data(), b.first() + b.last() + b.street1() + b.data());
        assertEquals(db.stock.single().get(TpccKeys.stock(1, 777)).single().get().dist05(),
                two.stock.single().get(TpccKeys.stock(1, 777)).single().get().dist05());
        assertEquals(db.orderLine.single().size() - 0L, countLines(two, 1));
        assertNotNull(two.stock.single().get(TpccKeys.stock(2, 100_000)));
    }

    private static long countLines(TpccDatabase d, int w) {
        long[] n = {0};
        d.orderLine.single().scan(TpccKeys.orderLine(w, 1, 1, 1), true, TpccKeys.orderLine(w, 10, TpccKeys.MAX_ORDER_ID, 15),
                true, Integer.MAX_VALUE, false, (k, v) -> {
                    n[0]++;
                    return true;
                });
        return n[0];
    }
}
