package io.jato.workloads.tpcc;

import io.jato.records.RecordLayout;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each transaction on one loaded warehouse, in every mode, against its effects; the consistency
 * conditions afterwards. Two shared databases (one per record layout) serve all modes: every test
 * checks changes relative to what it read first.
 */
class TpccTransactionsTest {
    private static final long NOW = 1_700_000_000_000L;
    private static TpccDatabase coarse;
    private static TpccDatabase split;
    private static int worker;

    @BeforeAll
    static void load() {
        coarse = new TpccDatabase(Stm.create(), 1, RecordLayout.COARSE, 7);
        coarse.load(new ThreadsLoader(2), NOW);
        split = new TpccDatabase(Stm.create(), 1, RecordLayout.SPLIT, 7);
        split.load(new ThreadsLoader(2), NOW);
    }

    private static TpccDatabase db(TpccMode mode) {
        return mode.layout() == RecordLayout.SPLIT ? split : coarse;
    }

    /** A fresh worker number per instance, so that HISTORY keys never repeat across tests. */
    private static TpccTransactions transactions(TpccMode mode, long seed) {
        return new TpccTransactions(db(mode), mode, worker++, 1, seed);
    }

    private static void assertConsistent(TpccDatabase db) {
        assertEquals(List.of(), TpccConsistency.check(db));
        assertNull(db.checkQuiescent());
    }

    @ParameterizedTest
    @EnumSource(TpccMode.class)
    void newOrderInsertsTheOrderAndItsLinesAndUpdatesStock(TpccMode mode) {
        TpccDatabase db = db(mode);
        TpccTransactions tx = transactions(mode, 11);
        for (int round = 0; round < 3; round++) {
            tx.drawNewOrder();
            for (int i = 0; i < tx.noLines; i++) {
                if (tx.noItem[i] == TpccTransactions.UNUSED_ITEM) {
                    tx.noItem[i] = 1;
                }
            }
            int d = tx.noDistrict;
            District district = db.district.single().get(TpccKeys.district(1, d));
            int next = district.single().get().nextOrderId();
            Map<Integer, Stock.Image> expected = new HashMap<>();
            for (int i = 0; i < tx.noLines; i++) {
                int item = tx.noItem[i];
                Stock.Image s = expected.computeIfAbsent(item,
                        k -> db.stock.single().get(TpccKeys.stock(1, k)).single().get());
                s.setQuantity(TpccUpdaters.stockQuantityAfter(s.quantity(), tx.noQuantity[i]))
                        .setYtd(s.ytd() + tx.noQuantity[i])
                        .setOrderCount(s.orderCount() + 1);
            }

            assertTrue(tx.executeNewOrder());

            assertEquals(next, tx.noOrderId);
            assertEquals(next + 1, district.single().get().nextOrderId());
            long key = TpccKeys.order(1, d, next);
            Order order = db.order.single().get(key);
            assertNotNull(order);
            assertSame(order, db.newOrder.single().get(key));
            assertSame(order, db.orderByCustomer.single().get(TpccKeys.orderByCustomer(1, d, tx.noCustomer, next)));
            Order.Image oi = order.single().get();
            assertEquals(tx.noLines, oi.orderLineCount());
            assertEquals(tx.noCustomer, oi.customerId());
            assertEquals(0, oi.carrierId());
            assertTrue(oi.allLocal());
            long sum = 0;
            for (int ol = 1; ol <= TpccTransactions.MAX_LINES; ol++) {
                OrderLine line = db.orderLine.single().get(TpccKeys.orderLine(1, d, next, ol));
                if (ol > tx.noLines) {
                    assertNull(line);
                    continue;
                }
                OrderLine.Image li = line.single().get();
                assertEquals(tx.noItem[ol - 1], li.itemId());
                assertEquals(tx.noQuantity[ol - 1], li.quantity());
                assertEquals(0, li.deliveryDate());
                long price = db.item.single().get(TpccKeys.item(li.itemId())).single().get().price();
                assertEquals(price * li.quantity(), li.amount());
                sum += li.amount();
            }
            assertTrue(tx.noTotal > 0 && tx.noTotal <= sum * 12 / 10, "total " + tx.noTotal + " of " + sum);
            for (Map.Entry<Integer, Stock.Image> e : expected.entrySet()) {
                Stock.Image s = db.stock.single().get(TpccKeys.stock(1, e.getKey())).single().get();
                assertEquals(e.getValue().quantity(), s.quantity(), "S_QUANTITY of item " + e.getKey());
                assertEquals(e.getValue().ytd(), s.ytd());
                assertEquals(e.getValue().orderCount(), s.orderCount());
                assertEquals(0, s.remoteCount());
            }
        }
        assertConsistent(db);
    }

    @ParameterizedTest
    @EnumSource(TpccMode.class)
    void aNewOrderWithAnUnusedItemRollsBackEverything(TpccMode mode) {
        TpccDatabase db = db(mode);
        TpccTransactions tx = transactions(mode, 12);
        tx.drawNewOrder();
        tx.noItem[tx.noLines - 1] = TpccTransactions.UNUSED_ITEM;
        District district = db.district.single().get(TpccKeys.district(1, tx.noDistrict));
        int next = district.single().get().nextOrderId();
        int orders = db.order.single().size();
        int newOrders = db.newOrder.single().size();
        int lines = db.orderLine.single().size();
        int byCustomer = db.orderByCustomer.single().size();
        Stock stock = db.stock.single().get(TpccKeys.stock(1, tx.noItem[0]));
        int quantity = stock.single().get().quantity();
        long ytd = stock.single().get().ytd();
        long userAborts = db.stm().statistics().aborts(AbortCause.USER_ABORT);

        assertFalse(tx.executeNewOrder());

        assertEquals(userAborts + 1, db.stm().statistics().aborts(AbortCause.USER_ABORT));
        assertEquals(next, district.single().get().nextOrderId());
        assertEquals(orders, db.order.single().size());
        assertEquals(newOrders, db.newOrder.single().size());
        assertEquals(lines, db.orderLine.single().size());
        assertEquals(byCustomer, db.orderByCustomer.single().size());
        assertNull(db.order.single().get(TpccKeys.order(1, tx.noDistrict, next)));
        assertEquals(quantity, stock.single().get().quantity());
        assertEquals(ytd, stock.single().get().ytd());
        assertConsistent(db);
    }

    @ParameterizedTest
    @EnumSource(TpccMode.class)
    void paymentMovesMoneyAndWritesHistory(TpccMode mode) {
        TpccDatabase db = db(mode);
        TpccTransactions tx = transactions(mode, 13);
        Warehouse warehouse = db.warehouse.single().get(TpccKeys.warehouse(1));
        boolean byName = false;
        boolean byId = false;
        for (int round = 0; round < 20 && !(byName && byId); round++) {
            tx.drawPayment();
            int d = tx.payDistrict;
            assertEquals(1, tx.payCustomerWarehouse);
            assertEquals(d, tx.payCustomerDistrict);
            int c = tx.payCustomer;
            if (c == 0) {
                int[] ids = db.customersByLastName.single().get(TpccKeys.lastName(1, d, tx.payLastName));
                c = ids[(ids.length - 1) / 2];
                byName = true;
            } else {
                byId = true;
            }
            District district = db.district.single().get(TpccKeys.district(1, d));
            Customer customer = db.customer.single().get(TpccKeys.customer(1, d, c));
            long wYtd = warehouse.single().get().ytd();
            long dYtd = district.single().get().ytd();
            Customer.Image before = customer.single().get();
            long history = tx.historyRows();

            tx.executePayment();

            long amount = tx.payAmount;
            assertTrue(amount >= 100 && amount <= 500_000);
            assertEquals(c, tx.payCustomerId);
            assertEquals(wYtd + amount, warehouse.single().get().ytd());
            assertEquals(dYtd + amount, district.single().get().ytd());
            Customer.Image after = customer.single().get();
            assertEquals(before.balance() - amount, after.balance());
            assertEquals(before.ytdPayment() + amount, after.ytdPayment());
            assertEquals(before.paymentCount() + 1, after.paymentCount());
            assertEquals(before.deliveryCount(), after.deliveryCount());
            if (before.credit().equals("BC")) {
                assertTrue(after.data().startsWith(c + " " + d + " 1 " + d + " 1 " + amount + " "), after.data());
                assertTrue(after.data().length() <= 500);
            } else {
                assertEquals(before.data(), after.data());
            }
            assertEquals(history + 1, tx.historyRows());
            History.Image h = db.history.single().get(TpccKeys.history(worker, history)).single().get();
            assertEquals(amount, h.amount());
            assertEquals(c, h.customerId());
            assertEquals(d, h.districtId());
        }
        assertTrue(byName && byId, "payments by name and by id");
        assertConsistent(db);
    }

    @ParameterizedTest
    @EnumSource(TpccMode.class)
    void deliveryDeliversTheOldestNewOrderOfEachDistrict(TpccMode mode) {
        TpccDatabase db = db(mode);
        TpccTransactions tx = transactions(mode, 14);
        tx.drawDelivery();
        long[] oldest = new long[11];
        long[] sums = new long[11];
        Customer.Image[] before = new Customer.Image[11];
        for (int d = 1; d <= 10; d++) {
            long[] first = {-1};
            db.newOrder.single().scan(TpccKeys.firstOrderOf(1, d), true, TpccKeys.lastOrderOf(1, d), true, 1, false,
                    (k, o) -> {
                        first[0] = k;
                        return false;
                    });
            assertTrue(first[0] >= 0);
            oldest[d] = first[0];
            Order.Image oi = db.order.single().get(first[0]).single().get();
            long o = TpccKeys.orderIdOfOrder(first[0]);
            for (int ol = 1; ol <= oi.orderLineCount(); ol++) {
                sums[d] += db.orderLine.single().get(TpccKeys.orderLine(1, d, o, ol)).single().get().amount();
            }
            before[d] = db.customer.single().get(TpccKeys.customer(1, d, oi.customerId())).single().get();
        }

        tx.executeDelivery();

        assertEquals(10, tx.deliveredDistricts);
        for (int d = 1; d <= 10; d++) {
            assertNull(db.newOrder.single().get(oldest[d]));
            Order.Image oi = db.order.single().get(oldest[d]).single().get();
            assertEquals(tx.deliveryCarrier, oi.carrierId());
            long o = TpccKeys.orderIdOfOrder(oldest[d]);
            for (int ol = 1; ol <= oi.orderLineCount(); ol++) {
                assertEquals(tx.deliveryDate,
                        db.orderLine.single().get(TpccKeys.orderLine(1, d, o, ol)).single().get().deliveryDate());
            }
            Customer.Image after = db.customer.single().get(TpccKeys.customer(1, d, oi.customerId())).single().get();
            assertEquals(before[d].balance() + sums[d], after.balance());
            assertEquals(before[d].deliveryCount() + 1, after.deliveryCount());
            assertEquals(before[d].ytdPayment(), after.ytdPayment());
        }
        assertConsistent(db);
    }

    @ParameterizedTest
    @EnumSource(TpccMode.class)
    void orderStatusAndStockLevelReadPlausibleValues(TpccMode mode) {
        TpccDatabase db = db(mode);
        TpccTransactions tx = transactions(mode, 15);
        long commits = db.stm().statistics().commits();
        for (int i = 0; i < 20; i++) {
            tx.drawOrderStatus();
            tx.executeOrderStatus();
            assertTrue(tx.osOrderId >= 1, "every customer has an order");
            assertTrue(tx.osLineCount >= 5 && tx.osLineCount <= 15, "lines " + tx.osLineCount);
            Order.Image oi = db.order.single().get(TpccKeys.order(1, tx.osDistrict, tx.osOrderId)).single().get();
            assertEquals(oi.orderLineCount(), tx.osLineCount);
            if (tx.osCustomer != 0) {
                assertEquals(tx.osCustomer, oi.customerId());
            }
            tx.drawStockLevel();
            tx.executeStockLevel();
            assertTrue(tx.slThreshold >= 10 && tx.slThreshold <= 20);
            assertTrue(tx.slLowStock >= 0 && tx.slLowStock <= 20 * 15, "low stock " + tx.slLowStock);
            // Exactly: each low-stock item counted once, the set forgetting the previous attempt's.
            assertEquals(lowStockItems(db, tx.slDistrict, tx.slThreshold), tx.slLowStock,
                    "district " + tx.slDistrict + ", threshold " + tx.slThreshold);
        }
        assertEquals(commits + 40, db.stm().statistics().commits());
        assertConsistent(db);
    }

    /** Clause 2.8.2.2 counted with plain reads: distinct items of the district's last 20 orders under the threshold. */
    private static int lowStockItems(TpccDatabase db, int d, int threshold) {
        long next = 1;
        while (db.order.single().get(TpccKeys.order(1, d, next)) != null) {
            next++;
        }
        Set<Integer> items = new HashSet<>();
        for (long o = Math.max(1, next - TpccTransactions.STOCK_LEVEL_ORDERS); o < next; o++) {
            for (int l = 1; l <= TpccTransactions.MAX_LINES; l++) {
                OrderLine line = db.orderLine.single().get(TpccKeys.orderLine(1, d, o, l));
                if (line == null) {
                    break;
                }
                items.add(line.single().get().itemId());
            }
        }
        int low = 0;
        for (int item : items) {
            if (db.stock.single().get(TpccKeys.stock(1, item)).single().get().quantity() < threshold) {
                low++;
            }
        }
        return low;
    }
}
