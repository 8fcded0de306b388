package io.jato.workloads.tpcc;

import io.jato.records.TxRecord;

/** HISTORY: insert-only, never read by the transactions; one group. Amount in cents, date in epoch milliseconds. */
@TxRecord(name = "History")
final class HistorySpec {
    int customerId;
    int customerDistrictId;
    int customerWarehouseId;
    int districtId;
    int warehouseId;
    long date;
    long amount;
    String data;

    private HistorySpec() {
    }
}
