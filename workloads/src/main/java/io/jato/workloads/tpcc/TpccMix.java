package io.jato.workloads.tpcc;

import java.util.SplittableRandom;

/**
 * The standard transaction mix (clause 5.2.3): new-order 45%, payment 43%, order-status, delivery
 * and stock-level 4% each: the spec's minimums for the other four, new-order taking the rest.
 * Each transaction's type is drawn independently with these weights (clause 5.2.4.2 allows this as
 * well as a deck of cards). Deferring deliveries to a per-warehouse queue is the runner's
 * business: the mix only says that a delivery is due.
 */
final class TpccMix {
    /** The five transaction types, in the order of clause 2. */
    enum Type {
        NEW_ORDER, PAYMENT, ORDER_STATUS, DELIVERY, STOCK_LEVEL
    }

    private static final Type[] TYPES = Type.values();
    /** Cumulative percentages in {@link Type} order. */
    private static final int[] CUMULATIVE = {45, 88, 92, 96, 100};

    private final SplittableRandom random;

    TpccMix(SplittableRandom random) {
        this.random = random;
    }

    /** @return the next transaction type of the standard mix */
    Type next() {
        int p = random.nextInt(100);
        for (int i = 0; i < CUMULATIVE.length; i++) {
            if (p < CUMULATIVE[i]) {
                return TYPES[i];
            }
        }
        throw new AssertionError(p);
    }
}
