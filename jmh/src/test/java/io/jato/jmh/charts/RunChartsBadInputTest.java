package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file that is not a usable runner report is refused before anything is written: a message that
 * names the file and the problem, exit status 2 on the command line, and nothing in the output
 * directory (above all no summary.md).
 */
class RunChartsBadInputTest {
    @TempDir
    Path dir;

    @Test
    void aMissingFileOrOneThatIsNotJsonIsNamed() throws Exception {
        assertRefused(dir.resolve("no-such-report.json"), "no such file");
        assertRefused(write("text.json", "throughput 29,089 txn/s\n"), "not valid JSON");
        assertRefused(write("empty.json", ""), "not a runner report");
        assertRefused(write("two.json", "{} {}"), "not valid JSON");
    }

    @Test
    void jsonThatIsNotARunnerReportIsNamed() throws Exception {
        assertRefused(write("jmh.json", "[{\"benchmark\": \"a.B.c\"}]"), "found an array (JMH's results? ScalingCharts");
        assertRefused(write("other.json", "{\"name\": \"x\"}"), "no 'workload' (not a runner report?)");
        assertRefused(edited("no-throughput.json", r -> r.remove("throughput_txn_per_s")),
                "no 'throughput_txn_per_s' (not a runner report?)");
        assertRefused(edited("no-protocol.json", r -> r.remove("protocol")), "no 'protocol'");
        assertRefused(edited("no-threads.json", r -> r.remove("threads")), "no 'threads'");
    }

    @Test
    void aKeyOfTheWrongShapeIsNamed() throws Exception {
        assertRefused(edited("null-throughput.json", r -> r.add("throughput_txn_per_s", null)),
                "'throughput_txn_per_s' is not a number");
        assertRefused(edited("negative.json", r -> r.addProperty("throughput_txn_per_s", -1)),
                "'throughput_txn_per_s' is -1, not a throughput");
        assertRefused(edited("threads.json", r -> r.addProperty("threads", 1.5)), "'threads' is 1.5, not a thread count");
        assertRefused(edited("rate.json", r -> r.getAsJsonObject("stm").addProperty("abort_rate", 2)),
                "'stm.abort_rate' is 2.0, not a fraction of attempts");
        assertRefused(edited("series.json", r -> r.addProperty("series", "none")), "'series' is not an array");
        assertRefused(edited("phase.json", r -> second(r, 2).addProperty("phase", "cooldown")),
                "'series[2].phase' is \"cooldown\", not \"warmup\" or \"measure\"");
        assertRefused(edited("t.json", r -> second(r, 1).remove("t_s")), "no 'series[1].t_s'");
        assertRefused(edited("percentile.json", r -> r.getAsJsonArray("latency_distribution_us").get(3)
                .getAsJsonObject().addProperty("percentile", 101)),
                "'latency_distribution_us[3].percentile' is 101, not a percentile (0 to 100)");
        assertRefused(edited("check.json", r -> r.getAsJsonObject("check").add("passed", new JsonPrimitive("yes"))),
                "'check.passed' is \"yes\", not true or false");
    }

    @Test
    void theSameFileTwiceIsRefused() throws Exception {
        Path report = RunJson.fixture(RunJson.TPCC);
        Path out = dir.resolve("out");

        ResultsInputException e = assertThrows(ResultsInputException.class,
                () -> RunCharts.render(out, List.of(report, report.getParent().resolve(".").resolve(RunJson.TPCC))));

        assertTrue(e.getMessage().contains("given twice (also as " + report + ")"), e.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void oneBadFileAmongGoodOnesWritesNothing() throws Exception {
        Path bad = edited("bad.json", r -> r.remove("workload"));
        Path out = Files.createDirectories(dir.resolve("out"));

        ResultsInputException e = assertThrows(ResultsInputException.class, () -> RunCharts.render(out,
                List.of(RunJson.fixture(RunJson.TPCC), RunJson.fixture(RunJson.TPCC_TICTOC), bad)));

        assertTrue(e.getMessage().startsWith(bad + ": no 'workload'"), e.getMessage());
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(List.of(), files.toList());
        }
    }

    @Test
    void aFailedRunLeavesAnEarlierCompleteOutputAlone() throws Exception {
        Path out = dir.resolve("out");
        RunCharts.render(out, List.of(RunJson.fixture(RunJson.TPCC), RunJson.fixture(RunJson.TPCC_TICTOC)));
        String before = Files.readString(out.resolve(RunCharts.SUMMARY));
        Path other = RunJson.write(RunJson.with(RunJson.load(RunJson.TPCC), "occ", 8), dir.resolve("other.json"));

        assertThrows(ResultsInputException.class,
                () -> RunCharts.render(out, List.of(other, dir.resolve("missing.json"))));

        assertEquals(before, Files.readString(out.resolve(RunCharts.SUMMARY)));
        assertFalse(Files.exists(out.resolve("timeline-other.png")));
    }

    @Test
    void usageErrorsExitWithTwo() throws Exception {
        Refusals.assertUsageErrors(RunCharts.COMMAND, dir, RunJson.fixture(RunJson.TPCC));
    }

    /** Refused by render (the message) and by the command line (status 2, stderr), with nothing written. */
    private void assertRefused(Path input, String problem) throws Exception {
        Refusals.assertRefused(RunCharts.COMMAND, dir.resolve("out-" + input.getFileName()), input, problem);
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    /** The real TPC-C report with one edit, as {@code name}. */
    private Path edited(String name, Consumer<JsonObject> edit) throws Exception {
        JsonObject report = RunJson.load(RunJson.TPCC);
        edit.accept(report);
        return RunJson.write(report, dir.resolve(name));
    }

    private static JsonObject second(JsonObject report, int i) {
        return report.getAsJsonArray("series").get(i).getAsJsonObject();
    }
}
