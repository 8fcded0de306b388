package io.jato.workloads.tpcc;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/**
 * CUSTOMER: what payment and delivery write (balance, YTD payment, payment and delivery counts,
 * C_DATA) in group {@code balance}, apart from the name, address and credit terms that new-order,
 * payment and order-status only read. Money in cents, discount in 1/10,000 (0..5000), C_SINCE in
 * epoch milliseconds. The (warehouse, district, customer) triple is the key.
 */
@TxRecord(name = "Customer")
final class CustomerSpec {
    String first;
    String middle;
    String last;
    String street1;
    String street2;
    String city;
    String state;
    String zip;
    String phone;
    long since;
    String credit;
    long creditLimit;
    int discount;
    @Group("balance")
    long balance;
    @Group("balance")
    long ytdPayment;
    @Group("balance")
    int paymentCount;
    @Group("balance")
    int deliveryCount;
    @Group("balance")
    String data;

    private CustomerSpec() {
    }
}
