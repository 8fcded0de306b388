package io.jato.workloads.ycsb;

import io.jato.workloads.Cli;
import io.jato.workloads.Main;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ycsb with --durable through the command line, per layout: the first run loads and checkpoints
 * the table, the second recovers it and counts its growth from where the first left it (a write
 * lost or applied twice fails its check).
 */
@Timeout(120)
class YcsbDurableRunTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"rows", "coarse", "split"})
    void aDurableTableIsRecoveredByTheNextRun(String layout) {
        String d = dir.resolve(layout).toString();
        String writes = layout.equals("split") ? "updater" : "rmw";
        Cli.Outcome first = Cli.run("ycsb", "--mix", "txn16", "--records", "2000", "--layout", layout, "--writes", writes,
                "--threads", "2", "--warmup", "0", "--duration", "0.3", "--durable", d, "--durability", "durable");
        assertEquals(Main.EXIT_OK, first.status(), first.out() + first.err());
        assertTrue(first.out().contains("check        OK: store loaded and checkpointed; "), first.out());
        Cli.Outcome second = Cli.run("ycsb", "--mix", "txn16", "--records", "2000", "--layout", layout, "--writes",
                writes, "--threads", "2", "--warmup", "0", "--duration", "0.3", "--durable", d, "--durability", "async");
        assertEquals(Main.EXIT_OK, second.status(), second.out() + second.err());
        assertTrue(second.out().matches("(?s).*check        OK: store recovered: recovered 2000 entries from checkpoint.*"
                + "[1-9][0-9,]* committed increments.*"), second.out());
        Cli.Outcome other = Cli.run("ycsb", "--mix", "txn16", "--records", "3000", "--layout", layout, "--writes",
                writes, "--warmup", "0", "--duration", "0.1", "--durable", d);
        assertEquals(Main.EXIT_FAILED, other.status(), other.out() + other.err());
        assertTrue((other.out() + other.err()).contains("holds 2000 records, --records asks for 3000"),
                other.out() + other.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ycsb", "tpcc"})
    void durabilityOptionsNeedADirectory(String workload) {
        Cli.Outcome o = Cli.run(workload, "--durability", "async");
        assertEquals(Main.EXIT_USAGE, o.status(), o.out() + o.err());
        assertTrue(o.err().contains("--durability and --checkpoint need --durable DIR"), o.err());
    }
}
