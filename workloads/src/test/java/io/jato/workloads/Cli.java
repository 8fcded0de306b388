package io.jato.workloads;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the command line in-process for tests, and checks what a usage error must look like. */
public final class Cli {
    private Cli() {
    }

    /** The outcome of one {@link Main#run}. */
    public record Outcome(int status, String out, String err) {
    }

    /** Runs {@code jato args...} and captures its status and output. */
    public static Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Main.run(args, o, e);
        }
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A usage error: status 2, nothing on standard output, and exactly two lines on standard error —
     * {@code who: ...expected...} and {@code Try 'who --help'...} — with no stack trace.
     */
    public static void assertUsageError(Outcome o, String who, String expected) {
        assertEquals(Main.EXIT_USAGE, o.status(), o.err());
        assertEquals("", o.out());
        List<String> lines = o.err().lines().toList();
        assertEquals(2, lines.size(), o.err());
        assertTrue(lines.get(0).startsWith(who), lines.get(0));
        assertTrue(lines.get(0).contains(expected.trim()), () -> "expected '" + expected.trim() + "' in: " + lines.get(0));
        assertTrue(lines.get(1).startsWith("Try '" + who), lines.get(1));
        assertFalse(o.err().contains("Exception"), o.err());
    }
}
