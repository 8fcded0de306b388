package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.awt.image.BufferedImage;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three TPC-C reports of one setting (occ at 1 and 2 threads, tictoc at 2) rendered end to end:
 * every kind of chart is a real 800x500 PNG, the throughput-over-time chart shows warm-up and
 * measured seconds in their own colours, and the summary's table and provenance hold each report's
 * own numbers, computed here from the fixtures.
 */
class RunChartsTest {
    @TempDir
    Path dir;

    private Path out;
    private List<Path> inputs;

    @BeforeEach
    void inputs() throws Exception {
        out = dir.resolve("out");
        JsonObject oneThread = RunJson.with(RunJson.load(RunJson.TPCC), "occ", 1);
        oneThread.addProperty("throughput_txn_per_s", 17322.4);
        inputs = List.of(RunJson.fixture(RunJson.TPCC), RunJson.fixture(RunJson.TPCC_TICTOC),
                RunJson.write(oneThread, dir.resolve("runner-tpcc-1t.json")));
    }

    @Test
    void drawsEveryKindOfChartAsAPngOfTheAgreedSize() throws Exception {
        List<Path> written = RunCharts.render(out, inputs);

        List<String> expected = List.of("throughput-by-protocol.png", "aborts-by-protocol.png", "scaling-tpcc.png",
                "latency-tpcc.png", "timeline-runner-tpcc.png", "timeline-runner-tpcc-tictoc.png",
                "timeline-runner-tpcc-1t.png", RunCharts.SUMMARY);
        assertEquals(expected.stream().map(out::resolve).toList(), written);
        for (String chart : expected.subList(0, expected.size() - 1)) {
            Pngs.read(out.resolve(chart));
        }
        try (Stream<Path> left = Files.list(out)) {
            assertEquals(expected.size(), left.count(), "the staging directory is gone, nothing else is there");
        }
    }

    @Test
    void theTimelineShowsWarmUpAndMeasuredSecondsInTheirOwnColours() throws Exception {
        JsonObject allMeasured = RunJson.load(RunJson.TPCC);
        allMeasured.getAsJsonArray("series").forEach(s -> s.getAsJsonObject().addProperty("phase", "measure"));
        Path noWarmUp = RunJson.write(allMeasured, dir.resolve("no-warm-up.json"));

        RunCharts.render(out, List.of(RunJson.fixture(RunJson.TPCC), noWarmUp));

        BufferedImage both = Pngs.read(out.resolve("timeline-runner-tpcc.png"));
        BufferedImage measuredOnly = Pngs.read(out.resolve("timeline-no-warm-up.png"));
        assertTrue(Pngs.pixels(both, RunChartRenderer.WARM_UP) > 20, "the fixture's warm-up second is drawn");
        assertEquals(0, Pngs.pixels(measuredOnly, RunChartRenderer.WARM_UP), "no warm-up colour without warm-up");
        for (BufferedImage image : List.of(both, measuredOnly)) {
            assertTrue(Pngs.pixels(image, RunChartRenderer.MEASURED) > 20, "measured seconds drawn");
            assertTrue(Pngs.pixels(image, RunChartRenderer.ABORTS) > 20, "abort rate drawn");
        }
    }

    @Test
    void summaryTabulatesEachReportFromItsOwnNumbers() throws Exception {
        RunCharts.render(out, inputs);
        String summary = Files.readString(out.resolve(RunCharts.SUMMARY));

        String heading = "## tpcc (" + RunJson.load(RunJson.TPCC).getAsJsonObject("parameters").entrySet().stream()
                .map(p -> p.getKey() + "=" + p.getValue().getAsString()).sorted().collect(Collectors.joining(", "))
                + ")\n";
        assertTrue(summary.contains(heading + "\n| report | protocol | threads | throughput (txn/s) | abort rate"
                + " | p50 (µs) | p99 (µs) | p99.9 (µs) | check |\n"), summary);
        List<String> rows = new ArrayList<>();
        for (Path input : inputs) {
            JsonObject r = RunJson.load(input);
            JsonObject latency = r.getAsJsonObject("latency_us");
            rows.add(String.format(Locale.ROOT, "| `%s` | %s | %d | %s | %.1f%% | %s | %s | %s | passed |\n",
                    input.getFileName(), r.get("protocol").getAsString(), r.get("threads").getAsInt(),
                    number(r.get("throughput_txn_per_s").getAsDouble()),
                    100 * r.getAsJsonObject("stm").get("abort_rate").getAsDouble(),
                    number(latency.get("p50").getAsDouble()), number(latency.get("p99").getAsDouble()),
                    number(latency.get("p99_9").getAsDouble())));
        }
        int at = summary.indexOf(heading);
        for (String row : rows) {
            assertTrue(summary.indexOf(row) > at, "expected row " + row + " under " + heading + " in\n" + summary);
        }
        // By protocol, then threads: occ 1, occ 2, tictoc 2.
        assertTrue(summary.indexOf(rows.get(2)) < summary.indexOf(rows.get(0))
                && summary.indexOf(rows.get(0)) < summary.indexOf(rows.get(1)), summary);
    }

    @Test
    void summaryGivesEachReportsProvenance() throws Exception {
        RunCharts.render(out, inputs);
        String summary = Files.readString(out.resolve(RunCharts.SUMMARY));

        for (Path input : inputs) {
            JsonObject r = RunJson.load(input);
            String row = summary.lines().filter(l -> l.startsWith("| `" + input.getFileName() + "` | `" + input + "`"))
                    .findFirst().orElseThrow(() -> new AssertionError("no provenance row for " + input + ":\n" + summary));
            JsonObject jvm = r.getAsJsonObject("jvm");
            JsonObject machine = r.getAsJsonObject("machine");
            List<String> flags = new ArrayList<>();
            jvm.getAsJsonArray("flags").forEach(f -> flags.add(f.getAsString()));
            for (String value : List.of(r.get("started_at").getAsString(), r.get("git_commit").getAsString(),
                    jvm.get("version").getAsString(), jvm.get("vm").getAsString(), String.join(" ", flags),
                    machine.get("cpu_model").getAsString(), machine.get("available_processors").getAsString(),
                    machine.get("os").getAsString())) {
                assertTrue(row.contains(value), value + " in " + row);
            }
        }
    }

    @Test
    void summaryLinksEveryChartItWroteAndNothingElse() throws Exception {
        List<Path> written = RunCharts.render(out, inputs);
        String summary = Files.readString(out.resolve(RunCharts.SUMMARY));

        Set<String> linked = new TreeSet<>();
        Matcher m = Pattern.compile("!\\[[^]]*]\\(([^)]+)\\)").matcher(summary);
        while (m.find()) {
            linked.add(m.group(1));
        }
        Set<String> charts = written.subList(0, written.size() - 1).stream()
                .map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(charts, linked);
        assertFalse(summary.contains("## Not charted"), "everything could be charted:\n" + summary);
    }

    @Test
    void aFailedCheckStandsOut() throws Exception {
        JsonObject failed = RunJson.load(RunJson.TPCC);
        failed.getAsJsonObject("check").addProperty("passed", false);
        Path input = RunJson.write(failed, dir.resolve("failed.json"));

        RunCharts.render(out, List.of(input));

        String summary = Files.readString(out.resolve(RunCharts.SUMMARY));
        assertTrue(summary.lines().anyMatch(l -> l.startsWith("| `failed.json` |") && l.endsWith("| **FAILED** |")),
                summary);
    }

    @Test
    void aValueTheRunnerWroteAsNullIsNotAvailableNotZero() throws Exception {
        JsonObject report = RunJson.load(RunJson.TPCC);
        report.getAsJsonObject("latency_us").add("p99_9", null);
        report.getAsJsonObject("stm").add("abort_rate", null);
        Path input = RunJson.write(report, dir.resolve("nulls.json"));

        RunCharts.render(out, List.of(input));

        String summary = Files.readString(out.resolve(RunCharts.SUMMARY));
        String row = summary.lines().filter(l -> l.startsWith("| `nulls.json` | occ |")).findFirst().orElseThrow();
        JsonObject latency = report.getAsJsonObject("latency_us");
        assertEquals(String.format(Locale.ROOT, "| `nulls.json` | occ | 2 | %s | n/a | %s | %s | n/a | passed |",
                number(report.get("throughput_txn_per_s").getAsDouble()), number(latency.get("p50").getAsDouble()),
                number(latency.get("p99").getAsDouble())), row);
    }

    @Test
    void aChartThatCannotBePublishedLeavesNoSummaryBesideTheOthers() throws Exception {
        // A non-empty directory where a chart goes: moving the chart there fails mid-publish.
        Files.createDirectories(out.resolve("latency-tpcc.png").resolve("in-the-way"));
        Files.writeString(out.resolve(RunCharts.SUMMARY), "an earlier rendering's summary");
        Streams streams = new Streams();

        int status = RunCharts.COMMAND.run(args(out), streams.out, streams.err);

        assertEquals(1, status, streams.err());
        assertTrue(streams.err().startsWith("RunCharts: failed"), streams.err());
        assertFalse(Files.exists(out.resolve(RunCharts.SUMMARY)), "the old summary went first, the new one never came");
        try (Stream<Path> left = Files.list(out)) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith(".run-charts-")), "staging removed");
        }
    }

    @Test
    void commandLineWritesTheSameOutputAndExitsZero() throws Exception {
        Path target = dir.resolve("new/sub");
        Streams streams = new Streams();

        int status = RunCharts.COMMAND.run(args(target), streams.out, streams.err);

        assertEquals(0, status, streams.err());
        assertEquals("", streams.err());
        assertEquals("RunCharts: wrote 7 charts and " + target.resolve(RunCharts.SUMMARY) + System.lineSeparator(),
                streams.out());
    }

    /** The command line for the inputs into {@code outDir}. */
    private String[] args(Path outDir) {
        List<String> args = new ArrayList<>(List.of(outDir.toString()));
        inputs.forEach(p -> args.add(p.toString()));
        return args.toArray(String[]::new);
    }

    /** A number as the summary writes it: grouped whole numbers from 100, three significant digits below. */
    static String number(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%,d", Math.round(v))
                : new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }
}
