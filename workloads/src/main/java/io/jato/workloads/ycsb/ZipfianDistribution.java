package io.jato.workloads.ycsb;

/*
 * The generator is the rejection-free method of Gray et al., "Quickly generating billion-record
 * synthetic databases" (SIGMOD 1994), which YCSB uses. With zeta(n) = sum_{i=1..n} i^-theta, rank r
 * (0-based) has probability (r+1)^-theta / zeta(n). A uniform u in [0,1) maps to
 *
 *     rank 0                                  if u * zeta(n) < 1
 *     rank 1                                  if u * zeta(n) < 1 + 2^-theta
 *     floor(n * (eta * u - eta + 1)^alpha)    otherwise,
 *
 * with alpha = 1 / (1 - theta) and eta = (1 - (2/n)^(1 - theta)) / (1 - zeta(2) / zeta(n)). Ranks 0
 * and 1 get exactly their probability; the rest follow a continuous approximation of the tail,
 * which is what YCSB and the seed papers' benchmarks measure with. theta = 0 is plain uniform.
 *
 * zeta(n) is the only expensive part: a direct sum costs n calls to pow (about 0.2 s for ten million
 * records). We sum the first terms directly and the tail with the Euler-Maclaurin formula, whose
 * error with three correction terms from i = 1024 on is far below double rounding, so the cost is
 * constant in n.
 */

/**
 * The immutable constants of a Zipfian distribution over ranks {@code 0..n-1} with skew
 * {@code theta} in {@code [0, 1)}. Computed once per run and shared by every thread's
 * {@link ZipfianGenerator}; it holds no mutable state.
 */
public final class ZipfianDistribution {
    /** Below this many items zeta is summed directly; above, the tail uses Euler-Maclaurin. */
    static final long DIRECT_SUM_LIMIT = 4096;
    private static final long TAIL_START = 1024;

    private final long items;
    private final double theta;
    private final double zetaN;
    private final double alpha;
    private final double eta;
    private final double rankOneLimit;

    /**
     * @param items the number of ranks, at least 1
     * @param theta the skew, in {@code [0, 1)}; 0 is uniform
     */
    public ZipfianDistribution(long items, double theta) {
        if (items < 1) {
            throw new IllegalArgumentException("items must be >= 1, got " + items);
        }
        if (!(theta >= 0 && theta < 1)) {
            throw new IllegalArgumentException("theta must be in [0, 1), got " + theta);
        }
        this.items = items;
        this.theta = theta;
        this.zetaN = zeta(items, theta);
        this.alpha = 1.0 / (1.0 - theta);
        this.rankOneLimit = 1.0 + Math.pow(0.5, theta);
        // For n <= 2 the two exact branches cover every u, and eta would divide by zero.
        this.eta = items <= 2 ? 0.0
                : (1.0 - Math.pow(2.0 / items, 1.0 - theta)) / (1.0 - zeta(2, theta) / zetaN);
    }

    /** @return the number of ranks */
    public long items() {
        return items;
    }

    /** @return the skew */
    public double theta() {
        return theta;
    }

    /** @return zeta(n) = sum of i^-theta for i in 1..n */
    public double zetaN() {
        return zetaN;
    }

    /** @return the exact probability of rank {@code r} (0-based) under the Zipf law */
    public double probability(long r) {
        if (r < 0 || r >= items) {
            throw new IllegalArgumentException("rank " + r + " out of [0, " + items + ")");
        }
        return Math.pow(r + 1, -theta) / zetaN;
    }

    /** @return the rank for a uniform {@code u} in {@code [0, 1)}; the hottest rank is 0 */
    public long rank(double u) {
        if (theta == 0.0) {
            return Math.min((long) (u * items), items - 1);
        }
        double uz = u * zetaN;
        if (uz < 1.0) {
            return 0;
        }
        if (uz < rankOneLimit) {
            return 1;
        }
        long r = (long) (items * Math.pow(eta * u - eta + 1.0, alpha));
        return Math.min(r, items - 1);
    }

    /** @return sum_{i=1..n} i^-theta for {@code theta} in {@code [0, 1)} */
    public static double zeta(long n, double theta) {
        if (n <= DIRECT_SUM_LIMIT) {
            return directSum(1, n, theta);
        }
        return directSum(1, TAIL_START - 1, theta) + eulerMaclaurinTail(TAIL_START, n, theta);
    }

    /** @return sum_{i=from..to} i^-theta, adding the small terms first */
    static double directSum(long from, long to, double theta) {
        double sum = 0.0;
        for (long i = to; i >= from; i--) {
            sum += Math.pow(i, -theta);
        }
        return sum;
    }

    /**
     * sum_{i=a..b} f(i) for f(x) = x^-theta, by Euler-Maclaurin: the integral, the end-point mean
     * and the corrections with B2/2!, B4/4!, B6/6! times the odd derivatives' differences.
     */
    private static double eulerMaclaurinTail(long a, long b, double theta) {
        double t = theta;
        double integral = t == 0.0 ? b - a : (Math.pow(b, 1 - t) - Math.pow(a, 1 - t)) / (1 - t);
        double ends = (Math.pow(a, -t) + Math.pow(b, -t)) / 2;
        double c1 = -t;
        double c3 = -t * (t + 1) * (t + 2);
        double c5 = -t * (t + 1) * (t + 2) * (t + 3) * (t + 4);
        double d1 = c1 * (Math.pow(b, -t - 1) - Math.pow(a, -t - 1));
        double d3 = c3 * (Math.pow(b, -t - 3) - Math.pow(a, -t - 3));
        double d5 = c5 * (Math.pow(b, -t - 5) - Math.pow(a, -t - 5));
        return integral + ends + d1 / 12 - d3 / 720 + d5 / 30240;
    }
}
