package io.jato.workloads.tpcc;

import io.jato.records.CommitUpdater;
import io.jato.records.Commutative;

/**
 * The commit-time updaters of the CU modes. Each runs at commit on its record's locked group, so
 * the transaction that issues it takes no read dependency on the columns it changes. Additions are
 * {@link Commutative}; the others depend on the value they replace or overwrite it, so they are
 * {@link CommitUpdater}s, applied in commit order. Without CU the transactions make the same
 * changes as read-modify-writes.
 *
 * <p>All but one take their value as the call's {@code long} operand ({@code LongUpdater}): one
 * constant instance serves every call, so scheduling an update allocates nothing (an updater
 * object per update was 19% of what a cu+ts worker allocated). Payment of a bad-credit customer
 * keeps an object ({@link CustomerPayment}): its C_DATA text is a reference, and building it
 * allocates anyway.
 */
final class TpccUpdaters {
    /** C_DATA keeps at most this many characters (clause 2.5.2.2). */
    static final int CUSTOMER_DATA_LENGTH = 500;

    private TpccUpdaters() {
    }

    /** @return {@code prefix} followed by {@code data}, cut to {@link #CUSTOMER_DATA_LENGTH} */
    static String badCreditData(String prefix, String data) {
        String s = prefix + data;
        return s.length() <= CUSTOMER_DATA_LENGTH ? s : s.substring(0, CUSTOMER_DATA_LENGTH);
    }

    /** @return S_QUANTITY after ordering {@code ordered} of it (clause 2.4.2.2) */
    static int stockQuantityAfter(int quantity, int ordered) {
        return quantity >= ordered + 10 ? quantity - ordered : quantity - ordered + 91;
    }

    /** Payment: W_YTD += the operand (the amount). */
    @Commutative(record = WarehouseSpec.class, group = "ytd")
    static final class WarehouseYtd implements Warehouse.LongUpdater {
        static final WarehouseYtd INSTANCE = new WarehouseYtd();

        private WarehouseYtd() {
        }

        @Override
        public void apply(Warehouse.Image w, long amount) {
            w.setYtd(w.ytd() + amount);
        }
    }

    /** Payment: D_YTD += the operand (the amount). */
    @Commutative(record = DistrictSpec.class, group = "ytd")
    static final class DistrictYtd implements District.LongUpdater {
        static final DistrictYtd INSTANCE = new DistrictYtd();

        private DistrictYtd() {
        }

        @Override
        public void apply(District.Image d, long amount) {
            d.setYtd(d.ytd() + amount);
        }
    }

    /**
     * Payment of a customer with good credit: C_BALANCE -= the operand (the amount),
     * C_YTD_PAYMENT += it, C_PAYMENT_CNT + 1. A {@link CommitUpdater} like {@link CustomerPayment},
     * which orders payments on the same group, so both kinds of payment keep one commit order.
     */
    @CommitUpdater(record = CustomerSpec.class, group = "balance")
    static final class CustomerGoodCreditPayment implements Customer.LongUpdater {
        static final CustomerGoodCreditPayment INSTANCE = new CustomerGoodCreditPayment();

        private CustomerGoodCreditPayment() {
        }

        @Override
        public void apply(Customer.Image c, long amount) {
            c.setBalance(c.balance() - amount)
                    .setYtdPayment(c.ytdPayment() + amount)
                    .setPaymentCount(c.paymentCount() + 1);
        }
    }

    /**
     * Payment of a customer with bad credit: as {@link CustomerGoodCreditPayment}, and C_DATA = the
     * payment's description followed by the old C_DATA (not commutative: C_DATA keeps the order of
     * payments).
     */
    @CommitUpdater(record = CustomerSpec.class, group = "balance")
    static final class CustomerPayment implements Customer.Updater {
        private final long amount;
        /** The text to put in front of C_DATA. */
        private final String badCreditPrefix;

        CustomerPayment(long amount, String badCreditPrefix) {
            this.amount = amount;
            this.badCreditPrefix = badCreditPrefix;
        }

        @Override
        public void apply(Customer.Image c) {
            CustomerGoodCreditPayment.INSTANCE.apply(c, amount);
            c.setData(badCreditData(badCreditPrefix, c.data()));
        }
    }

    /** Delivery: C_BALANCE += the operand (the order's amount), C_DELIVERY_CNT + 1. */
    @Commutative(record = CustomerSpec.class, group = "balance")
    static final class CustomerDelivery implements Customer.LongUpdater {
        static final CustomerDelivery INSTANCE = new CustomerDelivery();

        private CustomerDelivery() {
        }

        @Override
        public void apply(Customer.Image c, long amount) {
            c.setBalance(c.balance() + amount).setDeliveryCount(c.deliveryCount() + 1);
        }
    }

    /** Delivery: O_CARRIER_ID = the operand. */
    @CommitUpdater(record = OrderSpec.class, group = "carrier")
    static final class OrderCarrier implements Order.LongUpdater {
        static final OrderCarrier INSTANCE = new OrderCarrier();

        private OrderCarrier() {
        }

        @Override
        public void apply(Order.Image o, long carrier) {
            o.setCarrierId((int) carrier);
        }
    }

    /** Delivery: OL_DELIVERY_D = the operand. */
    @CommitUpdater(record = OrderLineSpec.class, group = "delivery")
    static final class OrderLineDelivery implements OrderLine.LongUpdater {
        static final OrderLineDelivery INSTANCE = new OrderLineDelivery();

        private OrderLineDelivery() {
        }

        @Override
        public void apply(OrderLine.Image l, long date) {
            l.setDeliveryDate(date);
        }
    }

    /**
     * New-order: S_QUANTITY by the rule of clause 2.4.2.2, S_YTD += quantity, S_ORDER_CNT + 1 and,
     * for a remote supplier, S_REMOTE_CNT + 1; the operand packs the quantity and the remote flag
     * ({@link #operand}). The quantity rule depends on the current quantity, so two of these do not
     * commute.
     */
    @CommitUpdater(record = StockSpec.class, group = "quantity")
    static final class StockOrder implements Stock.LongUpdater {
        static final StockOrder INSTANCE = new StockOrder();

        private StockOrder() {
        }

        /** @return the operand for ordering {@code quantity} (1..10) from a remote or the home warehouse */
        static long operand(int quantity, boolean remote) {
            return (long) quantity << 1 | (remote ? 1 : 0);
        }

        @Override
        public void apply(Stock.Image s, long operand) {
            int quantity = (int) (operand >>> 1);
            s.setQuantity(stockQuantityAfter(s.quantity(), quantity))
                    .setYtd(s.ytd() + quantity)
                    .setOrderCount(s.orderCount() + 1)
                    .setRemoteCount(s.remoteCount() + (int) (operand & 1));
        }
    }
}
