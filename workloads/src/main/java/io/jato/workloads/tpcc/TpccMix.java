package io.jato.workloads.tpcc;

import io.jato.stm.TxnType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A transaction mix: each transaction's type is drawn independently with fixed weights (clause
 * 5.2.4.2 allows this as well as a deck of cards). The standard mix (clause 5.2.3) weighs new-order
 * 45%, payment 43%, order-status, delivery and stock-level 4% each: the spec's minimums for the
 * other four, new-order taking the rest. Other weights ({@code --mix new-order=10,stock-level=40,...})
 * give mixes the spec does not allow, e.g. one dominated by read-only transactions, to see how a
 * protocol copes with them. Deferring deliveries to a per-warehouse queue is the runner's
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
    /** The standard mix's weights in {@link Type} order: clause 5.2.3's percentages. */
    private static final int[] STANDARD_WEIGHTS = {45, 43, 4, 4, 4};
    /** The largest weight one type may have: keeps every sum of weights far from overflow. */
    static final int MAX_WEIGHT = 1_000_000;

    private final SplittableRandom random;
    /** Cumulative weights in {@link Type} order; the last is the total. */
    private final int[] cumulative;

    /** The standard mix. */
    TpccMix(SplittableRandom random) {
        this(random, STANDARD_WEIGHTS);
    }

    /**
     * @param weights one weight per {@link Type}, in its order, as {@link #parseWeights} returns
     *                them; at least one is positive
     */
    TpccMix(SplittableRandom random, int[] weights) {
        checkWeights(weights);
        this.random = random;
        this.cumulative = new int[TYPES.length];
        int sum = 0;
        for (int i = 0; i < TYPES.length; i++) {
            sum += weights[i];
            cumulative[i] = sum;
        }
    }

    /**
     * @return {@code weights}, if it holds one weight in [0, {@link #MAX_WEIGHT}] per type and at
     *         least one is positive
     * @throws IllegalArgumentException naming what is wrong
     */
    static int[] checkWeights(int[] weights) {
        if (weights.length != TYPES.length) {
            throw new IllegalArgumentException("a mix needs " + TYPES.length + " weights, one per type, got "
                    + weights.length);
        }
        boolean positive = false;
        for (int w : weights) {
            if (w < 0 || w > MAX_WEIGHT) {
                throw new IllegalArgumentException("mix weights must be in [0, " + MAX_WEIGHT + "], got " + w);
            }
            positive |= w > 0;
        }
        if (!positive) {
            throw new IllegalArgumentException("a mix needs a positive weight for some type");
        }
        return weights;
    }

    /** @return the standard mix's weights, in {@link Type} order (a copy) */
    static int[] standardWeights() {
        return STANDARD_WEIGHTS.clone();
    }

    /**
     * Parses weights as {@code --mix} takes them: {@code TYPE=WEIGHT} pairs separated by commas,
     * e.g. {@code new-order=10,payment=10,order-status=40,stock-level=40}. Types not named weigh 0;
     * weights are whole numbers, relative to their sum (they need not add up to 100).
     *
     * @return one weight per {@link Type}, in its order
     * @throws IllegalArgumentException naming the part that is wrong: not {@code TYPE=WEIGHT}, an
     *                                  unknown or repeated type, a weight that is not a whole number
     *                                  in [0, {@link #MAX_WEIGHT}], or weights that are all 0
     */
    static int[] parseWeights(String spec) {
        int[] weights = new int[TYPES.length];
        boolean[] given = new boolean[TYPES.length];
        for (String part : spec.split(",", -1)) {
            String p = part.trim();
            int eq = p.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("mix weight '" + p + "' is not TYPE=WEIGHT (e.g. stock-level=40)");
            }
            String name = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            Type t = null;
            for (Type c : TYPES) {
                if (c.cliName().equals(name)) {
                    t = c;
                }
            }
            if (t == null) {
                throw new IllegalArgumentException("unknown transaction type '" + name + "' in the mix '" + spec
                        + "'; known: " + String.join(", ", cliNames().subList(1, cliNames().size())));
            }
            if (given[t.ordinal()]) {
                throw new IllegalArgumentException("transaction type '" + name + "' is weighed twice in the mix '"
                        + spec + "'");
            }
            given[t.ordinal()] = true;
            String raw = p.substring(eq + 1).trim();
            int w;
            try {
                w = Integer.parseInt(raw);
            } catch (NumberFormatException e) {
                w = -1;
            }
            if (w < 0 || w > MAX_WEIGHT) {
                throw new IllegalArgumentException("the weight of " + name + " must be a whole number in [0, "
                        + MAX_WEIGHT + "], got '" + raw + "'");
            }
            weights[t.ordinal()] = w;
        }
        int sum = 0;
        for (int w : weights) {
            sum += w;
        }
        if (sum == 0) {
            throw new IllegalArgumentException("the mix '" + spec + "' weighs every type 0: give some type a positive"
                    + " weight");
        }
        return weights;
    }

    /**
     * @return the one type with a positive weight, or null if several have one: a mix of one type
     *         runs as that type alone (a delivery then cannot be deferred to another draw)
     */
    static Type soleType(int[] weights) {
        Type sole = null;
        for (int i = 0; i < TYPES.length; i++) {
            if (weights[i] > 0) {
                if (sole != null) {
                    return null;
                }
                sole = TYPES[i];
            }
        }
        return sole;
    }

    /** @return the mix's name in reports: {@link #STANDARD}, or its non-zero weights as {@code --mix} takes them */
    static String describe(int[] weights) {
        if (Arrays.equals(weights, STANDARD_WEIGHTS)) {
            return STANDARD;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < TYPES.length; i++) {
            if (weights[i] > 0) {
                sb.append(sb.length() == 0 ? "" : ",").append(TYPES[i].cliName()).append('=').append(weights[i]);
            }
        }
        return sb.toString();
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

    /** @return the next transaction type of the mix */
    Type next() {
        // The standard mix draws from [0, 100), as it did before weights were configurable: a
        // seed replays the same run.
        int p = random.nextInt(cumulative[cumulative.length - 1]);
        for (int i = 0; i < cumulative.length; i++) {
            if (p < cumulative[i]) {
                return TYPES[i];
            }
        }
        throw new AssertionError(p);
    }
}
