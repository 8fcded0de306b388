package io.jato.workloads.tpcc;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NURand, the constants' delta rule, last names and the ORIGINAL fraction. */
class TpccRandomTest {
    private static final int DRAWS = 1_000_000;

    @Test
    void nuRandStaysInRangeAndIsNonUniform() {
        TpccRandom r = new TpccRandom(1);
        TpccRandom.Constants k = new TpccRandom.Constants(123, 259, 7911);
        int[] counts = new int[3001];
        for (int i = 0; i < DRAWS; i++) {
            int c = r.customerId(k);
            assertTrue(c >= 1 && c <= 3000, "customer id " + c);
            counts[c]++;
        }
        // Uniform would give each id about 333 draws; NURand's OR makes some ids several times as
        // likely as others.
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (int c = 1; c <= 3000; c++) {
            min = Math.min(min, counts[c]);
            max = Math.max(max, counts[c]);
        }
        assertTrue(max > 3 * min, "max " + max + ", min " + min);
        for (int i = 0; i < DRAWS; i++) {
            int item = r.itemId(k);
            assertTrue(item >= 1 && item <= 100_000, "item id " + item);
            int last = r.lastNameNumber(k);
            assertTrue(last >= 0 && last <= 999, "last-name number " + last);
        }
    }

    @Test
    void nuRandHitsTheEndsOfItsRange() {
        TpccRandom r = new TpccRandom(2);
        boolean low = false;
        boolean high = false;
        for (int i = 0; i < DRAWS && !(low && high); i++) {
            int n = r.nuRand(255, 0, 0, 999);
            low |= n == 0;
            high |= n == 999;
        }
        assertTrue(low && high);
    }

    @Test
    void runConstantsSatisfyTheDeltaRule() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 10_000; i++) {
            TpccRandom.Constants load = TpccRandom.Constants.forLoad(random);
            TpccRandom.Constants run = TpccRandom.Constants.forRun(load, random);
            int delta = Math.abs(run.cLast() - load.cLast());
            assertTrue(delta >= 65 && delta <= 119 && delta != 96 && delta != 112, "delta " + delta);
        }
        assertFalse(TpccRandom.Constants.validRunDelta(96));
        assertFalse(TpccRandom.Constants.validRunDelta(112));
        assertFalse(TpccRandom.Constants.validRunDelta(64));
        assertFalse(TpccRandom.Constants.validRunDelta(120));
        assertTrue(TpccRandom.Constants.validRunDelta(65));
    }

    @Test
    void lastNamesComeFromTheSyllableTable() {
        assertEquals("PRICALLYOUGHT", TpccRandom.lastName(371));
        assertEquals("BARBARBAR", TpccRandom.lastName(0));
        assertEquals("EINGEINGEING", TpccRandom.lastName(999));
        assertEquals("OUGHTABLEPRI", TpccRandom.lastName(123));
    }

    @Test
    void aboutOneDataStringInTenIsOriginal() {
        TpccRandom r = new TpccRandom(4);
        int n = 100_000;
        int original = 0;
        for (int i = 0; i < n; i++) {
            String s = r.data();
            assertTrue(s.length() >= 26 && s.length() <= 50, s);
            if (s.contains(TpccRandom.ORIGINAL)) {
                original++;
            }
        }
        // Binomial(100,000, 0.1): standard deviation about 95.
        assertEquals(0.1, (double) original / n, 0.005);
    }

    @Test
    void stringsHaveTheirLengthsAndAlphabets() {
        TpccRandom r = new TpccRandom(6);
        for (int i = 0; i < 1000; i++) {
            String a = r.aString(8, 16);
            assertTrue(a.length() >= 8 && a.length() <= 16 && a.chars().allMatch(Character::isLetterOrDigit), a);
            String zip = r.zip();
            assertTrue(zip.matches("[0-9]{4}11111"), zip);
            String phone = r.nString(16, 16);
            assertTrue(phone.matches("[0-9]{16}"), phone);
        }
    }
}
