package io.jato.workloads.tpcc;

import io.jato.workloads.Cli;
import io.jato.workloads.Main;
import io.jato.workloads.UsageException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code tpcc} command end to end: a short run passes its consistency check; bad options, and
 * more warehouses than the heap holds, are usage errors.
 */
class TpccRunTest {
    private static int run(StringBuilder report, String... args) {
        Cli.Outcome o = Cli.run(args);
        report.append(o.out()).append(o.err());
        return o.status();
    }

    /** Runs {@code jato tpcc options... --duration 1 --warmup 0.2}, requires a passed check, and returns the report. */
    private static String passingRun(String... options) {
        StringBuilder report = new StringBuilder();
        String[] args = new String[options.length + 5];
        args[0] = "tpcc";
        System.arraycopy(options, 0, args, 1, options.length);
        System.arraycopy(new String[] {"--duration", "1", "--warmup", "0.2"}, 0, args, options.length + 1, 4);
        assertEquals(Main.EXIT_OK, run(report, args), report::toString);
        String r = report.toString();
        assertTrue(r.contains("check        OK"), r);
        return r;
    }

    @Test
    void aShortRunWithDeferredDeliveriesPassesTheConsistencyCheck() {
        String r = passingRun("--warehouses", "1", "--mode", "base", "--threads", "2", "--seed", "5");
        assertTrue(r.contains("mode=base"), r);
        assertTrue(r.contains("delivery"), r);
        List<String> table = r.lines().dropWhile(l -> !l.startsWith("per type")).skip(1)
                .takeWhile(l -> l.startsWith("  ")).map(l -> l.trim().split("\\s+")[0]).toList();
        assertEquals(List.of("new-order", "payment", "order-status", "delivery", "stock-level"), table, r);
    }

    /** A worker with several warehouses has a terminal for each; their HISTORY rows must not overwrite each other's. */
    @Test
    void aWorkerServingSeveralWarehousesPassesTheConsistencyCheck() {
        passingRun("--warehouses", "2", "--threads", "1", "--mix", "payment", "--seed", "3");
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

    @Test
    void moreWarehousesThanTheHeapHoldsIsAUsageErrorBeforeLoading() {
        long max = Runtime.getRuntime().maxMemory();
        assumeTrue(max < TpccCommand.MAX_WAREHOUSES * TpccCommand.HEAP_PER_WAREHOUSE,
                "the test JVM's heap holds even the most warehouses: " + max);
        Cli.Outcome o = Cli.run("tpcc", "--warehouses", Integer.toString(TpccCommand.MAX_WAREHOUSES), "--duration", "1");
        // Two lines on standard error and nothing else: refused before any loading progress.
        Cli.assertUsageError(o, "jato tpcc", TpccCommand.MAX_WAREHOUSES + " warehouses need about");
        String line = o.err().lines().findFirst().orElseThrow();
        assertTrue(line.contains("but the JVM's maximum heap is ") && line.contains("JAVA_OPTS=-Xmx1025g ./jato tpcc --warehouses 4095 ..."),
                line);
    }

    @Test
    void theHeapCheckRefusesExactlyBelowItsEstimateAndSaysWhatToGive() throws UsageException {
        long two = 2 * TpccCommand.HEAP_PER_WAREHOUSE + TpccCommand.HEAP_FOR_THE_RUN;
        assertEquals(1L << 30, two, "256 MiB per warehouse and 512 MiB for the run");
        TpccCommand.checkHeap(2, two);
        TpccCommand.checkHeap(TpccCommand.MAX_WAREHOUSES, Long.MAX_VALUE);
        assertThrows(UsageException.class, () -> TpccCommand.checkHeap(2, two - 1));

        UsageException forty = assertThrows(UsageException.class, () -> TpccCommand.checkHeap(40, 6028L << 20));
        assertEquals("40 warehouses need about 10.5 GiB of heap (256 MiB each and 512 MiB for the run), but the"
                + " JVM's maximum heap is 5.9 GiB; give it more with -Xmx11g, e.g. JAVA_OPTS=-Xmx11g ./jato tpcc"
                + " --warehouses 40 ..., or use fewer warehouses", forty.getMessage());
        UsageException one = assertThrows(UsageException.class, () -> TpccCommand.checkHeap(1, 512L << 20));
        assertTrue(one.getMessage().startsWith("1 warehouse needs about 768 MiB of heap"), one.getMessage());
        assertTrue(one.getMessage().endsWith("maximum heap is 512 MiB; give it more with -Xmx1g, e.g."
                + " JAVA_OPTS=-Xmx1g ./jato tpcc --warehouses 1 ..."), one.getMessage());
    }
}
