package io.jato.workloads.tpcc;

import io.jato.workloads.Cli;
import io.jato.workloads.Main;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --mix}: each TPC-C transaction type alone (what the JMH benchmarks offer per type) runs
 * only that type, delivery included (it is executed by the worker that draws it instead of queued),
 * and leaves the database consistent; weights of one's own draw types in their proportions, and
 * bad weights are usage errors that name the problem.
 */
class TpccMixTest {
    @ParameterizedTest
    @ValueSource(strings = {"new-order", "payment", "order-status", "delivery", "stock-level"})
    void oneTypeAloneRunsOnlyThatTypeAndPassesTheChecks(String type) {
        Cli.Outcome o = Cli.run("tpcc", "--warehouses", "1", "--mode", "base", "--threads", "2", "--duration", "0.5",
                "--warmup", "0.1", "--seed", "7", "--mix", type);
        String r = o.out() + o.err();
        assertEquals(Main.EXIT_OK, o.status(), r);
        assertTrue(r.contains("check        OK"), r);
        assertTrue(r.contains("mix=" + type), r);
        List<String> ran = r.lines().dropWhile(l -> !l.startsWith("per type")).skip(1)
                .takeWhile(l -> l.startsWith("  ")).map(l -> l.trim().split("\\s+")).filter(f -> !f[1].equals("0"))
                .map(f -> f[0]).toList();
        assertEquals(List.of(type), ran, r);
    }

    @Test
    void weightsDrawTypesInTheirProportionsAndTheStandardWeightsAreTheSpecs() {
        int[] w = TpccMix.parseWeights(" new-order=10, stock-level=30 ,order-status=60");
        assertArrayEquals(new int[] {10, 0, 60, 0, 30}, w);
        assertEquals("new-order=10,order-status=60,stock-level=30", TpccMix.describe(w));
        assertEquals(TpccMix.STANDARD, TpccMix.describe(TpccMix.parseWeights(
                "new-order=45,payment=43,order-status=4,delivery=4,stock-level=4")));
        TpccMix mix = new TpccMix(new SplittableRandom(3), w);
        int[] drawn = new int[TpccMix.Type.values().length];
        for (int i = 0; i < 100_000; i++) {
            drawn[mix.next().ordinal()]++;
        }
        // Binomial(100,000, p): standard deviations of at most 158; allow 5.
        assertEquals(10_000, drawn[0], 800);
        assertEquals(0, drawn[1]);
        assertEquals(60_000, drawn[2], 800);
        assertEquals(0, drawn[3]);
        assertEquals(30_000, drawn[4], 800);
        assertEquals(TpccMix.Type.STOCK_LEVEL, TpccMix.soleType(TpccMix.parseWeights("stock-level=5,delivery=0")));
        assertNull(TpccMix.soleType(w));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TpccMix.checkWeights(new int[5]));
        assertTrue(e.getMessage().contains("positive weight"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> TpccMix.checkWeights(new int[] {1, 2}));
        assertTrue(e.getMessage().contains("one per type"), e.getMessage());
    }

    @Test
    void theStandardMixDrawsAsBeforeWeightsExisted() {
        // The same seed replays the same run: the standard mix still draws nextInt(100) against 45/88/92/96.
        SplittableRandom expected = new SplittableRandom(11);
        TpccMix mix = new TpccMix(new SplittableRandom(11));
        int[] cumulative = {45, 88, 92, 96, 100};
        for (int i = 0; i < 1000; i++) {
            int p = expected.nextInt(100);
            int t = 0;
            while (p >= cumulative[t]) {
                t++;
            }
            assertEquals(TpccMix.Type.values()[t], mix.next());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "new-order=1,stock-level     | is not TYPE=WEIGHT",
        "new-order=1,audit=2         | unknown transaction type 'audit'",
        "payment=1,payment=2         | 'payment' is weighed twice",
        "payment=-1,new-order=1      | the weight of payment must be a whole number in [0, 1000000], got '-1'",
        "payment=x                   | got 'x'",
        "payment=0,stock-level=0     | weighs every type 0"})
    void badWeightsAreUsageErrorsNamingTheProblem(String mix, String expected) {
        Cli.Outcome o = Cli.run("tpcc", "--mix", mix, "--duration", "0.1");
        assertEquals(Main.EXIT_USAGE, o.status(), o.err());
        assertTrue(o.err().contains("--mix: ") && o.err().contains(expected), o.err());
        assertFalse(o.err().contains("loading"), o.err());
    }

    @Test
    void aReadMostlyMixRunsItsWeightsWithDeferredDeliveriesAndPassesTheChecks() {
        Cli.Outcome o = Cli.run("tpcc", "--warehouses", "1", "--threads", "2", "--duration", "0.5", "--warmup", "0.1",
                "--seed", "5", "--mix", "new-order=10,payment=10,order-status=35,delivery=10,stock-level=35");
        String r = o.out() + o.err();
        assertEquals(Main.EXIT_OK, o.status(), r);
        assertTrue(r.contains("check        OK"), r);
        assertTrue(r.contains("mix=new-order=10,payment=10,order-status=35,delivery=10,stock-level=35"), r);
        List<String> ran = r.lines().dropWhile(l -> !l.startsWith("per type")).skip(1)
                .takeWhile(l -> l.startsWith("  ")).map(l -> l.trim().split("\\s+")).filter(f -> !f[1].equals("0"))
                .map(f -> f[0]).toList();
        assertEquals(List.of("new-order", "payment", "order-status", "delivery", "stock-level"), ran, r);
    }

    @Test
    void anUnknownMixIsAUsageErrorListingTheChoices() {
        Cli.Outcome o = Cli.run("tpcc", "--mix", "new_order");
        assertEquals(Main.EXIT_USAGE, o.status());
        assertTrue(o.err().contains("standard") && o.err().contains("stock-level"), o.err());
    }
}
