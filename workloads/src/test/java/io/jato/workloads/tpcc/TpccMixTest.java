package io.jato.workloads.tpcc;

import io.jato.workloads.Cli;
import io.jato.workloads.Main;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --mix}: each TPC-C transaction type alone (what the JMH benchmarks offer per type) runs
 * only that type, delivery included (it is executed by the worker that draws it instead of queued),
 * and leaves the database consistent.
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
    void anUnknownMixIsAUsageErrorListingTheChoices() {
        Cli.Outcome o = Cli.run("tpcc", "--mix", "new_order");
        assertEquals(Main.EXIT_USAGE, o.status());
        assertTrue(o.err().contains("standard") && o.err().contains("stock-level"), o.err());
    }
}
