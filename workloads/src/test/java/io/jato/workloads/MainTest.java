package io.jato.workloads;

import io.jato.workloads.Cli.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line: help, good options in both spellings, and every kind of bad input. */
class MainTest {

    private static Outcome run(String... args) {
        return Cli.run(args);
    }

    @Test
    void noArgumentsPrintsUsageAndFails() {
        Outcome o = run();
        assertEquals(Main.EXIT_USAGE, o.status());
        assertTrue(o.err().startsWith("Usage: jato <command>"), o.err());
    }

    @Test
    void helpPrintsUsage() {
        for (String h : List.of("--help", "-h", "help")) {
            Outcome o = run(h);
            assertEquals(Main.EXIT_OK, o.status());
            assertTrue(o.out().contains("ycsb"), o.out());
            assertEquals("", o.err());
        }
        String help = run("--help").out();
        assertTrue(help.contains(String.format("  plot        render charts from --json reports (run by the ./jato"
                + " script, not by this jar):%n              ./jato plot OUT_DIR REPORT.json...%n")), help);
        Outcome o = run("ycsb", "--threads", "4", "--help");
        assertEquals(Main.EXIT_OK, o.status());
        assertTrue(o.out().contains("--mix MIX"), o.out());
        assertTrue(o.out().contains("--protocol NAME"), o.out());
    }

    @ParameterizedTest
    @CsvSource({"tpcc", "ycsb", "transfer"})
    void everyOptionsHelpIsSetApartFromItsSynopsis(String command) {
        Outcome o = run(command, "--help");
        assertEquals(Main.EXIT_OK, o.status(), o.err());
        // An option's help starts at column 22, after at least one space; a synopsis too long for
        // that column stands alone and its help follows on the next line, indented to column 22.
        List<String> lines = o.out().lines().toList();
        String indent = " ".repeat(22);
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!l.startsWith("  --")) {
                continue;
            }
            boolean alone = i + 1 < lines.size() && lines.get(i + 1).startsWith(indent);
            assertTrue(alone || (l.length() > 22 && l.charAt(21) == ' ' && l.charAt(22) != ' '),
                    "help text not set apart from its synopsis: '" + l + "'");
        }
        assertTrue(o.out().contains("  --checkpoint SECONDS") || !command.equals("transfer"), o.out());
        assertFalse(o.out().contains("SECONDSwith"), o.out());
    }

    @Test
    void protocolsListsOcc() {
        Outcome o = run("protocols");
        assertEquals(Main.EXIT_OK, o.status());
        assertTrue(o.out().lines().anyMatch("occ"::equals), o.out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "zzz                              | unknown command 'zzz'; commands: tpcc, ycsb, transfer, protocols",
            "--threads 2                      | expected a command before option '--threads'",
            "ycsb --bogus 1                   | unknown option '--bogus'",
            "ycsb -t 2                        | unknown option '-t'",
            "ycsb extra                       | unexpected argument 'extra'",
            "ycsb --threads                   | option --threads needs a value",
            "ycsb --threads --duration 1      | option --threads needs a value",
            "ycsb --threads abc               | --threads must be an integer from 1 to 4096, got 'abc'",
            "ycsb --threads=0                 | --threads must be an integer from 1 to 4096, got '0'",
            "ycsb --threads 1.5               | --threads must be an integer from 1 to 4096, got '1.5'",
            "ycsb --duration 0                | --duration must be a number in",
            "ycsb --duration=ten              | --duration must be a number in",
            "ycsb --warmup -1                 | --warmup must be a number in",
            "ycsb --theta 1                   | --theta must be a number in [0, 1), got '1'",
            "ycsb --theta=-0.1                | --theta must be a number in [0, 1), got '-0.1'",
            "ycsb --theta NaN                 | --theta must be a number in [0, 1), got 'NaN'",
            "ycsb --records 0                 | --records must be an integer from 1 to",
            "ycsb --records 99999999999999999999 | --records must be an integer from 1 to",
            "ycsb --columns 0                 | --columns must be an integer from 1 to",
            "ycsb --mix zzz                   | unknown mix 'zzz'; known: a, b, txn16",
            "ycsb --keys sorted               | unknown keys 'sorted'; known: scrambled, ranked",
            "ycsb --mix a --write-ratio 0.3   | --write-ratio applies only to --mix txn16",
            "ycsb --mix txn16 --write-ratio 2 | --write-ratio must be a number in [0, 1], got '2'",
            "ycsb --protocol nope             | unknown protocol 'nope'; known protocols: ",
            "ycsb --help=yes                  | option --help takes no value",
            "ycsb --seed x                    | --seed must be an integer",
            "ycsb --json /nonexistent-dir/r.json | --json: directory '/nonexistent-dir' does not exist",
            "protocols extra                  | unexpected argument 'extra'",
            "plot out r.json                  | 'plot' is a command of the ./jato script",
            "ycsb --options history=4         | protocol 'occ' has no option 'history'; its options: heldLockSpins",
            "ycsb --protocol tictoc --options history=x | option 'history' of protocol 'tictoc' must be an integer",
            "ycsb --options heldLockSpins     | --options takes NAME=VALUE pairs separated by commas, got 'heldLockSpins'",
    })
    void badCommandLinesGiveOneLineAndStatus2(String line, String expected) {
        Cli.assertUsageError(run(line.trim().split("\\s+")), "jato", expected);
    }

    @Test
    void protocolDetailsShowCapabilitiesAndOptions() {
        Outcome o = run("protocols", "--details");
        assertEquals(Main.EXIT_OK, o.status(), o.err());
        assertTrue(o.out().lines().anyMatch("occ"::equals), o.out());
        assertTrue(o.out().contains("    Capabilities{SERIALIZABLE}"), o.out());
        assertTrue(o.out().contains("    option heldLockSpins = 128: "), o.out());
        assertTrue(o.out().contains("    option history = 0: "), o.out());
        assertTrue(o.out().contains("Capabilities{SNAPSHOT_ISOLATION}"), o.out());
    }

    @Test
    void unknownProtocolListsTheKnownOnes() {
        Outcome o = run("ycsb", "--protocol", "nope");
        assertTrue(o.err().contains("occ"), o.err());
    }

    @Test
    void bothOptionSpellingsAndSuffixesParse() throws UsageException {
        List<Option> decl = List.of(Option.valued("records", "N", "records"), Option.valued("theta", "T", "skew"),
                Option.valued("seed", "N", "seed"), Option.flag("help", "help"));
        Options o = Options.parse(decl, new String[] {"x", "--records=10k", "--theta", "0.5", "--seed", "-7"}, 1);
        assertEquals(10_000, o.intValue("records", 1, 1, Integer.MAX_VALUE));
        assertEquals(0.5, o.doubleValue("theta", 0, 0, 1, true));
        assertEquals(-7, o.longValue("seed", 0, Long.MIN_VALUE + 1, Long.MAX_VALUE));
        assertFalse(o.has("help"));
        Options m = Options.parse(decl, new String[] {"--records", "2M", "--records", "3"}, 0);
        assertEquals(3, m.intValue("records", 1, 1, Integer.MAX_VALUE), "the last occurrence wins");
        Options d = Options.parse(decl, new String[] {}, 0);
        assertEquals(42, d.intValue("records", 42, 1, 100), "default when absent");
        UsageException e = assertThrows(UsageException.class,
                () -> Options.parse(decl, new String[] {"--records", "2M"}, 0).intValue("records", 1, 1, 1_000_000));
        assertEquals("--records must be an integer from 1 to 1000000, got '2M'", e.getMessage());
    }

    /** Runs {@code jato failing args...} through {@link Main#runWorkload}, the path of every workload command. */
    private static Outcome runFailing(FailingWorkload.Where where, Error error, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] line = new String[args.length + 1];
        line[0] = "failing";
        System.arraycopy(args, 0, line, 1, args.length);
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Main.runWorkload(FailingWorkload.command(where, error), line, o, e);
        }
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aWorkerOutOfHeapIsReportedAsAHeapTooSmallWithoutAStackTrace() {
        Outcome o = runFailing(FailingWorkload.Where.WORKER, new OutOfMemoryError("Java heap space"),
                "--threads", "2", "--warmup", "0", "--duration", "30");
        assertEquals(Main.EXIT_FAILED, o.status(), o.err());
        assertTrue(o.err().contains("jato failing: worker 1 failed: java.lang.OutOfMemoryError: Java heap space\n"),
                o.err());
        assertTrue(o.err().contains("jato failing: the heap is too small for this run; give the JVM more, e.g."
                + " JAVA_OPTS=-Xmx8g"), o.err());
        assertFalse(o.err().contains("\tat "), o.err());
    }

    @Test
    void aCheckOutOfHeapIsReportedAsAHeapTooSmall() {
        Outcome o = runFailing(FailingWorkload.Where.CHECK, new OutOfMemoryError("Java heap space"),
                "--threads", "1", "--warmup", "0", "--duration", "0.1");
        assertEquals(Main.EXIT_FAILED, o.status(), o.err());
        assertTrue(o.err().contains("jato failing: the consistency check failed to run: java.lang.OutOfMemoryError"),
                o.err());
        assertTrue(o.err().contains("the heap is too small for this run"), o.err());
    }

    @Test
    void anotherWorkerFailureKeepsItsStackTrace() {
        Outcome o = runFailing(FailingWorkload.Where.WORKER, new AssertionError("broken"),
                "--threads", "1", "--warmup", "0", "--duration", "30");
        assertEquals(Main.EXIT_FAILED, o.status(), o.err());
        assertTrue(o.err().contains("jato failing: worker 0 failed: java.lang.AssertionError: broken"), o.err());
        assertTrue(o.err().contains("\tat "), "a fault worth a stack trace: " + o.err());
        assertFalse(o.err().contains("heap"), o.err());
    }

    /**
     * Workers that run the heap out to its last bytes, in a JVM of its own with a 64 MiB heap: the
     * failure is still reported in Main's two lines, not in the JVM's "OutOfMemoryError thrown from
     * the UncaughtExceptionHandler".
     */
    @Test
    void aHeapExhaustedForRealIsStillReportedInTwoLines(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = dir.resolve("output.txt");
        Process p = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                FailingWorkload.class.getName()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        String output = Files.readString(log);
        assertTrue(ended, () -> "still running after 60 s: " + output);
        assertEquals(Main.EXIT_FAILED, p.exitValue(), output);
        List<String> errors = output.lines().filter(l -> !l.startsWith(" ")).toList();
        assertEquals(2, errors.size(), output);
        assertTrue(errors.get(0).matches("jato failing: (worker [01]|the runner) failed.*"
                + ": java.lang.OutOfMemoryError: Java heap space"), output);
        assertTrue(errors.get(1).startsWith("jato failing: the heap is too small for this run"), output);
    }
}
