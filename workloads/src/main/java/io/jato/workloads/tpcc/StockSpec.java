package io.jato.workloads.tpcc;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/**
 * STOCK: what new-order writes (quantity, YTD, order count, remote count) in group
 * {@code quantity}, apart from S_DIST_01..10 and S_DATA, which it only reads. The (warehouse,
 * item) pair is the key.
 */
@TxRecord(name = "Stock")
final class StockSpec {
    @Group("quantity")
    int quantity;
    @Group("quantity")
    long ytd;
    @Group("quantity")
    int orderCount;
    @Group("quantity")
    int remoteCount;
    String dist01;
    String dist02;
    String dist03;
    String dist04;
    String dist05;
    String dist06;
    String dist07;
    String dist08;
    String dist09;
    String dist10;
    String data;

    private StockSpec() {
    }
}
