package io.jato.workloads.tpcc;

import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.durable.DurableLongMap;
import io.jato.records.AbstractRecord;
import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.workloads.Workload;

import java.util.Objects;
import java.util.SplittableRandom;

/*
 * Tables and indexes. Keys are packed longs (TpccKeys). Tables that are only reached by key are
 * TxLongHashMaps from the key to a record (no boxing; the map's own index holds the key in the
 * node, which halves the cache misses of a lookup against a ConcurrentHashMap of boxed keys): WAREHOUSE, DISTRICT, CUSTOMER, ITEM, STOCK and the
 * insert-only HISTORY (its key names who wrote the row: see TpccKeys.history). Tables that
 * transactions scan or navigate are TxLongSortedMaps with the district as the prefix of the
 * contention-aware layout, so a scan confined to one district never conflicts with inserts or
 * deletes in another:
 *   NEW-ORDER          (w, d, o) -> the ORDER record; presence is the row (NEW-ORDER has no payload)
 *   ORDER              (w, d, o) -> Order
 *   ORDER-by-customer  (w, d, c, o) -> the same Order; order-status finds the customer's latest
 *                      order with one floorKey(orderByCustomer(w, d, c, MAX_ORDER_ID))
 *   ORDER-LINE         (w, d, o, ol) -> OrderLine; an order's lines are one short range
 *
 * The customer-by-last-name index maps (w, d, last-name number) to the ids of the customers with
 * that last name, sorted by C_FIRST (then id), in an int[] that is never modified. Payment and
 * order-status by last name need exactly this list: all matching customers in first-name order,
 * then the one at position ceil(n / 2). One hash lookup returns it, with no range scan, no
 * per-customer read and no phantom tracking; last names never change and customers are never
 * inserted, so the index is never written after loading and costs its readers no conflicts.
 * Lookups go by the name's number (NURand(255, 0, 999)), not the string: the number determines the
 * name (TpccRandom.lastName).
 *
 * With --table-protocols (TpccTables), a table's maps and rows are created on the store's view
 * for that table's protocol (stm.withProtocol); transactions still run on the store itself and
 * span tables of different protocols.
 *
 * Records are created with one version per group (RecordLayout.SPLIT, the TS mode) or one version
 * per row (RecordLayout.COARSE, the base mode); the transaction code is the same for both.
 */

/** The nine TPC-C tables and their indexes in one store, loaded per clause 4.3. */
public final class TpccDatabase {
    static final int DISTRICTS_PER_WAREHOUSE = 10;
    static final int CUSTOMERS_PER_DISTRICT = 3000;
    static final int ORDERS_PER_DISTRICT = 3000;
    /** Orders with ids from here on are undelivered after loading and have NEW-ORDER rows. */
    static final int FIRST_UNDELIVERED_ORDER = 2101;
    static final int ITEMS = 100_000;

    private final Stm stm;
    private final int warehouses;
    private final RecordLayout layout;
    private final long seed;
    private final TpccRandom.Constants loadConstants;
    private final TpccRandom.Constants runConstants;

    /** Which protocol each table is bound to, when not the store's default. */
    private final TpccTables tables;
    /*
     * The store object each table's maps and rows are created with: the store itself for a table on
     * its default protocol, else stm.withProtocol(p). Fields, so that the loader and the
     * transactions that insert rows need no lookup per row.
     */
    final Stm warehouseStm;
    final Stm districtStm;
    final Stm customerStm;
    final Stm historyStm;
    final Stm itemStm;
    final Stm stockStm;
    /** ORDER's records (shared by NEW-ORDER and ORDER-by-customer) and the ORDER and ORDER-by-customer maps. */
    final Stm orderStm;
    /** The NEW-ORDER map's own nodes; its values are ORDER's records. */
    final Stm newOrderStm;
    final Stm orderLineStm;

    final TxLongHashMap<Warehouse> warehouse;
    final TxLongHashMap<District> district;
    final TxLongHashMap<Customer> customer;
    final TxLongHashMap<History> history;
    final TxLongHashMap<Item> item;
    final TxLongHashMap<Stock> stock;
    /** (w, d, last-name number) to customer ids sorted by first name; never written after loading. */
    final TxLongHashMap<int[]> customersByLastName;
    final TxLongSortedMap<Order> newOrder;
    final TxLongSortedMap<Order> order;
    final TxLongSortedMap<Order> orderByCustomer;
    final TxLongSortedMap<OrderLine> orderLine;
    /** Where new-order takes O_ID from, and the ids the fast policy left unused. */
    final TpccOrderIds orderIds;
    /*
     * A durable run (--durable, TpccDurability): the write sides of the ORDER, ORDER-LINE and
     * HISTORY maps, through which their inserts are logged; null otherwise. The other tables are
     * only updated in place, which their rows log themselves. Set before any worker starts.
     */
    DurableLongMap<Order> orderLog;
    DurableLongMap<OrderLine> orderLineLog;
    DurableLongMap<History> historyLog;
    /** Per HISTORY source (terminal + 1): the first sequence number above the recovered rows; empty if none. */
    long[] historyStarts = new long[0];

    /**
     * An empty database for {@code warehouses} warehouses; {@link #load} fills it.
     *
     * @param layout {@link RecordLayout#SPLIT} for the field groups of the TS mode,
     *               {@link RecordLayout#COARSE} for one version per row
     * @param seed   seeds every random choice of the load and the NURand constants
     */
    public TpccDatabase(Stm stm, int warehouses, RecordLayout layout, long seed) {
        this(stm, warehouses, layout, seed, TpccOrderIds.Policy.STRICT);
    }

    /**
     * As {@link #TpccDatabase(Stm, int, RecordLayout, long)}, with new-order taking its O_ID as
     * {@code orderIds} says ({@link TpccOrderIds}).
     */
    TpccDatabase(Stm stm, int warehouses, RecordLayout layout, long seed, TpccOrderIds.Policy orderIds) {
        this(stm, warehouses, layout, seed, orderIds, TpccTables.DEFAULT);
    }

    /**
     * As {@link #TpccDatabase(Stm, int, RecordLayout, long, TpccOrderIds.Policy)}, with each table's
     * maps and rows bound to the protocol {@code tables} names for it (the store's default for the
     * others).
     *
     * @throws IllegalArgumentException if {@code stm} was not built with one of those protocols
     */
    TpccDatabase(Stm stm, int warehouses, RecordLayout layout, long seed, TpccOrderIds.Policy orderIds,
                 TpccTables tables) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.tables = Objects.requireNonNull(tables, "tables");
        Stm[] stores = tables.stores(stm);
        warehouseStm = stores[TpccTables.Table.WAREHOUSE.ordinal()];
        districtStm = stores[TpccTables.Table.DISTRICT.ordinal()];
        customerStm = stores[TpccTables.Table.CUSTOMER.ordinal()];
        historyStm = stores[TpccTables.Table.HISTORY.ordinal()];
        itemStm = stores[TpccTables.Table.ITEM.ordinal()];
        stockStm = stores[TpccTables.Table.STOCK.ordinal()];
        orderStm = stores[TpccTables.Table.ORDER.ordinal()];
        newOrderStm = stores[TpccTables.Table.NEW_ORDER.ordinal()];
        orderLineStm = stores[TpccTables.Table.ORDER_LINE.ordinal()];
        this.layout = Objects.requireNonNull(layout, "layout");
        if (warehouses < 1 || warehouses > TpccKeys.MAX_WAREHOUSES) {
            throw new IllegalArgumentException("warehouses must be in [1, " + TpccKeys.MAX_WAREHOUSES + "], got "
                    + warehouses);
        }
        this.warehouses = warehouses;
        this.seed = seed;
        SplittableRandom constants = new SplittableRandom(TpccLoader.mix(seed, -1, 0));
        this.loadConstants = TpccRandom.Constants.forLoad(constants);
        this.runConstants = TpccRandom.Constants.forRun(loadConstants, constants);
        int districts = warehouses * DISTRICTS_PER_WAREHOUSE;
        // The hash-indexed tables are insert-only: rows are records changed in place, never
        // replaced or deleted (HISTORY only grows), so under OCC a lookup costs no entry.
        warehouse = TxLongHashMap.insertOnly(warehouseStm, warehouses);
        district = TxLongHashMap.insertOnly(districtStm, districts);
        customer = TxLongHashMap.insertOnly(customerStm, districts * CUSTOMERS_PER_DISTRICT);
        history = TxLongHashMap.insertOnly(historyStm, districts * CUSTOMERS_PER_DISTRICT);
        item = TxLongHashMap.insertOnly(itemStm, ITEMS);
        stock = TxLongHashMap.insertOnly(stockStm, warehouses * ITEMS);
        customersByLastName = TxLongHashMap.insertOnly(customerStm, districts * 1000);
        // NEW-ORDER loses its rows to delivery; ORDER, its by-customer index and ORDER-LINE only
        // grow, so they are insert-only too: delivery's and order-status' reads of their present
        // keys and stock-level's scan of ~200 order lines take entries only for the leaves.
        newOrder = TxLongSortedMap.<Order>builder(newOrderStm).prefixLayout(TpccKeys.ORDER_SUFFIX_BITS).build();
        order = TxLongSortedMap.<Order>builder(orderStm).prefixLayout(TpccKeys.ORDER_SUFFIX_BITS).insertOnly()
                .build();
        orderByCustomer = TxLongSortedMap.<Order>builder(orderStm).prefixLayout(TpccKeys.BY_CUSTOMER_SUFFIX_BITS)
                .insertOnly().build();
        orderLine = TxLongSortedMap.<OrderLine>builder(orderLineStm).prefixLayout(TpccKeys.ORDER_LINE_SUFFIX_BITS)
                .insertOnly().build();
        this.orderIds = new TpccOrderIds(Objects.requireNonNull(orderIds, "orderIds"), warehouses);
    }

    /** New-order's ORDER insert: logged in a durable run. */
    void putOrder(Txn txn, long key, Order o) {
        if (orderLog != null) {
            orderLog.put(txn, key, o);
        } else {
            order.put(txn, key, o);
        }
    }

    /** New-order's ORDER-LINE inserts: logged in a durable run. */
    void putOrderLine(Txn txn, long key, OrderLine line) {
        if (orderLineLog != null) {
            orderLineLog.put(txn, key, line);
        } else {
            orderLine.put(txn, key, line);
        }
    }

    /** Payment's HISTORY insert: logged in a durable run. */
    void putHistory(Txn txn, long key, History h) {
        if (historyLog != null) {
            historyLog.put(txn, key, h);
        } else {
            history.put(txn, key, h);
        }
    }

    /** @return the first HISTORY sequence number terminal source {@code source} may use */
    long historyStart(int source) {
        return source < historyStarts.length ? historyStarts[source] : 0;
    }

    /** Loads every table with the current time as the load's dates; see {@link #load(Workload.Loader, long)}. */
    public void load(Workload.Loader loader) {
        load(loader, System.currentTimeMillis());
    }

    /**
     * Loads every table (clause 4.3.3.1) through the non-transactional views, warehouses and
     * districts in parallel on {@code loader}'s threads, with its progress. Every row's content
     * depends only on the seed, its key and {@code now} (C_SINCE, H_DATE, O_ENTRY_D and the
     * delivered order lines' OL_DELIVERY_D), not on the number of threads.
     */
    public void load(Workload.Loader loader, long now) {
        new TpccLoader(this, now).load(loader);
    }

    public Stm stm() {
        return stm;
    }

    /** @return which protocol each table is bound to, when not the store's default */
    TpccTables tables() {
        return tables;
    }

    public int warehouses() {
        return warehouses;
    }

    public RecordLayout layout() {
        return layout;
    }

    long seed() {
        return seed;
    }

    /** @return the NURand constants the load used */
    TpccRandom.Constants loadConstants() {
        return loadConstants;
    }

    /** @return the NURand constants for runs: C_LAST within the delta rule of clause 2.1.6.1 */
    TpccRandom.Constants runConstants() {
        return runConstants;
    }

    /**
     * For tests and after a run, while no transaction runs: every map and every record must hold
     * no lock and no pending state.
     *
     * @return the first problem found, naming the table and key, or null if all are quiescent
     */
    String checkQuiescent() {
        String[] problem = {null};
        check(problem, "WAREHOUSE", warehouse);
        check(problem, "DISTRICT", district);
        check(problem, "CUSTOMER", customer);
        check(problem, "HISTORY", history);
        check(problem, "ITEM", item);
        check(problem, "STOCK", stock);
        checkMap(problem, "customer-by-last-name", customersByLastName.checkQuiescent());
        check(problem, "NEW-ORDER", newOrder);
        check(problem, "ORDER", order);
        check(problem, "ORDER-by-customer", orderByCustomer);
        check(problem, "ORDER-LINE", orderLine);
        return problem[0];
    }

    private static void checkMap(String[] problem, String table, String p) {
        if (problem[0] == null && p != null) {
            problem[0] = table + ": " + p;
        }
    }

    private static void check(String[] problem, String table, TxLongHashMap<? extends AbstractRecord> map) {
        checkMap(problem, table, map.checkQuiescent());
        map.single().forEach((key, r) -> {
            String p = problem[0] == null ? r.checkQuiescent() : null;
            if (p != null) {
                problem[0] = table + " row " + Long.toHexString(key) + ": " + p;
            }
        });
    }

    private static void check(String[] problem, String table, TxLongSortedMap<? extends AbstractRecord> map) {
        checkMap(problem, table, map.checkQuiescent());
        map.single().forEach((key, r) -> {
            String p = r.checkQuiescent();
            if (p != null && problem[0] == null) {
                problem[0] = table + " row " + Long.toHexString(key) + ": " + p;
            }
            return problem[0] == null;
        });
    }
}
