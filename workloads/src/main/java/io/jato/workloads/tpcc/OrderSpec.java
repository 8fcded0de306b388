package io.jato.workloads.tpcc;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/**
 * ORDER: O_CARRIER_ID in group {@code carrier} (written by delivery) apart from what new-order
 * writes once and order-status reads. A null carrier (undelivered order) is 0; O_ENTRY_D in epoch
 * milliseconds; O_ALL_LOCAL as a boolean. The (warehouse, district, order) triple is the key.
 */
@TxRecord(name = "Order")
final class OrderSpec {
    int customerId;
    long entryDate;
    int orderLineCount;
    boolean allLocal;
    @Group("carrier")
    int carrierId;

    private OrderSpec() {
    }
}
