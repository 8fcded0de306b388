package io.jato.workloads.transfer;

import io.jato.stm.Capabilities;
import io.jato.stm.Stm;
import io.jato.workloads.CheckResult;
import io.jato.workloads.Cli;
import io.jato.workloads.Main;
import io.jato.workloads.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transfer workload through the command line: the balance invariant on every protocol, with interrupts. */
@Timeout(60)
class TransferRunTest {

    private static String[] run(String... args) {
        Cli.Outcome o = Cli.run(args);
        return new String[] {String.valueOf(o.status()), o.out(), o.err()};
    }

    @ParameterizedTest
    @ValueSource(strings = {"2", "64"})
    void everyProtocolKeepsTheTotalBalance(String accounts) {
        for (String protocol : Stm.availableProtocols()) {
            if (protocol.startsWith("test-") || protocol.equals("none")) {
                continue;
            }
            String[] r = run("transfer", "--protocol", protocol, "--accounts", accounts, "--threads", "4",
                    "--warmup", "0", "--duration", "0.3", "--seed", "7");
            assertEquals(String.valueOf(Main.EXIT_OK), r[0], protocol + ": " + r[1] + r[2]);
            assertTrue(r[1].contains("check        OK: total balance " + 1_000_000L * Integer.parseInt(accounts)), r[1]);
        }
    }

    @Test
    void everyProtocolsAuditsSeeTheInitialTotalBesideTheTransfers(@TempDir Path dir) throws IOException {
        // Tebaldi's shipped trees group TPC-C's types; this workload's types need a tree of their own.
        Path tree = Files.writeString(dir.resolve("bank.tree"), "occ( none[audit], occ[transfer] )\n");
        for (String protocol : Stm.availableProtocols()) {
            if (protocol.startsWith("test-") || protocol.equals("none")
                    || Stm.protocolCapabilities(protocol).isolation() == Capabilities.Isolation.REPEATABLE_READ) {
                // Repeatable read allows read skew: an audit may see a torn total, and is meant to.
                continue;
            }
            List<String> args = new ArrayList<>(List.of("transfer", "--accounts", "64", "--audits", "30",
                    "--threads", "2", "--warmup", "0", "--duration", "0.3", "--seed", "5"));
            // --tree runs protocol tebaldi with the given tree.
            args.addAll(protocol.startsWith("tebaldi") ? List.of("--tree", tree.toString()) : List.of("--protocol", protocol));
            String[] r = run(args.toArray(String[]::new));
            assertEquals(String.valueOf(Main.EXIT_OK), r[0], protocol + ": " + r[1] + r[2]);
            assertTrue(r[1].contains("audits=30%"), r[1]);
            assertTrue(r[1].matches("(?s).*check        OK: total balance 64000000 unchanged; all [1-9][0-9]* audits saw it.*"),
                    protocol + ": " + r[1]);
            assertTrue(r[1].matches("(?s).*\n  transfer +[0-9,]+ .*\n  audit +[0-9,]+ .*"), protocol + ": " + r[1]);
        }
    }

    @Test
    void anAuditThatSawAnotherTotalFailsTheCheck() {
        // Without concurrency control an audit can be made to see a broken total: break it, audit,
        // mend it. The balance is right at the end; only the audit saw otherwise.
        Stm stm = Stm.builder().protocol("none").build();
        TransferWorkload w = new TransferWorkload(stm, 4, 100, 1);
        w.load(new Workload.Loader() {
            @Override
            public void parallelFor(String what, int count, Workload.RangeBody body) {
                body.run(0, count);
            }

            @Override
            public int threads() {
                return 1;
            }
        });
        Workload.Worker worker = w.newWorker(0);
        assertTrue(w.check().passed(), w.check().summary());
        w.account(2).single().set(TransferWorkload.INITIAL_BALANCE + 5);
        worker.runOne();
        assertEquals(1, worker.lastType());
        w.account(2).single().set(TransferWorkload.INITIAL_BALANCE);
        CheckResult c = w.check();
        assertFalse(c.passed(), c.summary());
        assertTrue(c.summary().contains("1 of 1 audits saw a total other than 4000000 (the first saw 4000005)"), c.summary());
    }

    @Test
    void auditsOutsideZeroToAHundredPercentOrWithALogAreRefused() {
        String[] r = run("transfer", "--audits", "101");
        assertEquals(String.valueOf(Main.EXIT_USAGE), r[0]);
        assertTrue(r[2].contains("audits"), r[2]);
        r = run("transfer", "--audits", "10", "--durability", "off");
        assertEquals(String.valueOf(Main.EXIT_USAGE), r[0]);
        assertTrue(r[2].contains("--audits runs with the boxed accounts only"), r[2]);
    }

    @Test
    void aPendingInterruptOnEveryWorkerNeitherBreaksNorStallsTheRun() {
        String[] r = run("transfer", "--interrupt", "--threads", "4", "--warmup", "0", "--duration", "0.5", "--seed", "9");
        assertEquals(String.valueOf(Main.EXIT_OK), r[0], r[1] + r[2]);
        assertTrue(r[1].contains("interrupt=true"), r[1]);
        assertTrue(r[1].contains("check        OK"), r[1]);
        // Committed transactions are reported; a collapse to nothing would show as 0 committed.
        assertFalse(r[1].contains("(0 committed)"), r[1]);
    }

    @Test
    void oneAccountIsRefused() {
        String[] r = run("transfer", "--accounts", "1");
        assertEquals(String.valueOf(Main.EXIT_USAGE), r[0]);
        assertTrue(r[2].contains("accounts"), r[2]);
    }
}
