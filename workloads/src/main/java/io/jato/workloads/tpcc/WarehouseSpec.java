package io.jato.workloads.tpcc;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/**
 * WAREHOUSE (TPC-C clause 1.3): W_YTD in group {@code ytd}, written by every payment, apart from
 * the name, address and tax that new-order and payment read. Money in cents, tax in units of
 * 1/10,000 (0.0000..0.2000 as 0..2000). The warehouse id is the key.
 */
@TxRecord(name = "Warehouse")
final class WarehouseSpec {
    String name;
    String street1;
    String street2;
    String city;
    String state;
    String zip;
    int tax;
    @Group("ytd")
    long ytd;

    private WarehouseSpec() {
    }
}
