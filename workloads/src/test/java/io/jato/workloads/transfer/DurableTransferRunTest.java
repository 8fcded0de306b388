package io.jato.workloads.transfer;

import io.jato.workloads.Cli;
import io.jato.workloads.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** transfer with durability through the command line: logged, recovered on the next run, and refused without a directory. */
@Timeout(60)
class DurableTransferRunTest {
    @TempDir
    Path dir;

    @Test
    void aDurableRunIsRecoveredByTheNextOne() {
        String d = dir.resolve("bank").toString();
        Cli.Outcome first = Cli.run("transfer", "--accounts", "64", "--threads", "2", "--warmup", "0", "--duration", "0.3",
                "--durable", d, "--durability", "durable");
        assertEquals(Main.EXIT_OK, first.status(), first.out() + first.err());
        assertTrue(first.out().contains("durability=durable"), first.out());
        assertTrue(first.out().contains("check        OK: opened after recovered no checkpoint"), first.out());
        Cli.Outcome second = Cli.run("transfer", "--accounts", "64", "--threads", "2", "--warmup", "0", "--duration", "0.3",
                "--durable", d, "--durability", "async", "--checkpoint", "0");
        assertEquals(Main.EXIT_OK, second.status(), second.out() + second.err());
        assertTrue(second.out().matches("(?s).*check        OK: opened after recovered no checkpoint, [1-9][0-9]* transactions.*"
                + "total balance 64000000 unchanged.*"), second.out());
    }

    @Test
    void offRunsTheMapUnlogged() {
        Cli.Outcome o = Cli.run("transfer", "--accounts", "64", "--threads", "2", "--warmup", "0", "--duration", "0.2",
                "--durability", "off");
        assertEquals(Main.EXIT_OK, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("check        OK: total balance 64000000 unchanged"), o.out());
    }

    @Test
    void loggingNeedsADirectory() {
        Cli.Outcome o = Cli.run("transfer", "--durability", "async");
        assertEquals(Main.EXIT_USAGE, o.status());
        assertTrue(o.err().contains("--durable DIR"), o.err());
    }
}
