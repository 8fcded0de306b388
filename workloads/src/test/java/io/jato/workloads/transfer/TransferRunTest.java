package io.jato.workloads.transfer;

import io.jato.stm.Stm;
import io.jato.workloads.Cli;
import io.jato.workloads.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;


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
