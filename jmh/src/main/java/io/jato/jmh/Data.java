package io.jato.jmh;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Benchmark inputs, boxed once at set-up so no benchmark boxes on its measured path. Everything
 * is derived from fixed seeds, so the STM and the baseline states of one class see the same keys
 * in the same order.
 *
 * <p>Each benchmark thread draws its own sequence (seeded by its thread index): threads that walked
 * one shared sequence at slightly different speeds would periodically run in lockstep over the same
 * keys and conflict far more often than independent random accesses do.
 */
final class Data {
    /** Length of every key sequence (a power of two, so a cursor wraps with a mask). */
    static final int SEQUENCE_LENGTH = 1 << 16;
    static final int SEQUENCE_MASK = SEQUENCE_LENGTH - 1;

    /**
     * Balances are kept modulo this, so every balance a transfer can produce is one of
     * {@link #BALANCES}; the sum of all balances modulo it is what a transfer conserves.
     */
    static final int BALANCE_MODULUS = 1024;
    static final Long[] BALANCES = boxed(BALANCE_MODULUS);
    /** Every account's balance at load time. */
    static final Long INITIAL_BALANCE = BALANCES[BALANCE_MODULUS / 2];

    private Data() {
    }

    /** @return the keys {@code 0 .. n-1}, each boxed once */
    static Long[] keys(int n) {
        return boxed(n);
    }

    /** @return {@code n} references to {@code value} */
    static Long[] filled(int n, Long value) {
        Long[] a = new Long[n];
        Arrays.fill(a, value);
        return a;
    }

    /** @return {@link #SEQUENCE_LENGTH} keys drawn uniformly at random from {@code keys} */
    static Long[] randomSequence(Long[] keys, long seed, int threadIndex) {
        SplittableRandom rnd = new SplittableRandom(seed + threadIndex);
        Long[] seq = new Long[SEQUENCE_LENGTH];
        for (int i = 0; i < seq.length; i++) {
            seq[i] = keys[rnd.nextInt(keys.length)];
        }
        return seq;
    }

    /**
     * @return {@link #SEQUENCE_LENGTH} keys drawn at random from {@code keys} such that the keys at
     *         {@code 2i} and {@code 2i+1} differ: the (from, to) accounts of transfer {@code i}
     */
    static Long[] randomPairs(Long[] keys, long seed, int threadIndex) {
        if (keys.length < 2) {
            throw new IllegalArgumentException("transfers need at least two accounts, got " + keys.length);
        }
        SplittableRandom rnd = new SplittableRandom(seed + threadIndex);
        Long[] seq = new Long[SEQUENCE_LENGTH];
        for (int i = 0; i < seq.length; i += 2) {
            int from = rnd.nextInt(keys.length);
            int to = rnd.nextInt(keys.length - 1);
            if (to >= from) {
                to++;
            }
            seq[i] = keys[from];
            seq[i + 1] = keys[to];
        }
        return seq;
    }

    /**
     * @return {@link #SEQUENCE_LENGTH} operations {@code key << 1 | write}: keys drawn uniformly from
     *         {@code 0 .. keys-1}, {@code write} 1 with probability {@code writePercent / 100}
     */
    static int[] readWriteSequence(int keys, int writePercent, long seed, int threadIndex) {
        if (keys < 1 || keys > Integer.MAX_VALUE >> 1 || writePercent < 0 || writePercent > 100) {
            throw new IllegalArgumentException("keys " + keys + ", writePercent " + writePercent);
        }
        SplittableRandom rnd = new SplittableRandom(seed + threadIndex);
        int[] seq = new int[SEQUENCE_LENGTH];
        for (int i = 0; i < seq.length; i++) {
            int write = rnd.nextInt(100) < writePercent ? 1 : 0;
            seq[i] = rnd.nextInt(keys) << 1 | write;
        }
        return seq;
    }

    /** @return the pre-boxed balance {@code (balance + delta) mod BALANCE_MODULUS}; never allocates */
    static Long adjust(Long balance, int delta) {
        return BALANCES[(int) (balance + delta) & (BALANCE_MODULUS - 1)];
    }

    private static Long[] boxed(int n) {
        Long[] a = new Long[n];
        for (int i = 0; i < n; i++) {
            a[i] = Long.valueOf(i);
        }
        return a;
    }
}
