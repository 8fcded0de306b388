package io.jato.workloads.tpcc;

import io.jato.stm.TxnType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
        NEW_ORDER, PAYMENT, ORDER_STATUS, DELIVERY, STOCK_LEVEL;

        /**
         * The transaction type each run carries ({@code stm.run(type, ...)}), named as on the
         * command line: statistics per type, and Tebaldi's trees group transactions by it.
         */
        private final TxnType txnType = TxnType.of(cliName());

        /** @return the name on the command line and in reports: {@code new-order}, ... */
        String cliName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** @return the store's transaction type of this TPC-C transaction */
        TxnType txnType() {
            return txnType;
        }
    }

    /** The name of the standard mix on the command line ({@code --mix}). */
    static final String STANDARD = "standard";

    private static final Type[] TYPES = Type.values();
    /** Cumulative percentages in {@link Type} order. */
    private static final int[] CUMULATIVE = {45, 88, 92, 96, 100};

    private final SplittableRandom random;

    TpccMix(SplittableRandom random) {
        this.random = random;
    }

    /** @return {@link #STANDARD} and the five types' names: what {@code --mix} accepts */
    static List<String> cliNames() {
        List<String> names = new ArrayList<>();
        names.add(STANDARD);
        for (Type t : TYPES) {
            names.add(t.cliName());
        }
        return names;
    }

    /** @return the type named {@code cliName}, or null for {@link #STANDARD} */
    static Type byCliName(String cliName) {
        for (Type t : TYPES) {
            if (t.cliName().equals(cliName)) {
                return t;
            }
        }
        if (STANDARD.equals(cliName)) {
            return null;
        }
        throw new IllegalArgumentException("unknown TPC-C mix '" + cliName + "'; known: " + String.join(", ", cliNames()));
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
