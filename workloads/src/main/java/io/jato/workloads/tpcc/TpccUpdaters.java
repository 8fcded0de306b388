package io.jato.workloads.tpcc;

import io.jato.records.CommitUpdater;
import io.jato.records.Commutative;

/**
 * The commit-time updaters of the CU modes. Each is plain data (final parameters only) and runs at
 * commit on its record's locked group, so the transaction that issues it takes no read dependency
 * on the columns it changes. Additions are {@link Commutative}; the others depend on the value
 * they replace or overwrite it, so they are {@link CommitUpdater}s, applied in commit order.
 * Without CU the transactions make the same changes as read-modify-writes.
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

    /** Payment: W_YTD += amount. */
    @Commutative(record = WarehouseSpec.class, group = "ytd")
    static final class WarehouseYtd implements Warehouse.Updater {
        private final long amount;

        WarehouseYtd(long amount) {
            this.amount = amount;
        }

        @Override
        public void apply(Warehouse.Image w) {
            w.setYtd(w.ytd() + amount);
        }
    }

    /** Payment: D_YTD += amount. */
    @Commutative(record = DistrictSpec.class, group = "ytd")
    static final class DistrictYtd implements District.Updater {
        private final long amount;

        DistrictYtd(long amount) {
            this.amount = amount;
        }

        @Override
        public void apply(District.Image d) {
            d.setYtd(d.ytd() + amount);
        }
    }

    /**
     * Payment: C_BALANCE -= amount, C_YTD_PAYMENT += amount, C_PAYMENT_CNT + 1 and, for a customer
     * with bad credit, C_DATA = the payment's description followed by the old C_DATA (not
     * commutative for such customers: C_DATA keeps the order of payments).
     */
    @CommitUpdater(record = CustomerSpec.class, group = "balance")
    static final class CustomerPayment implements Customer.Updater {
        private final long amount;
        /** The text to put in front of C_DATA, or null for a customer with good credit. */
        private final String badCreditPrefix;

        CustomerPayment(long amount, String badCreditPrefix) {
            this.amount = amount;
            this.badCreditPrefix = badCreditPrefix;
        }

        @Override
        public void apply(Customer.Image c) {
            c.setBalance(c.balance() - amount)
                    .setYtdPayment(c.ytdPayment() + amount)
                    .setPaymentCount(c.paymentCount() + 1);
            if (badCreditPrefix != null) {
                c.setData(badCreditData(badCreditPrefix, c.data()));
            }
        }
    }

    /** Delivery: C_BALANCE += the order's amount, C_DELIVERY_CNT + 1. */
    @Commutative(record = CustomerSpec.class, group = "balance")
    static final class CustomerDelivery implements Customer.Updater {
        private final long amount;

        CustomerDelivery(long amount) {
            this.amount = amount;
        }

        @Override
        public void apply(Customer.Image c) {
            c.setBalance(c.balance() + amount).setDeliveryCount(c.deliveryCount() + 1);
        }
    }

    /** Delivery: O_CARRIER_ID = carrier. */
    @CommitUpdater(record = OrderSpec.class, group = "carrier")
    static final class OrderCarrier implements Order.Updater {
        private final int carrier;

        OrderCarrier(int carrier) {
            this.carrier = carrier;
        }

        @Override
        public void apply(Order.Image o) {
            o.setCarrierId(carrier);
        }
    }

    /** Delivery: OL_DELIVERY_D = date. */
    @CommitUpdater(record = OrderLineSpec.class, group = "delivery")
    static final class OrderLineDelivery implements OrderLine.Updater {
        private final long date;

        OrderLineDelivery(long date) {
            this.date = date;
        }

        @Override
        public void apply(OrderLine.Image l) {
            l.setDeliveryDate(date);
        }
    }

    /**
     * New-order: S_QUANTITY by the rule of clause 2.4.2.2, S_YTD += quantity, S_ORDER_CNT + 1 and,
     * for a remote supplier, S_REMOTE_CNT + 1. The quantity rule depends on the current quantity,
     * so two of these do not commute.
     */
    @CommitUpdater(record = StockSpec.class, group = "quantity")
    static final class StockOrder implements Stock.Updater {
        private final int quantity;
        private final boolean remote;

        StockOrder(int quantity, boolean remote) {
            this.quantity = quantity;
            this.remote = remote;
        }

        @Override
        public void apply(Stock.Image s) {
            s.setQuantity(stockQuantityAfter(s.quantity(), quantity))
                    .setYtd(s.ytd() + quantity)
                    .setOrderCount(s.orderCount() + 1)
                    .setRemoteCount(s.remoteCount() + (remote ? 1 : 0));
        }
    }
}
