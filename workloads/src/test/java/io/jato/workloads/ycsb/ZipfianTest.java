package io.jato.workloads.ycsb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Zipfian generator against the analytical distribution. */
class ZipfianTest {
    private static final int DRAWS = 1_000_000;

    @ParameterizedTest
    @ValueSource(doubles = {0.0, 0.5, 0.9, 0.99})
    void zetaMatchesTheDirectSum(double theta) {
        for (long n : new long[] {1, 2, 3, 4096, 4097, 1_000_000}) {
            double direct = ZipfianDistribution.directSum(1, n, theta);
            double fast = ZipfianDistribution.zeta(n, theta);
            assertEquals(direct, fast, direct * 1e-12, "zeta(" + n + ", " + theta + ")");
        }
    }

    @Test
    void thetaZeroIsUniform() {
        int n = 100;
        ZipfianGenerator g = new ZipfianGenerator(new ZipfianDistribution(n, 0.0), new SplittableRandom(1), true);
        long[] counts = new long[n];
        for (int i = 0; i < DRAWS; i++) {
            counts[(int) g.next()]++;
        }
        double expected = (double) DRAWS / n;
        double chi2 = 0;
        for (long c : counts) {
            chi2 += (c - expected) * (c - expected) / expected;
        }
        // 99 degrees of freedom: mean 99, standard deviation 14; 200 is far in the tail.
        assertTrue(chi2 < 200, "chi-square " + chi2);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 0.9, 0.99})
    void hottestRanksHaveTheirAnalyticalFrequency(double theta) {
        int n = 10_000;
        ZipfianDistribution d = new ZipfianDistribution(n, theta);
        ZipfianGenerator g = new ZipfianGenerator(d, new SplittableRandom(7), false);
        long[] counts = new long[n];
        for (int i = 0; i < DRAWS; i++) {
            long k = g.next();
            assertTrue(k >= 0 && k < n, "rank out of range: " + k);
            counts[(int) k]++;
        }
        for (int r = 0; r < 2; r++) {
            double p = d.probability(r);
            double sigma = Math.sqrt(p * (1 - p) / DRAWS);
            double f = (double) counts[r] / DRAWS;
            assertEquals(p, f, 5 * sigma, "frequency of rank " + r + " at theta " + theta);
        }
        // The tail is an approximation (Gray et al.): the hottest 10% still get about their share.
        double hotShare = 0;
        long hotCount = 0;
        for (int r = 0; r < n / 10; r++) {
            hotShare += d.probability(r);
            hotCount += counts[r];
        }
        assertEquals(hotShare, (double) hotCount / DRAWS, 0.02, "share of the hottest 10% at theta " + theta);
    }

    @Test
    void scrambledKeysStayInRangeAndSpreadTheHotOnes() {
        for (long n : new long[] {1, 2, 3, 17, 1000, 1L << 30}) {
            ZipfianGenerator g = new ZipfianGenerator(new ZipfianDistribution(n, 0.99), new SplittableRandom(3), true);
            for (int i = 0; i < 100_000; i++) {
                long k = g.next();
                assertTrue(k >= 0 && k < n, "key " + k + " out of [0, " + n + ")");
            }
        }
        long n = 1_000_000;
        long hot0 = ZipfianGenerator.scramble(0, n);
        long hot1 = ZipfianGenerator.scramble(1, n);
        assertTrue(hot0 != hot1 && hot0 != 0, "hot keys " + hot0 + ", " + hot1);
    }

    @Test
    void rejectsThetaOutsideTheRange() {
        assertThrows(IllegalArgumentException.class, () -> new ZipfianDistribution(10, 1.0));
        assertThrows(IllegalArgumentException.class, () -> new ZipfianDistribution(10, -0.1));
        assertThrows(IllegalArgumentException.class, () -> new ZipfianDistribution(10, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new ZipfianDistribution(0, 0.5));
    }
}
