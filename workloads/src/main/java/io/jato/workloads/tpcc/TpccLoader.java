package io.jato.workloads.tpcc;

import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import io.jato.workloads.Workload;

import java.util.Arrays;
import java.util.Comparator;

/*
 * Loading (clause 4.3.3.1). Three passes over the loader's threads: ITEM (100,000 rows), STOCK
 * (100,000 per warehouse) and then one unit per district, which writes the district, its 3,000
 * customers with their HISTORY rows and the last-name index, its 3,000 orders with their lines and
 * the 900 NEW-ORDER rows; the unit of district 1 also writes the warehouse. Each row (ITEM, STOCK)
 * or district unit draws from its own SplittableRandom seeded from (seed, table, key), so the data
 * is the same whatever the number of threads and chunking. Rows go in through single(), which is
 * linearizable and safe from many threads; each unit inserts its sorted-map keys in ascending
 * order, which keeps the maps' leaves full.
 */

/** Generates and inserts the initial TPC-C population into a {@link TpccDatabase}. */
final class TpccLoader {
    private static final int TABLE_ITEM = 1;
    private static final int TABLE_STOCK = 2;
    private static final int TABLE_DISTRICT = 3;

    private static final long WAREHOUSE_YTD = 30_000_000L;   // 300,000.00
    private static final long DISTRICT_YTD = 3_000_000L;     // 30,000.00
    private static final long CREDIT_LIMIT = 5_000_000L;     // 50,000.00
    private static final long INITIAL_BALANCE = -1_000L;     // -10.00
    private static final long INITIAL_PAYMENT = 1_000L;      // 10.00

    private final TpccDatabase db;
    private final Stm itemStm;
    private final Stm stockStm;
    private final Stm warehouseStm;
    private final Stm districtStm;
    private final Stm customerStm;
    private final Stm historyStm;
    private final Stm orderStm;
    private final Stm orderLineStm;
    private final RecordLayout layout;
    private final long now;

    TpccLoader(TpccDatabase db, long now) {
        this.db = db;
        this.itemStm = db.itemStm;
        this.stockStm = db.stockStm;
        this.warehouseStm = db.warehouseStm;
        this.districtStm = db.districtStm;
        this.customerStm = db.customerStm;
        this.historyStm = db.historyStm;
        this.orderStm = db.orderStm;
        this.orderLineStm = db.orderLineStm;
        this.layout = db.layout();
        this.now = now;
    }

    void load(Workload.Loader loader) {
        int w = db.warehouses();
        loader.parallelFor("items", TpccDatabase.ITEMS, (from, to) -> {
            for (int i = from; i < to; i++) {
                loadItem(i + 1);
            }
        });
        loader.parallelFor("stock rows", w * TpccDatabase.ITEMS, (from, to) -> {
            for (int k = from; k < to; k++) {
                loadStock(k / TpccDatabase.ITEMS + 1, k % TpccDatabase.ITEMS + 1);
            }
        });
        loader.parallelFor("districts", w * TpccDatabase.DISTRICTS_PER_WAREHOUSE, (from, to) -> {
            for (int k = from; k < to; k++) {
                loadDistrict(k / TpccDatabase.DISTRICTS_PER_WAREHOUSE + 1, k % TpccDatabase.DISTRICTS_PER_WAREHOUSE + 1);
            }
        });
    }

    /** @return a seed for one row or unit of {@code table}, decorrelated from its neighbours (SplitMix64 finaliser) */
    static long mix(long seed, int table, long key) {
        long z = seed + ((long) table << 48 ^ key) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private void loadItem(int i) {
        TpccRandom r = new TpccRandom(mix(db.seed(), TABLE_ITEM, i));
        Item.Image im = new Item.Image()
                .setImageId(r.uniform(1, 10_000))
                .setName(r.aString(14, 24))
                .setPrice(r.uniform(100, 10_000))
                .setData(r.data());
        db.item.single().put(TpccKeys.item(i), Item.create(itemStm, layout, im));
    }

    private void loadStock(int w, int i) {
        long key = TpccKeys.stock(w, i);
        TpccRandom r = new TpccRandom(mix(db.seed(), TABLE_STOCK, key));
        Stock.Image im = new Stock.Image()
                .setQuantity(r.uniform(10, 100))
                .setDist01(r.aString(24, 24))
                .setDist02(r.aString(24, 24))
                .setDist03(r.aString(24, 24))
                .setDist04(r.aString(24, 24))
                .setDist05(r.aString(24, 24))
                .setDist06(r.aString(24, 24))
                .setDist07(r.aString(24, 24))
                .setDist08(r.aString(24, 24))
                .setDist09(r.aString(24, 24))
                .setDist10(r.aString(24, 24))
                .setYtd(0)
                .setOrderCount(0)
                .setRemoteCount(0)
                .setData(r.data());
        db.stock.single().put(key, Stock.create(stockStm, layout, im));
    }

    private void loadWarehouse(TpccRandom r, int w) {
        Address a = Address.draw(r);
        Warehouse.Image im = new Warehouse.Image()
                .setName(r.aString(6, 10))
                .setStreet1(a.street1())
                .setStreet2(a.street2())
                .setCity(a.city())
                .setState(a.state())
                .setZip(a.zip())
                .setTax(r.uniform(0, 2000))
                .setYtd(WAREHOUSE_YTD);
        db.warehouse.single().put(TpccKeys.warehouse(w), Warehouse.create(warehouseStm, layout, im));
    }

    private void loadDistrict(int w, int d) {
        TpccRandom r = new TpccRandom(mix(db.seed(), TABLE_DISTRICT, TpccKeys.district(w, d)));
        if (d == 1) {
            loadWarehouse(r, w);
        }
        Address a = Address.draw(r);
        District.Image im = new District.Image()
                .setName(r.aString(6, 10))
                .setStreet1(a.street1())
                .setStreet2(a.street2())
                .setCity(a.city())
                .setState(a.state())
                .setZip(a.zip())
                .setTax(r.uniform(0, 2000))
                .setYtd(DISTRICT_YTD)
                .setNextOrderId(TpccDatabase.ORDERS_PER_DISTRICT + 1);
        db.district.single().put(TpccKeys.district(w, d), District.create(districtStm, layout, im));
        loadCustomers(r, w, d);
        loadOrders(r, w, d);
    }

    private void loadCustomers(TpccRandom r, int w, int d) {
        int n = TpccDatabase.CUSTOMERS_PER_DISTRICT;
        String[] firsts = new String[n + 1];
        int[] lastNumbers = new int[n + 1];
        TpccRandom.Constants k = db.loadConstants();
        for (int c = 1; c <= n; c++) {
            int last = c <= 1000 ? c - 1 : r.lastNameNumber(k);
            String first = r.aString(8, 16);
            Address a = Address.draw(r);
            firsts[c] = first;
            lastNumbers[c] = last;
            Customer.Image im = new Customer.Image()
                    .setFirst(first)
                    .setMiddle("OE")
                    .setLast(TpccRandom.lastName(last))
                    .setStreet1(a.street1())
                    .setStreet2(a.street2())
                    .setCity(a.city())
                    .setState(a.state())
                    .setZip(a.zip())
                    .setPhone(r.nString(16, 16))
                    .setSince(now)
                    .setCredit(r.percent(10) ? "BC" : "GC")
                    .setCreditLimit(CREDIT_LIMIT)
                    .setDiscount(r.uniform(0, 5000))
                    .setBalance(INITIAL_BALANCE)
                    .setYtdPayment(INITIAL_PAYMENT)
                    .setPaymentCount(1)
                    .setDeliveryCount(0)
                    .setData(r.aString(300, 500));
            long key = TpccKeys.customer(w, d, c);
            db.customer.single().put(key, Customer.create(customerStm, layout, im));
            History.Image h = new History.Image()
                    .setCustomerId(c)
                    .setCustomerDistrictId(d)
                    .setCustomerWarehouseId(w)
                    .setDistrictId(d)
                    .setWarehouseId(w)
                    .setDate(now)
                    .setAmount(INITIAL_PAYMENT)
                    .setData(r.aString(12, 24));
            db.history.single().put(TpccKeys.history(0, key), History.create(historyStm, layout, h));
        }
        indexLastNames(w, d, firsts, lastNumbers);
    }

    /** Builds the (w, d, last name) index: per name, the customer ids sorted by first name, then id. */
    void indexLastNames(int w, int d, String[] firsts, int[] lastNumbers) {
        int[] counts = new int[1000];
        for (int c = 1; c < lastNumbers.length; c++) {
            counts[lastNumbers[c]]++;
        }
        Integer[][] ids = new Integer[1000][];
        for (int n = 0; n < ids.length; n++) {
            ids[n] = new Integer[counts[n]];
            counts[n] = 0;
        }
        for (int c = 1; c < lastNumbers.length; c++) {
            int n = lastNumbers[c];
            ids[n][counts[n]++] = c;
        }
        Comparator<Integer> byFirstName = Comparator.<Integer, String>comparing(c -> firsts[c]).thenComparingInt(c -> c);
        for (int n = 0; n < ids.length; n++) {
            if (ids[n].length == 0) {
                continue;
            }
            Arrays.sort(ids[n], byFirstName);
            int[] sorted = new int[ids[n].length];
            for (int i = 0; i < sorted.length; i++) {
                sorted[i] = ids[n][i];
            }
            db.customersByLastName.single().put(TpccKeys.lastName(w, d, n), sorted);
        }
    }

    private void loadOrders(TpccRandom r, int w, int d) {
        int[] customers = new int[TpccDatabase.ORDERS_PER_DISTRICT];
        r.permutation(customers);
        for (int o = 1; o <= TpccDatabase.ORDERS_PER_DISTRICT; o++) {
            boolean delivered = o < TpccDatabase.FIRST_UNDELIVERED_ORDER;
            int lines = r.uniform(5, 15);
            int c = customers[o - 1];
            Order.Image oi = new Order.Image()
                    .setCustomerId(c)
                    .setEntryDate(now)
                    .setCarrierId(delivered ? r.uniform(1, 10) : 0)
                    .setOrderLineCount(lines)
                    .setAllLocal(true);
            Order order = Order.create(orderStm, layout, oi);
            long key = TpccKeys.order(w, d, o);
            db.order.single().put(key, order);
            db.orderByCustomer.single().put(TpccKeys.orderByCustomer(w, d, c, o), order);
            if (!delivered) {
                db.newOrder.single().put(key, order);
            }
            for (int ol = 1; ol <= lines; ol++) {
                OrderLine.Image li = new OrderLine.Image()
                        .setItemId(r.uniform(1, TpccDatabase.ITEMS))
                        .setSupplyWarehouseId(w)
                        .setDeliveryDate(delivered ? now : 0)
                        .setQuantity(5)
                        .setAmount(delivered ? 0 : r.uniform(1, 999_999))
                        .setDistInfo(r.aString(24, 24));
                db.orderLine.single().put(TpccKeys.orderLine(w, d, o, ol), OrderLine.create(orderLineStm, layout, li));
            }
        }
    }

    /** A street address of WAREHOUSE, DISTRICT or CUSTOMER (clause 4.3.3.1). */
    private record Address(String street1, String street2, String city, String state, String zip) {
        static Address draw(TpccRandom r) {
            return new Address(r.aString(10, 20), r.aString(10, 20), r.aString(10, 20), r.state(), r.zip());
        }
    }
}
