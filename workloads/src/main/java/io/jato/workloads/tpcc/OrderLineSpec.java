package io.jato.workloads.tpcc;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/**
 * ORDER-LINE: OL_DELIVERY_D in group {@code delivery} (written by delivery) apart from the rest,
 * which new-order writes once and order-status and stock-level read. A null delivery date is 0;
 * amount in cents. The (warehouse, district, order, number) quadruple is the key.
 */
@TxRecord(name = "OrderLine")
final class OrderLineSpec {
    int itemId;
    int supplyWarehouseId;
    int quantity;
    long amount;
    String distInfo;
    @Group("delivery")
    long deliveryDate;

    private OrderLineSpec() {
    }
}
