package io.jato.workloads.tpcc;

import io.jato.durable.Codecs;
import io.jato.durable.DurabilityMode;
import io.jato.durable.DurableStore;
import io.jato.records.RecordLayout;
import io.jato.workloads.Workload;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/*
 * What is logged. The seven tables with rows of their own are durable maps of records: WAREHOUSE,
 * DISTRICT, CUSTOMER, HISTORY, ITEM and STOCK (hash maps), ORDER and ORDER-LINE (sorted maps).
 * Their inserts go through the durable maps' write sides (TpccDatabase.putOrder, ...) and every
 * update of a row - new-order's stock and district columns, payment's YTDs and balances,
 * delivery's carrier, delivery dates and customer balances - is logged by the row itself, as the
 * column groups the transaction wrote. Nothing in the transaction code knows about the log beyond
 * the three inserts.
 *
 * What is rebuilt. NEW-ORDER is exactly the orders whose carrier is null (0): new-order inserts
 * both, delivery removes the NEW-ORDER row and sets the carrier in one transaction. ORDER-by-
 * customer and the customer-by-last-name index are indexes of ORDER and CUSTOMER. So after a
 * recovery they are rebuilt from the recovered rows instead of being logged; so are the fast
 * order-id counters (one above each district's last order; every missing id below it is an id
 * whose new-order never committed, or never became durable: abandoned) and the HISTORY sequence of
 * each terminal (above its recovered rows).
 *
 * A fresh directory is loaded as without durability, then made durable in one checkpoint
 * (DurableStore.adoptLoaded).
 */

/** A TPC-C database kept in a durable store ({@code ./jato tpcc --durable DIR}); see docs/durability.md. */
final class TpccDurability implements AutoCloseable {
    private final TpccDatabase db;
    private final DurableStore store;
    private final boolean durableCommits;
    private String opened = "";

    /**
     * Opens (recovering) the store in {@code dir} over {@code db}'s tables, which must be empty.
     *
     * @param mode             whether a transaction waits for the disk
     * @param checkpointMillis background checkpoint period, 0 for none
     */
    TpccDurability(TpccDatabase db, Path dir, DurabilityMode mode, long checkpointMillis) {
        this.db = Objects.requireNonNull(db, "db");
        RecordLayout layout = db.layout();
        this.durableCommits = mode == DurabilityMode.DURABLE;
        this.store = DurableStore.builder(dir, db.stm())
                .mode(mode)
                .checkpointMillis(checkpointMillis)
                .longMap("warehouse", db.warehouse, Codecs.records(() -> Warehouse.create(db.warehouseStm, layout)))
                .longMap("district", db.district, Codecs.records(() -> District.create(db.districtStm, layout)))
                .longMap("customer", db.customer, Codecs.records(() -> Customer.create(db.customerStm, layout)))
                .longMap("history", db.history, Codecs.records(() -> History.create(db.historyStm, layout)))
                .longMap("item", db.item, Codecs.records(() -> Item.create(db.itemStm, layout)))
                .longMap("stock", db.stock, Codecs.records(() -> Stock.create(db.stockStm, layout)))
                .longMap("order", db.order, Codecs.records(() -> Order.create(db.orderStm, layout)))
                .longMap("order-line", db.orderLine, Codecs.records(() -> OrderLine.create(db.orderLineStm, layout)))
                .open();
        db.orderLog = store.longMap("order");
        db.orderLineLog = store.longMap("order-line");
        db.historyLog = store.longMap("history");
    }

    /**
     * Loads a fresh directory (and makes the load durable), or completes a recovered one: checks
     * that it holds the database asked for, and rebuilds what is not logged.
     *
     * @throws IllegalStateException if the directory holds another number of warehouses
     */
    void loadOrRecover(Workload.Loader loader) {
        int found = db.warehouse.single().size();
        if (found == 0) {
            db.load(loader);
            store.adoptLoaded();
            opened = "loaded and checkpointed";
            return;
        }
        if (found != db.warehouses() || db.item.single().size() != TpccDatabase.ITEMS) {
            throw new IllegalStateException("the durable store holds " + found + " warehouses and "
                    + db.item.single().size() + " items; the run asks for " + db.warehouses() + " warehouses");
        }
        rebuildOrderIndexes();
        rebuildLastNameIndex();
        rebuildHistoryStarts();
        opened = "recovered: " + store.recoveryReport();
    }

    /** NEW-ORDER, ORDER-by-customer and the fast order-id counters, from ORDER. */
    private void rebuildOrderIndexes() {
        Map<Integer, long[]> lastIds = new HashMap<>(); // district index -> {max id}
        Map<Integer, BitSet> present = new HashMap<>();
        db.order.single().forEach((key, order) -> {
            int w = TpccKeys.warehouseOf(key, TpccKeys.ORDER_SUFFIX_BITS);
            int d = TpccKeys.districtOf(key, TpccKeys.ORDER_SUFFIX_BITS);
            long o = TpccKeys.orderIdOfOrder(key);
            Order.Image oi = order.single().get();
            db.orderByCustomer.single().put(TpccKeys.orderByCustomer(w, d, oi.customerId(), o), order);
            if (oi.carrierId() == 0) {
                db.newOrder.single().put(key, order);
            }
            int di = w * 1000 + d;
            lastIds.computeIfAbsent(di, k -> new long[1])[0] = Math.max(lastIds.get(di)[0], o);
            present.computeIfAbsent(di, k -> new BitSet()).set((int) o);
            return true;
        });
        if (!db.orderIds.fast()) {
            return;
        }
        for (Map.Entry<Integer, long[]> e : lastIds.entrySet()) {
            int w = e.getKey() / 1000;
            int d = e.getKey() % 1000;
            long last = e.getValue()[0];
            BitSet ids = present.get(e.getKey());
            for (long o = TpccDatabase.ORDERS_PER_DISTRICT + 1; o < last; o++) {
                if (!ids.get((int) o)) {
                    db.orderIds.abandon(w, d, o);
                }
            }
            db.orderIds.restore(w, d, last + 1);
        }
    }

    /** The customer-by-last-name index, from CUSTOMER (as the loader builds it). */
    private void rebuildLastNameIndex() {
        Map<String, Integer> numbers = new HashMap<>();
        for (int n = 0; n < 1000; n++) {
            numbers.put(TpccRandom.lastName(n), n);
        }
        TpccLoader loader = new TpccLoader(db, 0);
        for (int w = 1; w <= db.warehouses(); w++) {
            for (int d = 1; d <= TpccDatabase.DISTRICTS_PER_WAREHOUSE; d++) {
                String[] firsts = new String[TpccDatabase.CUSTOMERS_PER_DISTRICT + 1];
                int[] lastNumbers = new int[TpccDatabase.CUSTOMERS_PER_DISTRICT + 1];
                for (int c = 1; c <= TpccDatabase.CUSTOMERS_PER_DISTRICT; c++) {
                    Customer customer = db.customer.single().get(TpccKeys.customer(w, d, c));
                    if (customer == null) {
                        throw new IllegalStateException("the durable store lacks customer " + c + " of district "
                                + d + " of warehouse " + w);
                    }
                    Customer.Image ci = customer.single().get();
                    firsts[c] = ci.first();
                    Integer n = numbers.get(ci.last());
                    if (n == null) {
                        throw new IllegalStateException("customer " + c + " of district " + d + " of warehouse " + w
                                + " has last name '" + ci.last() + "', which TPC-C's name scheme does not make");
                    }
                    lastNumbers[c] = n;
                }
                loader.indexLastNames(w, d, firsts, lastNumbers);
            }
        }
    }

    /** Each terminal's HISTORY sequence continues above its recovered rows. */
    private void rebuildHistoryStarts() {
        TreeMap<Integer, Long> next = new TreeMap<>();
        db.history.single().forEach((key, h) -> {
            int source = (int) (key >>> TpccKeys.HISTORY_SEQUENCE_BITS);
            long seq = key & ((1L << TpccKeys.HISTORY_SEQUENCE_BITS) - 1);
            next.merge(source, seq + 1, Math::max);
        });
        long[] starts = new long[next.isEmpty() ? 0 : next.lastKey() + 1];
        next.forEach((source, start) -> starts[source] = start);
        db.historyStarts = starts;
    }

    /** After a worker's writing transaction committed: in durable mode, returns once it is on disk. */
    void committed() {
        if (durableCommits) {
            store.awaitDurable();
        }
    }

    /** @return how the store was opened, for the run's check line */
    String opened() {
        return opened;
    }

    /** Makes everything committed durable and closes the store. */
    @Override
    public void close() {
        store.close();
    }
}
