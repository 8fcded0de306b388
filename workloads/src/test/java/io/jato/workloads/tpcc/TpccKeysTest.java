package io.jato.workloads.tpcc;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Key packing: round trips, ordering as tuples, prefixes, and range checks. */
class TpccKeysTest {
    @Test
    void orderLineKeysRoundTrip() {
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 10_000; i++) {
            int w = 1 + r.nextInt(TpccKeys.MAX_WAREHOUSES);
            int d = 1 + r.nextInt(10);
            long o = 1 + r.nextLong(TpccKeys.MAX_ORDER_ID);
            int ol = 1 + r.nextInt(15);
            long key = TpccKeys.orderLine(w, d, o, ol);
            assertTrue(key > 0);
            assertEquals(w, TpccKeys.warehouseOf(key, TpccKeys.ORDER_LINE_SUFFIX_BITS));
            assertEquals(d, TpccKeys.districtOf(key, TpccKeys.ORDER_LINE_SUFFIX_BITS));
            assertEquals(o, TpccKeys.orderIdOfOrderLine(key));
            assertEquals(ol, TpccKeys.numberOfOrderLine(key));
            long order = TpccKeys.order(w, d, o);
            assertEquals(o, TpccKeys.orderIdOfOrder(order));
            assertEquals(w, TpccKeys.warehouseOf(order, TpccKeys.ORDER_SUFFIX_BITS));
            assertEquals(d, TpccKeys.districtOf(order, TpccKeys.ORDER_SUFFIX_BITS));
        }
    }

    @Test
    void customerAndStockKeysRoundTrip() {
        long c = TpccKeys.customer(4095, 15, 3000);
        assertEquals(3000, TpccKeys.customerIdOfCustomer(c));
        long byCustomer = TpccKeys.orderByCustomer(4095, 15, 3000, TpccKeys.MAX_ORDER_ID);
        assertTrue(byCustomer > 0);
        assertEquals(3000, TpccKeys.customerIdOfByCustomer(byCustomer));
        assertEquals(TpccKeys.MAX_ORDER_ID, TpccKeys.orderIdOfByCustomer(byCustomer));
        assertEquals(4095, TpccKeys.warehouseOf(byCustomer, TpccKeys.BY_CUSTOMER_SUFFIX_BITS));
        assertEquals(15, TpccKeys.districtOf(byCustomer, TpccKeys.BY_CUSTOMER_SUFFIX_BITS));
        long s = TpccKeys.stock(7, 100_000);
        assertEquals(7, TpccKeys.warehouseOfStock(s));
        assertEquals(100_000, TpccKeys.itemOfStock(s));
    }

    @Test
    void keysOrderAsTheirTuples() {
        long[] ordered = {
            TpccKeys.orderLine(1, 1, 1, 1), TpccKeys.orderLine(1, 1, 1, 15), TpccKeys.orderLine(1, 1, 2, 1),
            TpccKeys.orderLine(1, 1, TpccKeys.MAX_ORDER_ID, 15), TpccKeys.orderLine(1, 2, 1, 1),
            TpccKeys.orderLine(1, 10, 3000, 1), TpccKeys.orderLine(2, 1, 1, 1),
            TpccKeys.orderLine(TpccKeys.MAX_WAREHOUSES, 15, TpccKeys.MAX_ORDER_ID, 15),
        };
        for (int i = 1; i < ordered.length; i++) {
            assertTrue(ordered[i - 1] < ordered[i], "key " + (i - 1) + " < key " + i);
        }
        assertTrue(TpccKeys.orderByCustomer(1, 1, 5, TpccKeys.MAX_ORDER_ID) < TpccKeys.orderByCustomer(1, 1, 6, 1));
        assertTrue(TpccKeys.firstOrderOf(1, 3) < TpccKeys.order(1, 3, 1));
        assertTrue(TpccKeys.lastOrderOf(1, 3) < TpccKeys.order(1, 4, 1));
    }

    @Test
    void aDistrictIsOnePrefixOfEveryOrderedMap() {
        long district = TpccKeys.district(9, 3);
        assertEquals(district, TpccKeys.order(9, 3, 1) >> TpccKeys.ORDER_SUFFIX_BITS);
        assertEquals(district, TpccKeys.order(9, 3, TpccKeys.MAX_ORDER_ID) >> TpccKeys.ORDER_SUFFIX_BITS);
        assertEquals(district, TpccKeys.orderLine(9, 3, 77, 15) >> TpccKeys.ORDER_LINE_SUFFIX_BITS);
        assertEquals(district, TpccKeys.orderByCustomer(9, 3, 3000, 77) >> TpccKeys.BY_CUSTOMER_SUFFIX_BITS);
    }

    @Test
    void outOfRangeIdsThrow() {
        assertThrows(IllegalArgumentException.class, () -> TpccKeys.warehouse(0));
        assertThrows(IllegalArgumentException.class, () -> TpccKeys.warehouse(TpccKeys.MAX_WAREHOUSES + 1));
        assertThrows(IllegalArgumentException.class, () -> TpccKeys.district(1, 16));
        assertThrows(IllegalArgumentException.class, () -> TpccKeys.customer(1, 1, 4096));
        assertThrows(IllegalArgumentException.class, () -> TpccKeys.order(1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> TpccKeys.orderLine(1, 1, 1, 16));
        assertThrows(IllegalArgumentException.class, () -> TpccKeys.stock(1, TpccKeys.MAX_ITEMS + 1));
        assertThrows(IllegalArgumentException.class, () -> TpccKeys.lastName(1, 1, 1000));
        assertThrows(IllegalArgumentException.class, () -> TpccKeys.history(0, -1));
    }
}
