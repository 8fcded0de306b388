package io.jato.workloads.tpcc;

/*
 * Key layout. Every TPC-C key is a tuple of small ids packed into a non-negative long, most
 * significant component first, so that the numeric order of keys is the lexicographic order of the
 * tuples and a district's (or customer's) keys form one contiguous range:
 *
 *   warehouse   w                                 12 bits   1..4095
 *   district    w | d                             16 bits   d in 1..15 (TPC-C: 10)
 *   customer    w | d | c                         28 bits   c in 1..4095 (TPC-C: 3000)
 *   order       w | d | o                         48 bits   o in 1..2^32-1 (grows during a run)
 *   order-line  w | d | o | ol                    52 bits   ol in 1..15
 *   by-customer w | d | c | o                     60 bits   ORDER's secondary index
 *   stock       w | i                             29 bits   i in 1..131071 (TPC-C: 100,000)
 *   last name   w | d | n                         26 bits   n in 0..999, the name's number
 *   history     source | sequence                 source << 40: 0 for loaded rows, then per terminal
 *
 *   63        60        52        48                   16      12        0
 *   +---------+---------+---------+--- ... ---+--------+-------+--------+
 *   |    0    |      w (12)       | d (4) |      o (32)        | ol (4) |   order-line
 *   +---------+---------+---------+--- ... ---+--------+-------+--------+
 *
 * The sorted maps use prefixLayout(suffixBits) with the district as the prefix: ORDER and
 * NEW-ORDER ORDER_SUFFIX_BITS (the order id), ORDER-LINE ORDER_LINE_SUFFIX_BITS (order id and line
 * number), ORDER-by-customer BY_CUSTOMER_SUFFIX_BITS (customer and order id). A transaction that
 * scans one district's range then never conflicts with inserts or deletes in another district.
 */

/** Packs TPC-C keys into longs; see the layout drawn at the top of the source. */
final class TpccKeys {
    static final int WAREHOUSE_BITS = 12;
    static final int DISTRICT_BITS = 4;
    static final int CUSTOMER_BITS = 12;
    static final int ORDER_BITS = 32;
    static final int ORDER_LINE_BITS = 4;
    static final int ITEM_BITS = 17;
    static final int LAST_NAME_BITS = 10;
    static final int HISTORY_SEQUENCE_BITS = 40;

    static final int MAX_WAREHOUSES = (1 << WAREHOUSE_BITS) - 1;
    static final int MAX_DISTRICTS = (1 << DISTRICT_BITS) - 1;
    static final int MAX_CUSTOMERS = (1 << CUSTOMER_BITS) - 1;
    static final long MAX_ORDER_ID = (1L << ORDER_BITS) - 1;
    static final int MAX_ORDER_LINES = (1 << ORDER_LINE_BITS) - 1;
    static final int MAX_ITEMS = (1 << ITEM_BITS) - 1;

    /** Prefix layout of ORDER and NEW-ORDER: the district is the prefix. */
    static final int ORDER_SUFFIX_BITS = ORDER_BITS;
    /** Prefix layout of ORDER-LINE: the district is the prefix. */
    static final int ORDER_LINE_SUFFIX_BITS = ORDER_BITS + ORDER_LINE_BITS;
    /** Prefix layout of ORDER-by-customer: the district is the prefix. */
    static final int BY_CUSTOMER_SUFFIX_BITS = CUSTOMER_BITS + ORDER_BITS;

    private TpccKeys() {
    }

    static long warehouse(int w) {
        return check(w, 1, MAX_WAREHOUSES, "warehouse");
    }

    static long district(int w, int d) {
        return warehouse(w) << DISTRICT_BITS | check(d, 1, MAX_DISTRICTS, "district");
    }

    static long customer(int w, int d, int c) {
        return district(w, d) << CUSTOMER_BITS | check(c, 1, MAX_CUSTOMERS, "customer");
    }

    static long order(int w, int d, long o) {
        return district(w, d) << ORDER_BITS | checkOrder(o);
    }

    /** @return the smallest ORDER / NEW-ORDER key of district (w, d): below every order id */
    static long firstOrderOf(int w, int d) {
        return district(w, d) << ORDER_BITS;
    }

    /** @return the largest ORDER / NEW-ORDER key of district (w, d) */
    static long lastOrderOf(int w, int d) {
        return firstOrderOf(w, d) | MAX_ORDER_ID;
    }

    static long orderLine(int w, int d, long o, int ol) {
        return order(w, d, o) << ORDER_LINE_BITS | check(ol, 1, MAX_ORDER_LINES, "order line");
    }

    static long orderByCustomer(int w, int d, int c, long o) {
        return customer(w, d, c) << ORDER_BITS | checkOrder(o);
    }

    static long stock(int w, int i) {
        return warehouse(w) << ITEM_BITS | check(i, 1, MAX_ITEMS, "item");
    }

    static long item(int i) {
        return check(i, 1, MAX_ITEMS, "item");
    }

    /** @param n the last name's number in [0, 999] (see {@link TpccRandom#lastName(int)}) */
    static long lastName(int w, int d, int n) {
        return district(w, d) << LAST_NAME_BITS | check(n, 0, 999, "last-name number");
    }

    /** @param source 0 for rows written by the loader, a worker's number + 1 for those of a run */
    static long history(int source, long sequence) {
        if (source < 0 || source >= 1 << (63 - HISTORY_SEQUENCE_BITS)
                || sequence < 0 || sequence >= 1L << HISTORY_SEQUENCE_BITS) {
            throw new IllegalArgumentException("history key out of range: source " + source + ", sequence " + sequence);
        }
        return (long) source << HISTORY_SEQUENCE_BITS | sequence;
    }

    // ------------------------------------------------------------------ unpacking

    /** @return the warehouse of a district, customer, order, order-line or by-customer key, given its suffix bits */
    static int warehouseOf(long key, int suffixBits) {
        return (int) (key >>> (suffixBits + DISTRICT_BITS));
    }

    /** @return the district of a key whose low {@code suffixBits} follow the district */
    static int districtOf(long key, int suffixBits) {
        return (int) (key >>> suffixBits) & MAX_DISTRICTS;
    }

    /** @return the order id of an ORDER / NEW-ORDER key */
    static long orderIdOfOrder(long orderKey) {
        return orderKey & MAX_ORDER_ID;
    }

    /** @return the order id of an ORDER-LINE key */
    static long orderIdOfOrderLine(long orderLineKey) {
        return (orderLineKey >>> ORDER_LINE_BITS) & MAX_ORDER_ID;
    }

    /** @return the line number of an ORDER-LINE key */
    static int numberOfOrderLine(long orderLineKey) {
        return (int) orderLineKey & MAX_ORDER_LINES;
    }

    /** @return the customer id of a CUSTOMER key */
    static int customerIdOfCustomer(long customerKey) {
        return (int) customerKey & MAX_CUSTOMERS;
    }

    /** @return the customer id of an ORDER-by-customer key */
    static int customerIdOfByCustomer(long key) {
        return (int) (key >>> ORDER_BITS) & MAX_CUSTOMERS;
    }

    /** @return the order id of an ORDER-by-customer key */
    static long orderIdOfByCustomer(long key) {
        return key & MAX_ORDER_ID;
    }

    /** @return the item id of a STOCK key */
    static int itemOfStock(long stockKey) {
        return (int) stockKey & MAX_ITEMS;
    }

    /** @return the warehouse of a STOCK key */
    static int warehouseOfStock(long stockKey) {
        return (int) (stockKey >>> ITEM_BITS);
    }

    private static long check(int v, int min, int max, String what) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(what + " id " + v + " is outside [" + min + ", " + max + "]");
        }
        return v;
    }

    private static long checkOrder(long o) {
        if (o < 1 || o > MAX_ORDER_ID) {
            throw new IllegalArgumentException("order id " + o + " is outside [1, " + MAX_ORDER_ID + "]");
        }
        return o;
    }
}
