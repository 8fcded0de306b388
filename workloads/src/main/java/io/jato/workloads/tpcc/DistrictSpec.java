package io.jato.workloads.tpcc;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/**
 * DISTRICT: D_YTD in group {@code ytd} (payment) apart from name, address, tax and D_NEXT_O_ID
 * (new-order). Money in cents, tax in 1/10,000. The (warehouse, district) pair is the key.
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
    int nextOrderId;
    @Group("ytd")
    long ytd;

    private DistrictSpec() {
    }
}
