package io.jato.workloads.tpcc;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/**
 * DISTRICT, split by who writes what: D_YTD in group {@code ytd} (payment's write), D_NEXT_O_ID in
 * group {@code nextOrder} (new-order's read-modify-write), and the rarely written name, address and
 * tax in the default group that both read. With D_NEXT_O_ID in the default group, every new-order
 * would invalidate each concurrent payment's read of the district name (an experiment showed ~20×
 * more read-validation aborts in cu+ts mode). Money in cents, tax in 1/10,000. The (warehouse,
 * district) pair is the key.
 */
@TxRecord(name = "District")
final class DistrictSpec {
    String name;
    String street1;
    String street2;
    String city;
    String state;
    String zip;
    int tax;
    @Group("nextOrder")
    int nextOrderId;
    @Group("ytd")
    long ytd;

    private DistrictSpec() {
    }
}
