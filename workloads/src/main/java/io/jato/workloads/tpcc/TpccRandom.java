package io.jato.workloads.tpcc;

import java.util.SplittableRandom;

/**
 * TPC-C's random data (clause 4.3.2 and 2.1.6): uniform integers, NURand, a-strings and
 * n-strings, last names from the syllable table, and "ORIGINAL" data. Wraps a
 * {@link SplittableRandom}, so a seed makes every draw reproducible. Confined to one thread.
 */
final class TpccRandom {
    private static final String[] SYLLABLES = {
        "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING",
    };
    /** The 1000 last names, built once and shared by every customer (one String each). */
    private static final String[] LAST_NAMES = new String[1000];
    private static final char[] ALPHANUMERIC =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    static final String ORIGINAL = "ORIGINAL";

    static {
        for (int n = 0; n < LAST_NAMES.length; n++) {
            LAST_NAMES[n] = SYLLABLES[n / 100] + SYLLABLES[n / 10 % 10] + SYLLABLES[n % 10];
        }
    }

    /**
     * The constants C of NURand(A, x, y) (clause 2.1.6): one per A, for C_LAST (A = 255), C_ID
     * (A = 1023) and OL_I_ID (A = 8191).
     */
    record Constants(int cLast, int cId, int olIId) {
        Constants {
            if (cLast < 0 || cLast > 255 || cId < 0 || cId > 1023 || olIId < 0 || olIId > 8191) {
                throw new IllegalArgumentException("NURand constants out of range: " + cLast + ", " + cId + ", " + olIId);
            }
        }

        /** @return constants for loading, each uniform in [0, A] */
        static Constants forLoad(SplittableRandom random) {
            return new Constants(random.nextInt(256), random.nextInt(1024), random.nextInt(8192));
        }

        /**
         * @return constants for a run after a load with {@code load}: C_ID and OL_I_ID drawn afresh,
         *         C_LAST such that delta = |C_run - C_load| is in [65, 119] and neither 96 nor 112
         *         (clause 2.1.6.1)
         */
        static Constants forRun(Constants load, SplittableRandom random) {
            int cLast;
            do {
                cLast = random.nextInt(256);
            } while (!validRunDelta(Math.abs(cLast - load.cLast)));
            return new Constants(cLast, random.nextInt(1024), random.nextInt(8192));
        }

        /** @return whether {@code delta} between run and load C_LAST satisfies clause 2.1.6.1 */
        static boolean validRunDelta(int delta) {
            return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
        }
    }

    private final SplittableRandom random;

    TpccRandom(long seed) {
        this.random = new SplittableRandom(seed);
    }

    TpccRandom(SplittableRandom random) {
        this.random = random;
    }

    /** @return a uniform integer in [min, max] */
    int uniform(int min, int max) {
        return min + random.nextInt(max - min + 1);
    }

    /** @return a uniform long in [min, max] */
    long uniform(long min, long max) {
        return random.nextLong(min, max + 1);
    }

    /** @return NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x */
    int nuRand(int a, int c, int x, int y) {
        return (((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x;
    }

    /** @return a customer's last-name number for a run or a load with constants {@code k}: NURand(255, 0, 999) */
    int lastNameNumber(Constants k) {
        return nuRand(255, k.cLast(), 0, 999);
    }

    /** @return a customer id: NURand(1023, 1, 3000) */
    int customerId(Constants k) {
        return nuRand(1023, k.cId(), 1, 3000);
    }

    /** @return an item id: NURand(8191, 1, 100000) */
    int itemId(Constants k) {
        return nuRand(8191, k.olIId(), 1, 100_000);
    }

    /** @return the last name with number {@code n} in [0, 999]: three syllables, one per decimal digit */
    static String lastName(int n) {
        if (n < 0 || n >= LAST_NAMES.length) {
            throw new IllegalArgumentException("last-name number " + n + " is outside [0, 999]");
        }
        return LAST_NAMES[n];
    }

    /** @return a random a-string (letters and digits) of length uniform in [min, max] */
    String aString(int min, int max) {
        char[] c = new char[uniform(min, max)];
        for (int i = 0; i < c.length; i++) {
            c[i] = ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)];
        }
        return new String(c);
    }

    /** @return a random n-string (digits) of length uniform in [min, max] */
    String nString(int min, int max) {
        char[] c = new char[uniform(min, max)];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(c);
    }

    /** @return a zip code: a random n-string of 4 followed by "11111" (clause 4.3.2.7) */
    String zip() {
        return nString(4, 4) + "11111";
    }

    /** @return a state: two random letters */
    String state() {
        char[] c = {(char) ('A' + random.nextInt(26)), (char) ('A' + random.nextInt(26))};
        return new String(c);
    }

    /**
     * @return I_DATA / S_DATA: an a-string of [26, 50] characters; in 10% of the rows "ORIGINAL"
     *         replaces 8 characters at a random position (clause 4.3.3.1)
     */
    String data() {
        String s = aString(26, 50);
        if (random.nextInt(10) != 0) {
            return s;
        }
        int at = random.nextInt(s.length() - ORIGINAL.length() + 1);
        return s.substring(0, at) + ORIGINAL + s.substring(at + ORIGINAL.length());
    }

    /** @return true with probability {@code percent}/100 */
    boolean percent(int percent) {
        return random.nextInt(100) < percent;
    }

    /** Fills {@code a} with a random permutation of 1..a.length (Fisher-Yates). */
    void permutation(int[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] = i + 1;
        }
        for (int i = a.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
