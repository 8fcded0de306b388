package io.jato.workloads.tpcc;

import io.jato.stm.Stm;
import io.jato.stm.TxnType;
import io.jato.workloads.RunResult;
import io.jato.workloads.Runner;
import io.jato.workloads.UsageException;
import io.jato.workloads.WorkloadSetup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --tree}: TPC-C under Tebaldi's shipped trees passes the
 * consistency check, every transaction type ran under its group, and bad trees are usage errors.
 */
class TpccTreeTest {

    private static RunResult run(String... options) throws UsageException {
        WorkloadSetup s = WorkloadSetup.parse("tpcc", options);
        assertEquals("tebaldi", s.stm().protocol());
        // No load here: the runner loads the workload (a second load made every row twice; the
        // insert-only tables now refuse that).
        Runner.Settings settings = new Runner.Settings(2, TimeUnit.MILLISECONDS.toNanos(100),
                TimeUnit.MILLISECONDS.toNanos(800), Math.max(1, Runtime.getRuntime().availableProcessors()));
        RunResult r = new Runner(s.stm(), settings, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .run(s.workload(), 7);
        assertTrue(r.check().passed(), r.check().summary());
        Stm stm = s.stm();
        for (TpccMix.Type t : TpccMix.Type.values()) {
            assertTrue(stm.statistics(TxnType.of(t.cliName())).commits() > 0, () -> t.cliName() + " never committed");
        }
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2-layer", "3-layer"})
    void aRunUnderAShippedTreePassesTheConsistencyCheck(String tree) throws UsageException {
        RunResult r = run("--tree", tree, "--threads", "2", "--seed", "7");
        assertTrue(r.commits() > 0, "committed " + r.commits());
    }

    @Test
    void aTreeFromAFileBuildsTheStore(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("flat.tree");
        Files.writeString(file, "# everything optimistic, one layer per kind\n"
                + "occ(occ[order-status stock-level], 2pl(occ[new-order], occ[payment delivery]))\n");
        WorkloadSetup s = WorkloadSetup.parse("tpcc", "--tree", file.toString());
        assertEquals("tebaldi", s.stm().protocol());
        // The file's tree, not the protocol's default: delivery and payment share a group there.
        s.stm().run(TxnType.of("payment"), t -> { });
    }

    @Test
    void badTreesAreUsageErrors(@TempDir Path dir) throws Exception {
        assertMessage("neither a shipped tree", "--tree", "4-layer");
        Path missing = dir.resolve("missing-types.tree");
        Files.writeString(missing, "occ(none[order-status], occ[new-order, payment, delivery])");
        assertMessage("'stock-level' is in no group", "--tree", missing.toString());
        Path twice = dir.resolve("twice.tree");
        Files.writeString(twice, "occ(none[order-status, stock-level], occ[new-order, payment], occ[payment, delivery])");
        assertMessage("'payment' is in two groups", "--tree", twice.toString());
        Path unknown = dir.resolve("unknown.tree");
        Files.writeString(unknown, "ssi(none[order-status, stock-level], occ[new-order, payment, delivery])");
        assertMessage("unknown protocol 'ssi'", "--tree", unknown.toString());
        assertMessage("cannot be combined with --protocol occ", "--tree", "3-layer", "--protocol", "occ");
        assertMessage("cannot be combined", "--tree", "3-layer", "--table-protocols", "stock=tictoc");
        UsageException e = assertThrows(UsageException.class, () -> WorkloadSetup.parse("ycsb", "--tree", "3-layer"));
        assertTrue(e.getMessage().contains("carry none"), e.getMessage());
    }

    private static void assertMessage(String expected, String... options) {
        UsageException e = assertThrows(UsageException.class, () -> WorkloadSetup.parse("tpcc", options));
        assertTrue(e.getMessage().contains(expected), () -> "expected '" + expected + "' in: " + e.getMessage());
    }
}
