package io.jato.workloads.tpcc;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The consistency conditions of TPC-C clause 3.3.2 that hold right after loading and, for a run,
 * whatever the mix (now conditions 1 to 4), checked through the non-transactional views: call it
 * only while no transaction runs.
 *
 * <ol>
 *   <li>W_YTD = sum(D_YTD) over the warehouse's districts;</li>
 *   <li>D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) in each district (the NEW-ORDER part only when
 *       the district has NEW-ORDER rows);</li>
 *   <li>max(NO_O_ID) - min(NO_O_ID) + 1 = the number of NEW-ORDER rows in each district;</li>
 *   <li>sum(O_OL_CNT) = the number of ORDER-LINE rows in each district.</li>
 * </ol>
 */
public final class TpccConsistency {
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
     * @return every violation of conditions 1 to 4 in {@code db}, warehouse by warehouse: its
     *         districts' in district order, then its condition 1; empty if none
     */
    public static List<Violation> check(TpccDatabase db) {
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
                checkDistrict(db, w, d, di.nextOrderId(), out);
            }
            long ytd = warehouse.single().get().ytd();
            if (ytd != districtYtd) {
                out.add(new Violation(1, w, 0, "W_YTD = " + ytd + " but sum(D_YTD) = " + districtYtd));
            }
        }
        return out;
    }

    private static void checkDistrict(TpccDatabase db, int w, int d, int nextOrderId, List<Violation> out) {
        long first = TpccKeys.firstOrderOf(w, d);
        long last = TpccKeys.lastOrderOf(w, d);
        long[] maxOrder = {0};
        long[] lineCount = {0};
        db.order.single().scan(first, true, last, true, Integer.MAX_VALUE, false, (key, order) -> {
            maxOrder[0] = TpccKeys.orderIdOfOrder(key);
            lineCount[0] += order.single().get().orderLineCount();
            return true;
        });
        long[] newOrders = {Long.MAX_VALUE, 0, 0};     // min, max, count
        db.newOrder.single().scan(first, true, last, true, Integer.MAX_VALUE, false, (key, order) -> {
            long o = TpccKeys.orderIdOfOrder(key);
            newOrders[0] = Math.min(newOrders[0], o);
            newOrders[1] = Math.max(newOrders[1], o);
            newOrders[2]++;
            return true;
        });
        if (nextOrderId - 1 != maxOrder[0]) {
            out.add(new Violation(2, w, d, "D_NEXT_O_ID - 1 = " + (nextOrderId - 1) + " but max(O_ID) = " + maxOrder[0]));
        }
        if (newOrders[2] > 0) {
            if (nextOrderId - 1 != newOrders[1]) {
                out.add(new Violation(2, w, d, "D_NEXT_O_ID - 1 = " + (nextOrderId - 1) + " but max(NO_O_ID) = "
                        + newOrders[1]));
            }
            long span = newOrders[1] - newOrders[0] + 1;
            if (span != newOrders[2]) {
                out.add(new Violation(3, w, d, "max(NO_O_ID) - min(NO_O_ID) + 1 = " + span + " but the district has "
                        + newOrders[2] + " NEW-ORDER rows"));
            }
        }
        long[] lines = {0};
        long lineShift = TpccKeys.ORDER_LINE_BITS;
        db.orderLine.single().scan(first << lineShift, true, last << lineShift | TpccKeys.MAX_ORDER_LINES, true,
                Integer.MAX_VALUE, false, (key, line) -> {
                    lines[0]++;
                    return true;
                });
        if (lines[0] != lineCount[0]) {
            out.add(new Violation(4, w, d, "sum(O_OL_CNT) = " + lineCount[0] + " but the district has " + lines[0]
                    + " ORDER-LINE rows"));
        }
    }
}
