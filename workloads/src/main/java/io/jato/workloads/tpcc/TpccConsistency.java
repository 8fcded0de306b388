package io.jato.workloads.tpcc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The consistency conditions of TPC-C clause 3.3.2, checked through the non-transactional views:
 * call it only while no transaction runs. {@link #check} checks those that hold after loading and
 * after any run of the five transactions, deliveries included:
 *
 * <ol>
 *   <li>W_YTD = sum(D_YTD) over the warehouse's districts;</li>
 *   <li>D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) in each district (the NEW-ORDER part only when
 *       the district has NEW-ORDER rows);</li>
 *   <li>max(NO_O_ID) - min(NO_O_ID) + 1 = the number of NEW-ORDER rows in each district;</li>
 *   <li>sum(O_OL_CNT) = the number of ORDER-LINE rows in each district;</li>
 *   <li>O_CARRIER_ID is null if and only if the order has a NEW-ORDER row;</li>
 *   <li>O_OL_CNT = the number of the order's ORDER-LINE rows, for every order;</li>
 *   <li>OL_DELIVERY_D is null if and only if its order's O_CARRIER_ID is null;</li>
 *   <li>W_YTD = sum(H_AMOUNT) over the HISTORY rows with H_W_ID = the warehouse;</li>
 *   <li>D_YTD = sum(H_AMOUNT) over the HISTORY rows with (H_W_ID, H_D_ID) = the district;</li>
 *   <li>C_BALANCE = sum(OL_AMOUNT) over the customer's delivered order lines (OL_DELIVERY_D not
 *       null) - sum(H_AMOUNT) over the customer's HISTORY rows;</li>
 *   <li>(not checked by {@link #check}: see below)</li>
 *   <li>C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT) over the customer's delivered order lines.</li>
 * </ol>
 *
 * <p>Condition 11, count(ORDER) - count(NEW-ORDER) = 2100 in each district, holds after loading
 * and as long as no delivery has run (new-order adds one row to both tables), but every delivery
 * adds one to the difference; {@link #checkWithoutDeliveries} includes it. Null dates and carriers
 * are 0 in this schema. Conditions 2 and 3 hold as written when new-order takes its id from
 * D_NEXT_O_ID inside the transaction (the strict policy of {@link TpccOrderIds}). Under the fast
 * policy ids have gaps (an id whose new-order rolled back is never used) and D_NEXT_O_ID is not
 * advanced, so both are checked in an exact form that accounts for every id taken: every id below
 * the district's counter is an ORDER row or a rolled-back id, and every id between min(NO_O_ID)
 * and max(NO_O_ID) is a NEW-ORDER row, a delivered order or a rolled-back id. A condition on a
 * single order or customer is reported once per district, naming the first offender and how many
 * there are.
 */
public final class TpccConsistency {
    /** count(ORDER) - count(NEW-ORDER) of every district after loading (condition 11). */
    static final int DELIVERED_AFTER_LOAD = TpccDatabase.FIRST_UNDELIVERED_ORDER - 1;

    /**
     * One violated condition.
     *
     * @param condition the condition's number in clause 3.3.2
     * @param warehouse the warehouse
     * @param district  the district, or 0 for a condition on the warehouse as a whole
     * @param detail    the values that disagree
     */
    public record Violation(int condition, int warehouse, int district, String detail) {
        public Violation {
            Objects.requireNonNull(detail, "detail");
        }

        @Override
        public String toString() {
            return "consistency condition " + condition + " violated at warehouse " + warehouse
                    + (district == 0 ? "" : ", district " + district) + ": " + detail;
        }
    }

    private TpccConsistency() {
    }

    /**
     * @return every violation of conditions 1 to 10 and 12 in {@code db}, warehouse by warehouse:
     *         its districts' in district order (each district's by condition), then its own
     *         (conditions 1 and 8); empty if none
     */
    public static List<Violation> check(TpccDatabase db) {
        return check(db, false);
    }

    /**
     * @return as {@link #check}, with condition 11 too (after each district's others): for a
     *         database that no delivery has touched since loading
     */
    public static List<Violation> checkWithoutDeliveries(TpccDatabase db) {
        return check(db, true);
    }

    private static List<Violation> check(TpccDatabase db, boolean withoutDeliveries) {
        HistorySums h = HistorySums.sums(db);
        List<Violation> out = new ArrayList<>();
        for (int w = 1; w <= db.warehouses(); w++) {
            Warehouse warehouse = db.warehouse.single().get(TpccKeys.warehouse(w));
            if (warehouse == null) {
                out.add(new Violation(1, w, 0, "the WAREHOUSE row is missing"));
                continue;
            }
            long districtYtd = 0;
            for (int d = 1; d <= TpccDatabase.DISTRICTS_PER_WAREHOUSE; d++) {
                District district = db.district.single().get(TpccKeys.district(w, d));
                if (district == null) {
                    out.add(new Violation(1, w, d, "the DISTRICT row is missing"));
                    continue;
                }
                District.Image di = district.single().get();
                districtYtd += di.ytd();
                boolean fast = db.orderIds.fast();
                int next = fast ? (int) db.orderIds.next(w, d) : di.nextOrderId();
                long[] abandoned = fast ? db.orderIds.abandoned(w, d) : null;
                new DistrictCheck(db, w, d, next, abandoned, out).run(di.ytd(), h, withoutDeliveries);
            }
            long ytd = warehouse.single().get().ytd();
            if (ytd != districtYtd) {
                out.add(new Violation(1, w, 0, "W_YTD = " + ytd + " but sum(D_YTD) = " + districtYtd));
            }
            if (ytd != h.byWarehouse[w]) {
                out.add(new Violation(8, w, 0, "W_YTD = " + ytd + " but sum(H_AMOUNT) = " + h.byWarehouse[w]));
            }
        }
        return out;
    }

    /** @return the index of customer (w, d, c) in per-customer arrays */
    private static int customerIndex(int w, int d, int c) {
        return ((w - 1) * TpccDatabase.DISTRICTS_PER_WAREHOUSE + d - 1) * (TpccDatabase.CUSTOMERS_PER_DISTRICT + 1) + c;
    }

    /** Sums of H_AMOUNT per warehouse, district and customer of HISTORY (conditions 8, 9 and 10). */
    private static final class HistorySums {
        final long[] byWarehouse;
        final long[] byDistrict;
        final long[] byCustomer;

        private HistorySums(int warehouses) {
            byWarehouse = new long[warehouses + 1];
            byDistrict = new long[(warehouses + 1) * (TpccDatabase.DISTRICTS_PER_WAREHOUSE + 1)];
            byCustomer = new long[customerIndex(warehouses + 1, 1, 0)];
        }

        static HistorySums sums(TpccDatabase db) {
            int warehouses = db.warehouses();
            HistorySums s = new HistorySums(warehouses);
            db.history.single().forEach((key, row) -> {
                History.Image im = row.single().get();
                int w = im.warehouseId();
                if (w >= 1 && w <= warehouses) {
                    s.byWarehouse[w] += im.amount();
                    int d = im.districtId();
                    if (d >= 1 && d <= TpccDatabase.DISTRICTS_PER_WAREHOUSE) {
                        s.byDistrict[w * (TpccDatabase.DISTRICTS_PER_WAREHOUSE + 1) + d] += im.amount();
                    }
                }
                int cw = im.customerWarehouseId();
                int cd = im.customerDistrictId();
                int c = im.customerId();
                if (cw >= 1 && cw <= warehouses && cd >= 1 && cd <= TpccDatabase.DISTRICTS_PER_WAREHOUSE
                        && c >= 1 && c <= TpccDatabase.CUSTOMERS_PER_DISTRICT) {
                    s.byCustomer[customerIndex(cw, cd, c)] += im.amount();
                }
            });
            return s;
        }

        long district(int w, int d) {
            return byDistrict[w * (TpccDatabase.DISTRICTS_PER_WAREHOUSE + 1) + d];
        }
    }

    /** Conditions 2 to 7 and 9 to 12 for one district. */
    private static final class DistrictCheck {
        private final TpccDatabase db;
        private final int w;
        private final int d;
        private final int nextOrderId;
        /** Sorted ids the fast order-id policy took and never used, or null under the strict policy. */
        private final long[] abandoned;
        private final List<Violation> out;
        private final long first;
        private final long last;

        DistrictCheck(TpccDatabase db, int w, int d, int nextOrderId, long[] abandoned, List<Violation> out) {
            this.abandoned = abandoned;
            this.db = db;
            this.w = w;
            this.d = d;
            this.nextOrderId = nextOrderId;
            this.out = out;
            this.first = TpccKeys.firstOrderOf(w, d);
            this.last = TpccKeys.lastOrderOf(w, d);
        }

        void run(long ytd, HistorySums h, boolean withoutDeliveries) {
            long[] maxOrder = {0};
            db.order.single().scan(first, true, last, true, 1, true, (key, order) -> {
                maxOrder[0] = TpccKeys.orderIdOfOrder(key);
                return true;
            });
            // Per order id: O_OL_CNT (-1: no ORDER row), carrier, customer, NEW-ORDER row, lines, delivered lines.
            int size = (int) Math.max(maxOrder[0], nextOrderId) + 1;
            int[] lineCount = new int[size];
            Arrays.fill(lineCount, -1);
            int[] carrier = new int[size];
            int[] customer = new int[size];
            boolean[] isNew = new boolean[size];
            int[] lines = new int[size];
            int[] deliveredLines = new int[size];
            long[] orders = {0, 0};     // ORDER rows, sum(O_OL_CNT)
            db.order.single().scan(first, true, last, true, Integer.MAX_VALUE, false, (key, order) -> {
                int o = (int) TpccKeys.orderIdOfOrder(key);
                Order.Image oi = order.single().get();
                lineCount[o] = oi.orderLineCount();
                carrier[o] = oi.carrierId();
                customer[o] = oi.customerId();
                orders[0]++;
                orders[1] += oi.orderLineCount();
                return true;
            });
            long[] newOrders = {Long.MAX_VALUE, 0, 0};     // min, max, count
            long[] orphanNewOrder = {0};
            db.newOrder.single().scan(first, true, last, true, Integer.MAX_VALUE, false, (key, order) -> {
                long o = TpccKeys.orderIdOfOrder(key);
                newOrders[0] = Math.min(newOrders[0], o);
                newOrders[1] = Math.max(newOrders[1], o);
                newOrders[2]++;
                if (o < size && lineCount[(int) o] >= 0) {
                    isNew[(int) o] = true;
                } else if (orphanNewOrder[0] == 0) {
                    orphanNewOrder[0] = o;
                }
                return true;
            });
            long[] allLines = {0};
            long[] orphanLine = {0};
            long[] delivered = new long[TpccDatabase.CUSTOMERS_PER_DISTRICT + 1];
            long lineShift = TpccKeys.ORDER_LINE_BITS;
            db.orderLine.single().scan(first << lineShift, true, last << lineShift | TpccKeys.MAX_ORDER_LINES, true,
                    Integer.MAX_VALUE, false, (key, line) -> {
                        allLines[0]++;
                        long o = TpccKeys.orderIdOfOrderLine(key);
                        if (o >= size || lineCount[(int) o] < 0) {
                            orphanLine[0] = orphanLine[0] == 0 ? o : orphanLine[0];
                            return true;
                        }
                        OrderLine.Image li = line.single().get();
                        lines[(int) o]++;
                        if (li.deliveryDate() != 0) {
                            deliveredLines[(int) o]++;
                            int c = customer[(int) o];
                            if (c >= 1 && c < delivered.length) {
                                delivered[c] += li.amount();
                            }
                        }
                        return true;
                    });

            if (abandoned == null) {
                if (nextOrderId - 1 != maxOrder[0]) {
                    add(2, "D_NEXT_O_ID - 1 = " + (nextOrderId - 1) + " but max(O_ID) = " + maxOrder[0]);
                }
                if (newOrders[2] > 0) {
                    if (nextOrderId - 1 != newOrders[1]) {
                        add(2, "D_NEXT_O_ID - 1 = " + (nextOrderId - 1) + " but max(NO_O_ID) = " + newOrders[1]);
                    }
                    long span = newOrders[1] - newOrders[0] + 1;
                    if (span != newOrders[2]) {
                        add(3, "max(NO_O_ID) - min(NO_O_ID) + 1 = " + span + " but the district has " + newOrders[2]
                                + " NEW-ORDER rows");
                    }
                }
            } else {
                checkFastIds(size, lineCount, carrier, isNew, newOrders);
            }
            if (allLines[0] != orders[1]) {
                add(4, "sum(O_OL_CNT) = " + orders[1] + " but the district has " + allLines[0] + " ORDER-LINE rows");
            }
            Offenders c5 = new Offenders();
            Offenders c6 = new Offenders();
            Offenders c7 = new Offenders();
            for (int o = 1; o < size; o++) {
                if (lineCount[o] < 0) {
                    continue;
                }
                boolean undelivered = carrier[o] == 0;
                if (undelivered != isNew[o]) {
                    c5.add(o, "O_CARRIER_ID = " + carrier[o] + (isNew[o] ? " with" : " without") + " a NEW-ORDER row");
                }
                if (lineCount[o] != lines[o]) {
                    c6.add(o, "O_OL_CNT = " + lineCount[o] + " but " + lines[o] + " ORDER-LINE rows");
                }
                int expected = undelivered ? 0 : lines[o];
                if (deliveredLines[o] != expected) {
                    c7.add(o, "O_CARRIER_ID = " + carrier[o] + " and " + deliveredLines[o] + " of its " + lines[o]
                            + " lines have OL_DELIVERY_D");
                }
            }
            if (orphanNewOrder[0] != 0) {
                c5.add(orphanNewOrder[0], "a NEW-ORDER row without an ORDER row");
            }
            if (orphanLine[0] != 0) {
                c6.add(orphanLine[0], "ORDER-LINE rows without an ORDER row");
            }
            c5.report(5, "order");
            c6.report(6, "order");
            c7.report(7, "order");
            if (ytd != h.district(w, d)) {
                add(9, "D_YTD = " + ytd + " but sum(H_AMOUNT) = " + h.district(w, d));
            }
            Offenders c10 = new Offenders();
            Offenders c12 = new Offenders();
            for (int c = 1; c <= TpccDatabase.CUSTOMERS_PER_DISTRICT; c++) {
                Customer row = db.customer.single().get(TpccKeys.customer(w, d, c));
                if (row == null) {
                    c10.add(c, "the CUSTOMER row is missing");
                    continue;
                }
                Customer.Image ci = row.single().get();
                long paid = h.byCustomer[customerIndex(w, d, c)];
                if (ci.balance() != delivered[c] - paid) {
                    c10.add(c, "C_BALANCE = " + ci.balance() + " but delivered sum(OL_AMOUNT) - sum(H_AMOUNT) = "
                            + delivered[c] + " - " + paid);
                }
                if (ci.balance() + ci.ytdPayment() != delivered[c]) {
                    c12.add(c, "C_BALANCE + C_YTD_PAYMENT = " + ci.balance() + " + " + ci.ytdPayment()
                            + " but delivered sum(OL_AMOUNT) = " + delivered[c]);
                }
            }
            c10.report(10, "customer");
            if (withoutDeliveries && orders[0] - newOrders[2] != DELIVERED_AFTER_LOAD) {
                add(11, "count(ORDER) - count(NEW-ORDER) = " + orders[0] + " - " + newOrders[2] + " but "
                        + DELIVERED_AFTER_LOAD + " before any delivery");
            }
            c12.report(12, "customer");
        }

        /**
         * Conditions 2 and 3 under the fast order-id policy, where ids have gaps: every id below
         * the district's counter is an ORDER row or abandoned (never both) and none is above it;
         * every id between the oldest and newest NEW-ORDER row is undelivered with a NEW-ORDER
         * row, delivered, or abandoned.
         */
        private void checkFastIds(int size, int[] lineCount, int[] carrier, boolean[] isNew, long[] newOrders) {
            boolean[] isAbandoned = new boolean[size];
            Offenders c2 = new Offenders();
            for (long o : abandoned) {
                if (o < 1 || o >= nextOrderId) {
                    c2.add(o, "abandoned id outside [1, " + (nextOrderId - 1) + "]");
                } else if (lineCount[(int) o] >= 0) {
                    c2.add(o, "has an ORDER row but its new-order was reported rolled back");
                } else {
                    isAbandoned[(int) o] = true;
                }
            }
            for (int o = 1; o < size; o++) {
                boolean present = lineCount[o] >= 0;
                if (o >= nextOrderId && present) {
                    c2.add(o, "ORDER row at or above the district's next order id " + nextOrderId);
                } else if (o < nextOrderId && !present && !isAbandoned[o]) {
                    c2.add(o, "taken below the next order id " + nextOrderId + " but neither an ORDER row nor rolled back");
                }
            }
            c2.report(2, "order id");
            if (newOrders[2] > 0) {
                Offenders c3 = new Offenders();
                for (long o = newOrders[0]; o <= newOrders[1]; o++) {
                    int i = (int) o;
                    boolean accounted = i < size && (isNew[i] || isAbandoned[i] || (lineCount[i] >= 0 && carrier[i] != 0));
                    if (!accounted) {
                        c3.add(o, "between min(NO_O_ID) = " + newOrders[0] + " and max(NO_O_ID) = " + newOrders[1]
                                + " but not a NEW-ORDER row, a delivered order or a rolled-back id");
                    }
                }
                c3.report(3, "order id");
            }
        }

        private void add(int condition, String detail) {
            out.add(new Violation(condition, w, d, detail));
        }

        /** The first row that breaks a per-row condition, and how many do. */
        private final class Offenders {
            private long count;
            private long firstId;
            private String firstDetail;

            void add(long id, String detail) {
                if (count++ == 0) {
                    firstId = id;
                    firstDetail = detail;
                }
            }

            void report(int condition, String what) {
                if (count > 0) {
                    DistrictCheck.this.add(condition, what + " " + firstId + ": " + firstDetail
                            + (count > 1 ? " (and " + (count - 1) + " more)" : ""));
                }
            }
        }
    }
}
