package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report written before the runner recorded a per-second series, a latency distribution and its
 * provenance (committed under docs/benchmarks/) is charted as far as it goes: its numbers are in
 * the table and the bars, and the summary says which charts it has none of, and why.
 */
class RunChartsOldReportTest {
    private static final String OLD = "`" + RunJson.YCSB_OLD + "`";

    @TempDir
    Path out;

    @Test
    void aloneItGetsItsTableRowAndTheReasonsForEveryChartItLacks() throws Exception {
        List<Path> written = RunCharts.render(out, List.of(RunJson.fixture(RunJson.YCSB_OLD)));

        assertEquals(List.of(out.resolve(RunCharts.SUMMARY)), written, "nothing to draw");
        String summary = Files.readString(out.resolve(RunCharts.SUMMARY));
        JsonObject r = RunJson.load(RunJson.YCSB_OLD);
        JsonObject latency = r.getAsJsonObject("latency_us");
        String row = String.format(Locale.ROOT, "| %s | %s | %d | %s | %.1f%% | %s | %s | %s | passed |", OLD,
                r.get("protocol").getAsString(), r.get("threads").getAsInt(),
                RunChartsTest.number(r.get("throughput_txn_per_s").getAsDouble()),
                100 * r.getAsJsonObject("stm").get("abort_rate").getAsDouble(),
                RunChartsTest.number(latency.get("p50").getAsDouble()),
                RunChartsTest.number(latency.get("p99").getAsDouble()),
                RunChartsTest.number(latency.get("p99_9").getAsDouble()));
        assertTrue(summary.contains(row + "\n"), "expected " + row + " in\n" + summary);

        String notCharted = summary.substring(summary.indexOf("## Not charted\n"));
        assertEquals(List.of(
                "- Protocol × workload bars: one report given; they compare two or more.",
                "- " + OLD + " has no latency distribution (written before the runner recorded one):"
                        + " not on a latency percentile chart.",
                "- " + OLD + " has no per-second series (written before the runner recorded one):"
                        + " no throughput-over-time chart."),
                notCharted.lines().filter(l -> l.startsWith("- ")).toList());
        assertFalse(summary.contains("!["), "no chart linked:\n" + summary);
    }

    @Test
    void itsProvenanceIsWhatItRecordedAndSaysSo() throws Exception {
        RunCharts.render(out, List.of(RunJson.fixture(RunJson.YCSB_OLD)));
        String summary = Files.readString(out.resolve(RunCharts.SUMMARY));
        JsonObject r = RunJson.load(RunJson.YCSB_OLD);

        String row = summary.lines().filter(l -> l.startsWith("| " + OLD + " | `")).findFirst().orElseThrow();
        assertEquals("| " + OLD + " | `" + RunJson.fixture(RunJson.YCSB_OLD) + "` | – | – | "
                + r.get("java_version").getAsString() + " | – | – | " + r.get("available_processors").getAsInt()
                + " | – |", row);
        assertTrue(summary.contains("written before the runner recorded them"), summary);
    }

    @Test
    void besideANewReportItIsOnTheBarsButNotOnTheNewOnesOtherCharts() throws Exception {
        List<Path> written = RunCharts.render(out, List.of(RunJson.fixture(RunJson.YCSB_OLD),
                RunJson.fixture(RunJson.TPCC)));

        assertEquals(List.of("throughput-by-protocol.png", "aborts-by-protocol.png", "latency-runner-tpcc.png",
                        "timeline-runner-tpcc.png", RunCharts.SUMMARY),
                written.stream().map(p -> p.getFileName().toString()).toList());
        String summary = Files.readString(out.resolve(RunCharts.SUMMARY));
        List<String> reasons = summary.lines().filter(l -> l.startsWith("- ")).toList();
        assertEquals(3, reasons.size(), summary);
        assertTrue(reasons.get(0).startsWith("- Scaling by threads: no two reports differ only in threads"), reasons.get(0));
        assertTrue(reasons.stream().skip(1).allMatch(l -> l.startsWith("- " + OLD + " has no ")), reasons.toString());
        assertFalse(summary.contains("`runner-tpcc.json` has no"), "the new report lacks nothing");
    }
}
