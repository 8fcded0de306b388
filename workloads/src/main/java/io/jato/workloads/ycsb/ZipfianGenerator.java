package io.jato.workloads.ycsb;

import java.util.SplittableRandom;

/**
 * One thread's generator of keys in {@code [0, n)} that follow a {@link ZipfianDistribution}.
 * Not thread-safe: each worker owns one, with its own {@link SplittableRandom}.
 *
 * <p>When scrambled (as YCSB's {@code ScrambledZipfianGenerator}), a rank is mapped to a key by an
 * FNV-1a hash modulo {@code n}, so the hot keys are spread over the key space instead of being
 * {@code 0, 1, 2...}: neighbours in the table (and in its hash buckets) are not all hot. The hash
 * is not a bijection: a few keys receive two ranks and a few none, as in YCSB. (YCSB draws the
 * ranks over a fixed ten billion items with theta fixed at 0.99; we draw them over {@code n} items,
 * so the hottest key's share is the one theta and {@code n} give.)
 */
public final class ZipfianGenerator {
    private static final long FNV_OFFSET_BASIS = 0xCBF29CE484222325L;
    private static final long FNV_PRIME = 0x100000001B3L;

    private final ZipfianDistribution distribution;
    private final SplittableRandom random;
    private final boolean scrambled;
    private final long items;

    /**
     * @param distribution the shared constants
     * @param random       this generator's own random source
     * @param scrambled    whether ranks are hashed to keys (ignored for theta = 0, which is uniform already)
     */
    public ZipfianGenerator(ZipfianDistribution distribution, SplittableRandom random, boolean scrambled) {
        this.distribution = distribution;
        this.random = random;
        this.scrambled = scrambled && distribution.theta() > 0;
        this.items = distribution.items();
    }

    /** @return the next key in {@code [0, n)} */
    public long next() {
        long rank = distribution.rank(random.nextDouble());
        return scrambled ? scramble(rank, items) : rank;
    }

    /** @return {@code rank} hashed into {@code [0, n)} with 64-bit FNV-1a over its eight bytes */
    static long scramble(long rank, long n) {
        long h = FNV_OFFSET_BASIS;
        long v = rank;
        for (int i = 0; i < 8; i++) {
            h ^= v & 0xFF;
            h *= FNV_PRIME;
            v >>>= 8;
        }
        return Long.remainderUnsigned(h, n);
    }
}
