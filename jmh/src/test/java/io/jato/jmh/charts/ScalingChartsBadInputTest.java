package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unusable input is refused with a message that names the file and the problem, exit status 2 on the
 * command line, and nothing in the output directory: no chart, and above all no summary.md.
 */
class ScalingChartsBadInputTest {
    @TempDir
    Path dir;

    @Test
    void aMissingFileIsNamed() throws Exception {
        Path missing = dir.resolve("no-such-results.json");

        assertRefused(missing, "no such file");
    }

    @Test
    void jsonThatIsNotAJmhResultArrayIsNamed() throws Exception {
        assertRefused(write("object.json", "{\"benchmark\": \"x\"}"), "not a JMH JSON result file");
        assertRefused(write("text.json", "Benchmark  Mode  Cnt  Score\n"), "not valid JSON");
        assertRefused(write("trailing.json", "[] []"), "not a JMH JSON result file");
        assertRefused(write("empty.json", ""), "not a JMH JSON result file");
        assertRefused(write("numbers.json", "[1, 2]"), "entry 0: not a JMH benchmark result");
        assertRefused(write("other.json", "[{\"name\": \"x\", \"value\": 1}]"), "entry 0: no 'benchmark'");
        assertRefused(write("threads.json", "[{\"benchmark\": \"a.B.c\", \"mode\": \"thrpt\", \"threads\": 0}]"),
                "entry 0: 'threads' is 0, not a thread count");
        assertRefused(write("noscore.json",
                "[{\"benchmark\": \"a.B.c\", \"mode\": \"thrpt\", \"threads\": 1, \"primaryMetric\": {}}]"),
                "entry 0: no 'primaryMetric.score'");
    }

    @Test
    void anEmptyResultArrayIsNoResults() throws Exception {
        assertRefused(write("none.json", "[]"), "no results");
    }

    @Test
    void oneBadFileAmongGoodOnesWritesNothing() throws Exception {
        Path good = ScalingChartsTest.fixture();
        Path bad = write("bad.json", "{}");
        Path out = dir.resolve("out");
        Files.createDirectories(out);

        ResultsInputException e = assertThrows(ResultsInputException.class,
                () -> ScalingCharts.render(out, List.of(good, bad)));

        assertTrue(e.getMessage().startsWith(bad.toString()), e.getMessage());
        assertEmpty(out);
    }

    @Test
    void usageErrorsExitWithTwo() throws Exception {
        Refusals.assertUsageErrors(ScalingCharts.COMMAND, dir, ScalingChartsTest.fixture());
    }

    @Test
    void aFailedRunLeavesAnEarlierCompleteOutputAlone() throws Exception {
        Path out = dir.resolve("out");
        ScalingCharts.render(out, List.of(ScalingChartsTest.fixture()));
        String before = Files.readString(out.resolve(ScalingCharts.SUMMARY));
        Path other = new JmhJson().add("a.B.c", "thrpt", 1, Map.of(), 1.0, Map.of()).write(dir.resolve("other.json"));

        assertThrows(ResultsInputException.class,
                () -> ScalingCharts.render(out, List.of(other, dir.resolve("missing.json"))));

        assertEquals(before, Files.readString(out.resolve(ScalingCharts.SUMMARY)));
        assertFalse(Files.exists(out.resolve("b-c-thrpt-throughput.png")));
    }

    /** Refused by render (the message) and by the command line (status 2, stderr), with nothing written. */
    private void assertRefused(Path input, String problem) throws Exception {
        Refusals.assertRefused(ScalingCharts.COMMAND, dir.resolve("out-" + input.getFileName()), input, problem);
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    private static void assertEmpty(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.toList());
        }
    }
}
