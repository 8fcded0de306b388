package io.jato.workloads.tpcc;

import io.jato.workloads.Cli;
import io.jato.workloads.Main;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code tpcc} command end to end: a short run passes its consistency check; bad options are usage errors. */
class TpccRunTest {
    private static int run(StringBuilder report, String... args) {
        Cli.Outcome o = Cli.run(args);
        report.append(o.out()).append(o.err());
        return o.status();
    }

    @Test
    void aShortRunWithDeferredDeliveriesPassesTheConsistencyCheck() {
        StringBuilder report = new StringBuilder();
        int status = run(report, "tpcc", "--warehouses", "1", "--mode", "base", "--threads", "2", "--duration", "1",
                "--warmup", "0.2", "--seed", "5");
        assertEquals(Main.EXIT_OK, status, report::toString);
        String r = report.toString();
        assertTrue(r.contains("mode=base"), r);
        assertTrue(r.contains("check        OK"), r);
        assertTrue(r.contains("delivery"), r);
        List<String> table = r.lines().dropWhile(l -> !l.startsWith("per type")).skip(1)
                .takeWhile(l -> l.startsWith("  ")).map(l -> l.trim().split("\\s+")[0]).toList();
        assertEquals(List.of("new-order", "payment", "order-status", "delivery", "stock-level"), table, r);
    }

    @Test
    void invalidOptionsAreUsageErrors() {
        StringBuilder report = new StringBuilder();
        assertEquals(Main.EXIT_USAGE, run(report, "tpcc", "--mode", "fast"));
        assertTrue(report.toString().contains("cu+ts"), report::toString);
        assertEquals(Main.EXIT_USAGE, run(new StringBuilder(), "tpcc", "--warehouses", "0"));
        StringBuilder none = new StringBuilder();
        assertEquals(Main.EXIT_USAGE, run(none, "tpcc", "--protocol", "none", "--threads", "2"));
        assertTrue(none.toString().contains("one thread"), none::toString);
    }
}
