package io.jato.workloads.tpcc;

import io.jato.collections.TxLongSortedMap;
import io.jato.records.RecordLayout;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnAbortedException;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import org.agrona.collections.IntHashSet;

import java.time.Duration;
import java.util.SplittableRandom;

/*
 * The five transactions of clause 2, as one worker thread runs them.
 *
 * Inputs first. Each transaction type has a draw method that fills this object's input fields
 * (clauses 2.4.1, 2.5.1, 2.6.1, 2.7.1, 2.8.1) and an execute method that runs one preallocated body
 * over them with the store's retries, so a retried attempt repeats exactly the same inputs. Dates
 * are drawn with the inputs too. Bodies write their outputs to fields (reset at the start of each
 * attempt), which tests read and which keep the JIT from dropping reads.
 *
 * New-order's 1% rollback (clause 2.4.1.4) gives the last line an unused item id; the body finds
 * no ITEM row and calls txn.abort(), which rolls back everything the attempt wrote, including the
 * ORDER, NEW-ORDER and ORDER-LINE inserts and D_NEXT_O_ID. executeNewOrder reports it as a
 * rollback (false), not as an error.
 *
 * Next order id (TpccOrderIds). With the strict policy new-order reads D_NEXT_O_ID and writes it
 * back plus one, a read-modify-write of the district's nextOrder group (its own group in TS mode,
 * so payment's read of D_NAME and the address does not conflict with it), and concurrent
 * new-orders of one district conflict on it. With the fast policy (Silo's fast order id, the
 * default of the runner) executeNewOrder takes the id from the district's counter before the first
 * attempt and keeps it across retries; an id whose new-order ends without committing is reported
 * as abandoned, which keeps the consistency check exact. Stock-level then takes the district's
 * next order id from the counter too, outside the transaction, as Silo does: the scan of the
 * order lines that follows is what its result depends on, and that scan is phantom-protected.
 *
 * Modes (TpccMode). The layout (field groups or not) is the database's; this class only chooses
 * between read-modify-writes and the commit-time updaters of TpccUpdaters for the writes listed
 * there. A CU transaction does not read the columns its updater changes (payment does not read
 * C_BALANCE, new-order not S_QUANTITY), which is what lets two of them commit without conflict.
 *
 * Delivery handles all ten districts of the warehouse in one transaction; a district without
 * NEW-ORDER rows is skipped. It finds the oldest NEW-ORDER row with a scan of limit 1 over the
 * district's range, which (unlike ceilingKey from the district's first key) never reads into the
 * next district when this one is empty.
 *
 * Not allocation-free: the new records of new-order and payment, the CU updaters and payment's
 * strings.
 * The images the new records are created from are this worker's, reused: create copies them.
 */

/** One worker's TPC-C transactions: inputs drawn before each transaction, bodies retried on them. */
final class TpccTransactions {
    /** Order lines per new-order: 5..15 (clause 2.4.1.3). */
    static final int MAX_LINES = 15;
    /** Stock-level examines the lines of the district's last this many orders (clause 2.8.2.2). */
    static final int STOCK_LEVEL_ORDERS = 20;
    /** An item id no ITEM row has: the 1% of new-orders that roll back order it. */
    static final int UNUSED_ITEM = TpccDatabase.ITEMS + 1;

    private final TpccDatabase db;
    private final Stm stm;
    /** The store objects new ORDER, ORDER-LINE and HISTORY rows are created with (their tables' protocols). */
    private final Stm orderStm;
    private final Stm orderLineStm;
    private final Stm historyStm;
    private final RecordLayout layout;
    private final boolean cu;
    private final int warehouses;
    private final int homeWarehouse;
    private final int historySource;
    private final TpccRandom random;
    private final TpccRandom.Constants run;
    private final TpccMix mix;
    /** Next HISTORY sequence number of this terminal; advanced only when a payment commits. */
    private long historySequence;
    private final TpccOrderIds orderIds;
    private final boolean fastOrderIds;
    /** Images the new rows are created from; every column a body does not set stays zero. */
    private final Order.Image orderImage = new Order.Image();
    private final OrderLine.Image lineImage = new OrderLine.Image();
    private final History.Image historyImage = new History.Image();
    // Where group reads (readGroup) copy several columns of one group under one observation: one
    // access-set entry and one validation for all of them instead of one per column getter.
    private final Warehouse.Image warehouseRead = new Warehouse.Image();
    private final District.Image districtRead = new District.Image();
    private final Customer.Image customerRead = new Customer.Image();
    private final Item.Image itemRead = new Item.Image();
    private final Stock.Image stockRead = new Stock.Image();
    private final Order.Image orderRead = new Order.Image();
    private final OrderLine.Image lineRead = new OrderLine.Image();

    // ------------------------------------------------------------------ inputs (drawn before a transaction)

    int noDistrict;
    int noCustomer;
    int noLines;
    final int[] noItem = new int[MAX_LINES];
    /** New-order's ITEM and STOCK keys and rows, looked up in two batches (TxLongHashMap.getAll). */
    private final long[] noItemKeys = new long[MAX_LINES];
    private final long[] noStockKeys = new long[MAX_LINES];
    private final Item[] noItems = new Item[MAX_LINES];
    private final Stock[] noStocks = new Stock[MAX_LINES];
    final int[] noSupplyWarehouse = new int[MAX_LINES];
    final int[] noQuantity = new int[MAX_LINES];
    long noEntryDate;
    /** The O_ID taken from the fast counter for the drawn new-order, or 0 (strict policy). */
    long noTakenOrderId;

    int payDistrict;
    int payCustomerWarehouse;
    int payCustomerDistrict;
    /** The customer id, or 0 to select by {@link #payLastName}. */
    int payCustomer;
    int payLastName;
    long payAmount;
    long payDate;

    int osDistrict;
    /** The customer id, or 0 to select by {@link #osLastName}. */
    int osCustomer;
    int osLastName;

    int deliveryCarrier;
    long deliveryDate;

    int slDistrict;
    int slThreshold;

    // ------------------------------------------------------------------ outputs (of the last attempt)

    long noOrderId;
    long noTotal;
    int payCustomerId;
    long osOrderId;
    int osLineCount;
    long osAmount;
    int deliveredDistricts;
    int slLowStock;
    /** Folds what the bodies read so that the JIT cannot drop the reads. */
    long sink;

    // ------------------------------------------------------------------ scratch of the bodies

    private long foundKey;
    /** The transaction a scan visitor reads in; set just before the scan. */
    private Txn txnOfScan;
    private Order foundOrder;
    private final int[] slItems = new int[STOCK_LEVEL_ORDERS * MAX_LINES];
    private int slItemCount;
    /**
     * Stock-level's distinct items, found without sorting: a primitive set sized for the most lines
     * stock-level scans, so it never grows; cleared per attempt (a few KB, which stay in cache).
     */
    private final IntHashSet slSeen = new IntHashSet(STOCK_LEVEL_ORDERS * MAX_LINES);
    /** The distinct items' STOCK keys, and the rows one batch lookup of them found. */
    private final long[] slStockKeys = new long[STOCK_LEVEL_ORDERS * MAX_LINES];
    private final Stock[] slStocks = new Stock[STOCK_LEVEL_ORDERS * MAX_LINES];

    private final TxLongSortedMap.Visitor<Order> firstNewOrder = (key, order) -> {
        foundKey = key;
        foundOrder = order;
        return false;
    };
    private final TxLongSortedMap.Visitor<OrderLine> stockLevelLine = (key, line) -> {
        slItems[slItemCount++] = line.itemId(txnOfScan);
        return true;
    };
    private final TxLongSortedMap.Visitor<OrderLine> orderStatusLine = (key, line) -> {
        osLineCount++;
        OrderLine.Image l = line.readGroup(txnOfScan, OrderLine.GROUP_DEFAULT, lineRead);
        osAmount += l.amount();
        sink += l.itemId() + l.supplyWarehouseId() + l.quantity() + line.deliveryDate(txnOfScan);
        return true;
    };

    private final TxnRunnable newOrderBody = this::newOrder;
    private final TxnRunnable paymentBody = this::payment;
    private final TxnFunction<Object> orderStatusBody = txn -> {
        orderStatus(txn);
        return null;
    };
    private final TxnRunnable deliveryBody = this::delivery;
    private final TxnFunction<Object> stockLevelBody = txn -> {
        stockLevel(txn);
        return null;
    };

    /**
     * @param terminal      the terminal's number from 0, unique among the database's terminals: it
     *                      names their HISTORY rows (two terminals of one number overwrite each
     *                      other's, and the check of conditions 8 to 10 fails)
     * @param homeWarehouse the terminal's warehouse (clause 2.4.1.1 and the like)
     * @param seed          seeds every input this worker draws
     */
    TpccTransactions(TpccDatabase db, TpccMode mode, int terminal, int homeWarehouse, long seed) {
        this(db, mode, terminal, homeWarehouse, seed, TpccMix.standardWeights());
    }

    /** As {@link #TpccTransactions(TpccDatabase, TpccMode, int, int, long)}, drawing types with {@code mixWeights}. */
    TpccTransactions(TpccDatabase db, TpccMode mode, int terminal, int homeWarehouse, long seed, int[] mixWeights) {
        if (db.layout() != mode.layout()) {
            throw new IllegalArgumentException("mode " + mode.cliName() + " needs a database with layout "
                    + mode.layout() + ", not " + db.layout());
        }
        if (homeWarehouse < 1 || homeWarehouse > db.warehouses()) {
            throw new IllegalArgumentException("home warehouse " + homeWarehouse + " is outside [1, " + db.warehouses() + "]");
        }
        this.db = db;
        this.stm = db.stm();
        this.orderStm = db.orderStm;
        this.orderLineStm = db.orderLineStm;
        this.historyStm = db.historyStm;
        this.layout = db.layout();
        this.cu = mode.updaters();
        this.warehouses = db.warehouses();
        this.homeWarehouse = homeWarehouse;
        this.historySource = terminal + 1;
        TpccKeys.history(historySource, 0);     // checks the terminal's number
        this.historySequence = db.historyStart(historySource); // above the rows a recovery found
        SplittableRandom root = new SplittableRandom(seed);
        this.mix = new TpccMix(root.split(), mixWeights);
        this.random = new TpccRandom(root);
        this.run = db.runConstants();
        this.orderIds = db.orderIds;
        this.fastOrderIds = orderIds.fast();
    }

    /** @return the next transaction type of the terminal's mix */
    TpccMix.Type nextType() {
        return mix.next();
    }

    /**
     * Draws inputs for a transaction of {@code type} and runs it.
     *
     * @return true if it committed, false if it rolled back on purpose (new-order's 1%)
     */
    boolean run(TpccMix.Type type) {
        switch (type) {
            case NEW_ORDER:
                drawNewOrder();
                return executeNewOrder();
            case PAYMENT:
                drawPayment();
                executePayment();
                return true;
            case ORDER_STATUS:
                drawOrderStatus();
                executeOrderStatus();
                return true;
            case DELIVERY:
                drawDelivery();
                executeDelivery();
                return true;
            case STOCK_LEVEL:
                drawStockLevel();
                executeStockLevel();
                return true;
            default:
                throw new AssertionError(type);
        }
    }

    // ------------------------------------------------------------------ new-order (clause 2.4)

    void drawNewOrder() {
        noDistrict = random.uniform(1, TpccDatabase.DISTRICTS_PER_WAREHOUSE);
        noCustomer = random.customerId(run);
        noLines = random.uniform(5, MAX_LINES);
        boolean rollback = random.percent(1);
        for (int i = 0; i < noLines; i++) {
            noItem[i] = rollback && i == noLines - 1 ? UNUSED_ITEM : random.itemId(run);
            noSupplyWarehouse[i] = warehouses > 1 && random.percent(1) ? otherWarehouse() : homeWarehouse;
            noQuantity[i] = random.uniform(1, 10);
        }
        noEntryDate = System.currentTimeMillis();
    }

    /** @return true if the drawn new-order committed, false if it rolled back on its unused item */
    boolean executeNewOrder() {
        noTakenOrderId = fastOrderIds ? orderIds.take(homeWarehouse, noDistrict) : 0;
        boolean committed = false;
        try {
            stm.run(TpccMix.Type.NEW_ORDER.txnType(), newOrderBody);
            committed = true;
            return true;
        } catch (TxnAbortedException e) {
            if (e.abortCause() == AbortCause.USER_ABORT) {
                return false;
            }
            throw e;
        } finally {
            if (!committed && fastOrderIds) {
                orderIds.abandon(homeWarehouse, noDistrict, noTakenOrderId);
            }
        }
    }

    private void newOrder(Txn txn) {
        int w = homeWarehouse;
        int d = noDistrict;
        Warehouse warehouse = db.warehouse.get(txn, TpccKeys.warehouse(w));
        District district = db.district.get(txn, TpccKeys.district(w, d));
        int o;
        if (fastOrderIds) {
            o = (int) noTakenOrderId;
        } else {
            o = district.nextOrderId(txn);
            district.setNextOrderId(txn, o + 1);
        }
        long taxes = 10_000L + warehouse.tax(txn) + district.tax(txn);
        Customer.Image customer = db.customer.get(txn, TpccKeys.customer(w, d, noCustomer))
                .readGroup(txn, Customer.GROUP_DEFAULT, customerRead);
        int discount = customer.discount();
        sink += customer.last().length() + customer.credit().length();
        boolean allLocal = true;
        for (int i = 0; i < noLines; i++) {
            allLocal &= noSupplyWarehouse[i] == w;
        }
        Order order = Order.create(orderStm, layout, orderImage
                .setCustomerId(noCustomer)
                .setEntryDate(noEntryDate)
                .setOrderLineCount(noLines)
                .setAllLocal(allLocal));
        long orderKey = TpccKeys.order(w, d, o);
        db.putOrder(txn, orderKey, order);
        db.newOrder.put(txn, orderKey, order);
        db.orderByCustomer.put(txn, TpccKeys.orderByCustomer(w, d, noCustomer, o), order);
        // Every line's item and stock first, each table in one batch: the lookups' cache misses
        // overlap instead of following one another.
        for (int i = 0; i < noLines; i++) {
            noItemKeys[i] = TpccKeys.item(noItem[i]);
            noStockKeys[i] = TpccKeys.stock(noSupplyWarehouse[i], noItem[i]);
        }
        db.item.getAll(txn, noItemKeys, noLines, noItems);
        db.stock.getAll(txn, noStockKeys, noLines, noStocks);
        long sum = 0;
        for (int i = 0; i < noLines; i++) {
            Item item = noItems[i];
            if (item == null) {
                throw txn.abort();      // clause 2.4.2.3: an unused item id rolls the order back
            }
            Item.Image itemColumns = item.readGroup(txn, Item.GROUP_DEFAULT, itemRead);
            long price = itemColumns.price();
            String itemData = itemColumns.data();
            sink += itemColumns.name().length();
            int supplier = noSupplyWarehouse[i];
            int quantity = noQuantity[i];
            Stock stock = noStocks[i];
            Stock.Image stockColumns = stock.readGroup(txn, Stock.GROUP_DEFAULT, stockRead);
            String distInfo = distInfo(stockColumns, d);
            String stockData = stockColumns.data();
            if (cu) {
                stock.update(txn, TpccUpdaters.StockOrder.INSTANCE, TpccUpdaters.StockOrder.operand(quantity, supplier != w));
            } else {
                stock.setQuantity(txn, TpccUpdaters.stockQuantityAfter(stock.quantity(txn), quantity));
                stock.setYtd(txn, stock.ytd(txn) + quantity);
                stock.setOrderCount(txn, stock.orderCount(txn) + 1);
                if (supplier != w) {
                    stock.setRemoteCount(txn, stock.remoteCount(txn) + 1);
                }
            }
            long amount = quantity * price;
            sum += amount;
            boolean original = itemData.contains(TpccRandom.ORIGINAL) && stockData.contains(TpccRandom.ORIGINAL);
            sink += original ? 'B' : 'G';
            OrderLine line = OrderLine.create(orderLineStm, layout, lineImage
                    .setItemId(noItem[i])
                    .setSupplyWarehouseId(supplier)
                    .setQuantity(quantity)
                    .setAmount(amount)
                    .setDistInfo(distInfo));
            db.putOrderLine(txn, TpccKeys.orderLine(w, d, o, i + 1), line);
        }
        noOrderId = o;
        noTotal = sum * (10_000 - discount) / 10_000 * taxes / 10_000;
    }

    private static String distInfo(Stock.Image s, int d) {
        switch (d) {
            case 1: return s.dist01();
            case 2: return s.dist02();
            case 3: return s.dist03();
            case 4: return s.dist04();
            case 5: return s.dist05();
            case 6: return s.dist06();
            case 7: return s.dist07();
            case 8: return s.dist08();
            case 9: return s.dist09();
            case 10: return s.dist10();
            default: throw new IllegalArgumentException("district " + d);
        }
    }

    // ------------------------------------------------------------------ payment (clause 2.5)

    void drawPayment() {
        payDistrict = random.uniform(1, TpccDatabase.DISTRICTS_PER_WAREHOUSE);
        if (warehouses > 1 && random.percent(15)) {
            payCustomerWarehouse = otherWarehouse();
            payCustomerDistrict = random.uniform(1, TpccDatabase.DISTRICTS_PER_WAREHOUSE);
        } else {
            payCustomerWarehouse = homeWarehouse;
            payCustomerDistrict = payDistrict;
        }
        if (random.percent(60)) {
            payCustomer = 0;
            payLastName = random.lastNameNumber(run);
        } else {
            payCustomer = random.customerId(run);
        }
        payAmount = random.uniform(100L, 500_000L);
        payDate = System.currentTimeMillis();
    }

    void executePayment() {
        stm.run(TpccMix.Type.PAYMENT.txnType(), paymentBody);
        historySequence++;
    }

    private void payment(Txn txn) {
        int w = homeWarehouse;
        int d = payDistrict;
        int cw = payCustomerWarehouse;
        int cd = payCustomerDistrict;
        long amount = payAmount;
        Warehouse warehouse = db.warehouse.get(txn, TpccKeys.warehouse(w));
        Warehouse.Image wc = warehouse.readGroup(txn, Warehouse.GROUP_DEFAULT, warehouseRead);
        String warehouseName = wc.name();
        sink += wc.street1().length() + wc.city().length() + wc.zip().length();
        if (cu) {
            warehouse.update(txn, TpccUpdaters.WarehouseYtd.INSTANCE, amount);
        } else {
            warehouse.setYtd(txn, warehouse.ytd(txn) + amount);
        }
        District district = db.district.get(txn, TpccKeys.district(w, d));
        District.Image dc = district.readGroup(txn, District.GROUP_DEFAULT, districtRead);
        String districtName = dc.name();
        sink += dc.street1().length() + dc.city().length() + dc.zip().length();
        if (cu) {
            district.update(txn, TpccUpdaters.DistrictYtd.INSTANCE, amount);
        } else {
            district.setYtd(txn, district.ytd(txn) + amount);
        }
        int c = payCustomer != 0 ? payCustomer : byLastName(txn, cw, cd, payLastName);
        Customer customer = db.customer.get(txn, TpccKeys.customer(cw, cd, c));
        Customer.Image cc = customer.readGroup(txn, Customer.GROUP_DEFAULT, customerRead);
        sink += cc.first().length() + cc.street1().length() + cc.phone().length()
                + cc.since() + cc.creditLimit() + cc.discount();
        String badCreditPrefix = null;
        if (cc.credit().equals("BC")) {
            badCreditPrefix = c + " " + cd + " " + cw + " " + d + " " + w + " " + amount + " | ";
        }
        if (cu) {
            if (badCreditPrefix == null) {
                customer.update(txn, TpccUpdaters.CustomerGoodCreditPayment.INSTANCE, amount);
            } else {
                customer.update(txn, new TpccUpdaters.CustomerPayment(amount, badCreditPrefix));
            }
        } else {
            customer.setBalance(txn, customer.balance(txn) - amount);
            customer.setYtdPayment(txn, customer.ytdPayment(txn) + amount);
            customer.setPaymentCount(txn, customer.paymentCount(txn) + 1);
            if (badCreditPrefix != null) {
                customer.setData(txn, TpccUpdaters.badCreditData(badCreditPrefix, customer.data(txn)));
            }
        }
        History history = History.create(historyStm, layout, historyImage
                .setCustomerId(c)
                .setCustomerDistrictId(cd)
                .setCustomerWarehouseId(cw)
                .setDistrictId(d)
                .setWarehouseId(w)
                .setDate(payDate)
                .setAmount(amount)
                .setData(warehouseName + "    " + districtName));
        db.putHistory(txn, TpccKeys.history(historySource, historySequence), history);
        payCustomerId = c;
    }

    /** @return the customer at position ceil(n / 2) of the n with last name {@code name}, by first name (clause 2.5.2.2) */
    private int byLastName(Txn txn, int w, int d, int name) {
        int[] ids = db.customersByLastName.get(txn, TpccKeys.lastName(w, d, name));
        if (ids == null) {
            // Customers 1..1000 of every district carry the names 0..999 (clause 4.3.3.1).
            throw new IllegalStateException("no customer of district " + d + " of warehouse " + w + " has last name "
                    + TpccRandom.lastName(name));
        }
        return ids[(ids.length - 1) / 2];
    }

    // ------------------------------------------------------------------ order-status (clause 2.6)

    void drawOrderStatus() {
        osDistrict = random.uniform(1, TpccDatabase.DISTRICTS_PER_WAREHOUSE);
        if (random.percent(60)) {
            osCustomer = 0;
            osLastName = random.lastNameNumber(run);
        } else {
            osCustomer = random.customerId(run);
        }
    }

    void executeOrderStatus() {
        stm.readOnly(TpccMix.Type.ORDER_STATUS.txnType(), orderStatusBody);
    }

    private void orderStatus(Txn txn) {
        int w = homeWarehouse;
        int d = osDistrict;
        osOrderId = 0;
        osLineCount = 0;
        osAmount = 0;
        int c = osCustomer != 0 ? osCustomer : byLastName(txn, w, d, osLastName);
        Customer customer = db.customer.get(txn, TpccKeys.customer(w, d, c));
        Customer.Image cc = customer.readGroup(txn, Customer.GROUP_DEFAULT, customerRead);
        sink += customer.balance(txn) + cc.first().length() + cc.middle().length() + cc.last().length();
        long key = db.orderByCustomer.floorKey(txn, TpccKeys.orderByCustomer(w, d, c, TpccKeys.MAX_ORDER_ID), -1);
        if (key < 0 || key >>> TpccKeys.ORDER_BITS != TpccKeys.customer(w, d, c)) {
            return;     // the customer has no order
        }
        Order order = db.orderByCustomer.get(txn, key);
        long o = TpccKeys.orderIdOfByCustomer(key);
        Order.Image oc = order.readGroup(txn, Order.GROUP_DEFAULT, orderRead);
        sink += oc.entryDate() + order.carrierId(txn) + oc.orderLineCount();
        osOrderId = o;
        txnOfScan = txn;
        db.orderLine.scan(txn, TpccKeys.orderLine(w, d, o, 1), true, TpccKeys.orderLine(w, d, o, MAX_LINES), true,
                MAX_LINES, false, orderStatusLine);
        txnOfScan = null;
    }

    // ------------------------------------------------------------------ delivery (clause 2.7)

    void drawDelivery() {
        deliveryCarrier = random.uniform(1, 10);
        deliveryDate = System.currentTimeMillis();
    }

    void executeDelivery() {
        stm.run(TpccMix.Type.DELIVERY.txnType(), deliveryBody);
    }

    private void delivery(Txn txn) {
        int w = homeWarehouse;
        int delivered = 0;
        for (int d = 1; d <= TpccDatabase.DISTRICTS_PER_WAREHOUSE; d++) {
            foundOrder = null;
            db.newOrder.scan(txn, TpccKeys.firstOrderOf(w, d), true, TpccKeys.lastOrderOf(w, d), true, 1, false,
                    firstNewOrder);
            Order order = foundOrder;
            if (order == null) {
                continue;       // clause 2.7.4.2: no undelivered order in this district
            }
            foundOrder = null;
            long orderKey = foundKey;
            long o = TpccKeys.orderIdOfOrder(orderKey);
            db.newOrder.remove(txn, orderKey);
            Order.Image oc = order.readGroup(txn, Order.GROUP_DEFAULT, orderRead);
            int c = oc.customerId();
            int lines = oc.orderLineCount();
            if (cu) {
                order.update(txn, TpccUpdaters.OrderCarrier.INSTANCE, deliveryCarrier);
            } else {
                order.setCarrierId(txn, deliveryCarrier);
            }
            long sum = 0;
            for (int ol = 1; ol <= lines; ol++) {
                OrderLine line = db.orderLine.get(txn, TpccKeys.orderLine(w, d, o, ol));
                sum += line.amount(txn);
                if (cu) {
                    line.update(txn, TpccUpdaters.OrderLineDelivery.INSTANCE, deliveryDate);
                } else {
                    line.setDeliveryDate(txn, deliveryDate);
                }
            }
            Customer customer = db.customer.get(txn, TpccKeys.customer(w, d, c));
            if (cu) {
                customer.update(txn, TpccUpdaters.CustomerDelivery.INSTANCE, sum);
            } else {
                customer.setBalance(txn, customer.balance(txn) + sum);
                customer.setDeliveryCount(txn, customer.deliveryCount(txn) + 1);
            }
            delivered++;
        }
        deliveredDistricts = delivered;
    }

    // ------------------------------------------------------------------ stock-level (clause 2.8)

    void drawStockLevel() {
        slDistrict = random.uniform(1, TpccDatabase.DISTRICTS_PER_WAREHOUSE);
        slThreshold = random.uniform(10, 20);
    }

    /**
     * How stale stock-level's snapshot may be. Clause 3.4.1 asks only read-committed isolation of
     * stock-level, so a consistent snapshot a few milliseconds old is more than it needs; under a
     * protocol with snapshot reads it then never waits for this thread's own last new-order to
     * become stable (it fell back to a validated attempt, and aborted, when it did). Other
     * protocols read the current state.
     */
    static final Duration STOCK_LEVEL_STALENESS = Duration.ofMillis(10);

    void executeStockLevel() {
        stm.readOnly(TpccMix.Type.STOCK_LEVEL.txnType(), STOCK_LEVEL_STALENESS, stockLevelBody);
    }

    private void stockLevel(Txn txn) {
        int w = homeWarehouse;
        int d = slDistrict;
        slItemCount = 0;
        slLowStock = 0;
        long next;
        if (fastOrderIds) {
            next = orderIds.next(w, d);
        } else {
            District district = db.district.get(txn, TpccKeys.district(w, d));
            next = district.nextOrderId(txn);
        }
        long first = Math.max(1, next - STOCK_LEVEL_ORDERS);
        if (next <= first) {
            return;
        }
        txnOfScan = txn;
        db.orderLine.scan(txn, TpccKeys.orderLine(w, d, first, 1), true, TpccKeys.orderLine(w, d, next - 1, MAX_LINES),
                true, slItems.length, false, stockLevelLine);
        txnOfScan = null;
        IntHashSet seen = slSeen;
        seen.clear();
        int distinct = 0;
        for (int i = 0; i < slItemCount; i++) {
            int item = slItems[i];
            if (seen.add(item)) {
                slStockKeys[distinct++] = TpccKeys.stock(w, item);
            }
        }
        // The distinct items' stock in one batch (about 200 lookups): their cache misses overlap.
        db.stock.getAll(txn, slStockKeys, distinct, slStocks);
        int low = 0;
        for (int i = 0; i < distinct; i++) {
            if (slStocks[i].quantity(txn) < slThreshold) {
                low++;
            }
        }
        slLowStock = low;
    }

    // ------------------------------------------------------------------ helpers

    /** @return a warehouse other than the home one, uniformly; needs at least two */
    private int otherWarehouse() {
        int other = random.uniform(1, warehouses - 1);
        return other >= homeWarehouse ? other + 1 : other;
    }

    int homeWarehouse() {
        return homeWarehouse;
    }

    /**
     * @return the sequence number of this terminal's next HISTORY row: the rows it committed, plus
     *         the rows of its source a recovery found (a durable run)
     */
    long historyRows() {
        return historySequence;
    }

    /** @return the source number of this terminal's HISTORY keys */
    int historySource() {
        return historySource;
    }
}
