package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How every chart tool refuses: bad input and bad arguments exit with status 2, the message on
 * standard error starting with the tool's name, nothing on standard output and nothing written.
 */
final class Refusals {
    private Refusals() {
    }

    /**
     * {@code input} is refused by the tool's render (a message naming the file and saying
     * {@code problem}) and by its command line (status 2, the same message), with nothing written
     * to {@code out}.
     */
    static void assertRefused(ChartsCommand command, Path out, Path input, String problem) throws Exception {
        ResultsInputException e = assertThrows(ResultsInputException.class,
                () -> command.renderer().render(out, List.of(input)));
        assertTrue(e.getMessage().startsWith(input + ": "), "names the file: " + e.getMessage());
        assertTrue(e.getMessage().contains(problem), "says " + problem + ": " + e.getMessage());
        assertFalse(Files.exists(out), "nothing written for " + input);

        Streams streams = new Streams();
        int status = command.run(new String[] {out.toString(), input.toString()}, streams.out, streams.err);
        assertEquals(2, status, streams.err());
        assertEquals(command.tool() + ": " + e.getMessage() + System.lineSeparator(), streams.err());
        assertEquals("", streams.out());
        assertFalse(Files.exists(out), "nothing written for " + input);
    }

    /** No arguments, no inputs, and an OUT_DIR that is a file: status 2 and the usage. */
    static void assertUsageErrors(ChartsCommand command, Path dir, Path goodInput) throws Exception {
        Streams none = new Streams();
        assertEquals(2, command.run(new String[0], none.out, none.err));
        assertTrue(none.err().startsWith("usage: "), none.err());

        Streams onlyOut = new Streams();
        assertEquals(2, command.run(new String[] {dir.toString()}, onlyOut.out, onlyOut.err));
        assertTrue(onlyOut.err().startsWith(command.tool() + ": no " + command.inputs() + " given\nusage: "),
                onlyOut.err());

        Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
        Streams fileOut = new Streams();
        assertEquals(2, command.run(new String[] {file.toString(), goodInput.toString()}, fileOut.out, fileOut.err));
        assertTrue(fileOut.err().startsWith(command.tool() + ": " + file + ": exists and is not a directory\nusage: "),
                fileOut.err());
        assertEquals("", none.out() + onlyOut.out() + fileOut.out());
    }
}
