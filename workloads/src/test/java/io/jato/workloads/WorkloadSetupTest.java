package io.jato.workloads;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@link WorkloadSetup}: the runner's command line, for harnesses that drive the workloads themselves. */
class WorkloadSetupTest {
    @Test
    void buildsTheStoreAndTheWorkloadTheLineNames() throws UsageException {
        WorkloadSetup s = WorkloadSetup.parse("ycsb", "--protocol", "tictoc", "--records", "500", "--mix", "txn16",
                "--threads", "3", "--seed", "9");
        assertEquals("tictoc", s.stm().protocol());
        assertEquals("ycsb", s.workload().name());
        assertEquals(500, s.workload().parameters().get("records"));
        assertEquals("scrambled", s.workload().parameters().get("keys"));
        assertEquals(3, s.settings().threads());
        assertEquals(9L, s.seed());
    }

    @Test
    void keysAreScrambledUnlessTheLineAsksForRanks() throws UsageException {
        WorkloadSetup s = WorkloadSetup.parse("ycsb", "--records", "100", "--keys", "ranked");
        assertEquals("ranked", s.workload().parameters().get("keys"));
    }

    @Test
    void aLoadedWorkloadRunsOnItsWorkersAndPassesItsCheck() throws UsageException {
        WorkloadSetup s = WorkloadSetup.parse("transfer", "--accounts", "4", "--threads", "1", "--seed", "1");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        s.workload().load(new ParallelLoader(2, new PrintStream(progress, true, StandardCharsets.UTF_8)));
        Workload.Worker w = s.workload().newWorker(0);
        for (int i = 0; i < 100; i++) {
            assertTrue(w.runOne());
        }
        CheckResult r = s.workload().check();
        assertTrue(r.passed(), r.summary());
        assertEquals(100, s.stm().statistics().commits());
    }

    @Test
    void whatTheRunnerRefusesIsRefusedWithItsMessage() {
        UsageException unknown = assertThrows(UsageException.class, () -> WorkloadSetup.parse("tpcd"));
        assertTrue(unknown.getMessage().contains("tpcc, ycsb, transfer"), unknown.getMessage());
        UsageException protocol = assertThrows(UsageException.class,
                () -> WorkloadSetup.parse("tpcc", "--protocol", "occam"));
        assertTrue(protocol.getMessage().contains("unknown protocol 'occam'"), protocol.getMessage());
        UsageException range = assertThrows(UsageException.class,
                () -> WorkloadSetup.parse("tpcc", "--warehouses", "0"));
        assertTrue(range.getMessage().contains("warehouses"), range.getMessage());
        assertThrows(UsageException.class, () -> WorkloadSetup.parse("tpcc", "--help"));
    }

    @Test
    void harnessesGetTheRunnersHeapCheck() throws UsageException {
        assumeTrue(Runtime.getRuntime().maxMemory() < 1L << 40, "4095 warehouses need more than a TiB of heap");
        UsageException heap = assertThrows(UsageException.class, () -> WorkloadSetup.parse("tpcc", "--warehouses",
                "4095"));
        assertTrue(heap.getMessage().startsWith("4095 warehouses need about") && heap.getMessage().contains("-Xmx"),
                heap.getMessage());
        assertEquals(1, WorkloadSetup.parse("tpcc", "--warehouses", "1").workload().parameters().get("warehouses"),
                "a small database is not refused");
    }

    @Test
    void aLoaderFailureIsRethrownAfterTheOtherThreadsStop() {
        ParallelLoader loader = new ParallelLoader(2, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));
        RunFailure f = assertThrows(RunFailure.class, () -> loader.parallelFor("rows", 1000, (from, to) -> {
            if (from > 0) {
                throw new IllegalStateException("row " + from);
            }
        }));
        assertTrue(f.getMessage().contains("loading rows failed"), f.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ParallelLoader(0, System.err));
    }
}
