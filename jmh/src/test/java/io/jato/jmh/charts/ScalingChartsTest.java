package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture (a JMH run of one benchmark with two protocols at 1, 2 and 4 threads) rendered end to
 * end: both charts are real 800x500 PNGs, and the summary's table and abort breakdown hold the
 * fixture's numbers, computed here from the fixture itself.
 */
class ScalingChartsTest {
    private static final String SLUG = "transferbenchmark-transfer-thrpt-accounts-100000";

    @TempDir
    Path out;

    static Path fixture() throws URISyntaxException {
        return Path.of(ScalingChartsTest.class.getResource("transfer-2-protocols.json").toURI());
    }

    @Test
    void writesBothChartsAsPngsOfTheAgreedSize() throws Exception {
        List<Path> written = ScalingCharts.render(out, List.of(fixture()));

        assertEquals(List.of(out.resolve(SLUG + "-throughput.png"), out.resolve(SLUG + "-aborts.png"),
                out.resolve(ScalingCharts.SUMMARY)), written);
        for (String chart : List.of(SLUG + "-throughput.png", SLUG + "-aborts.png")) {
            Pngs.read(out.resolve(chart));
        }
        try (Stream<Path> left = Files.list(out)) {
            assertEquals(3, left.count(), "the staging directory is gone, nothing else is there");
        }
    }

    @Test
    void summaryTabulatesTheFixturesThroughputAndAbortRates() throws Exception {
        ScalingCharts.render(out, List.of(fixture()));
        String summary = Files.readString(out.resolve(ScalingCharts.SUMMARY));

        // protocol -> threads -> expected cell, from the fixture's own numbers.
        Map<String, Map<Integer, String>> cells = new TreeMap<>();
        for (JsonElement e : fixtureEntries()) {
            JsonObject r = e.getAsJsonObject();
            JsonObject primary = r.getAsJsonObject("primaryMetric");
            JsonObject secondary = r.getAsJsonObject("secondaryMetrics");
            double aborts = secondaryScore(secondary, "aborts");
            double commits = secondaryScore(secondary, "commits");
            String cell = String.format(Locale.ROOT, "%,d %s (%.1f%% aborts)",
                    Math.round(primary.get("score").getAsDouble()), primary.get("scoreUnit").getAsString(),
                    100 * aborts / (commits + aborts));
            cells.computeIfAbsent(r.getAsJsonObject("params").get("protocol").getAsString(), p -> new TreeMap<>())
                    .put(r.get("threads").getAsInt(), cell);
        }
        assertEquals(2, cells.size(), "the fixture has two protocols");

        assertTrue(summary.contains("| protocol | 1 thread | 2 threads | 4 threads |\n|---|---:|---:|---:|\n"), summary);
        for (Map.Entry<String, Map<Integer, String>> protocol : cells.entrySet()) {
            assertEquals(3, protocol.getValue().size(), "three thread counts");
            String row = "| " + protocol.getKey() + " | " + String.join(" | ", protocol.getValue().values()) + " |\n";
            assertTrue(summary.contains(row), "expected row " + row + " in\n" + summary);
        }
        assertTrue(summary.contains("![throughput](" + SLUG + "-throughput.png)"), summary);
        assertTrue(summary.contains("![abort rate](" + SLUG + "-aborts.png)"), summary);
    }

    @Test
    void summaryBreaksDownTheNonZeroAbortCausesAtTheHighestThreadCount() throws Exception {
        ScalingCharts.render(out, List.of(fixture()));
        String summary = Files.readString(out.resolve(ScalingCharts.SUMMARY));

        for (JsonElement e : fixtureEntries()) {
            JsonObject r = e.getAsJsonObject();
            String protocol = r.getAsJsonObject("params").get("protocol").getAsString();
            int threads = r.get("threads").getAsInt();
            String prefix = "- " + protocol + ", " + threads + " threads:";
            List<String> line = summary.lines().filter(l -> l.startsWith(prefix)).toList();
            if (threads != 4) {
                assertEquals(List.of(), line, "only the highest thread count is broken down");
                continue;
            }
            assertEquals(1, line.size(), prefix + " in\n" + summary);
            JsonObject secondary = r.getAsJsonObject("secondaryMetrics");
            double aborts = secondaryScore(secondary, "aborts");
            for (String cause : secondary.keySet()) {
                if (!cause.startsWith("abort") || cause.equals("aborts")) {
                    continue;
                }
                double count = secondaryScore(secondary, cause);
                String expected = String.format(Locale.ROOT, "%s %,d ops/s (%.1f%% of aborts)", cause,
                        Math.round(count), 100 * count / aborts);
                assertEquals(count != 0, line.get(0).contains(expected),
                        "cause " + cause + " = " + count + " listed exactly when non-zero: " + line.get(0));
                assertEquals(count != 0, line.get(0).contains(cause), line.get(0));
            }
        }
    }

    @Test
    void summarySaysWhatProducedTheResults() throws Exception {
        ScalingCharts.render(out, List.of(fixture()));
        String summary = Files.readString(out.resolve(ScalingCharts.SUMMARY));
        JsonObject first = fixtureEntries().get(0).getAsJsonObject();

        assertTrue(summary.contains(fixture().toString()), "the input file is listed");
        for (String field : List.of("jmhVersion", "vmName", "vmVersion")) {
            assertTrue(summary.contains(first.get(field).getAsString()), field);
        }
        List<String> jvmArgs = new ArrayList<>();
        first.getAsJsonArray("jvmArgs").forEach(a -> jvmArgs.add(a.getAsString()));
        assertTrue(summary.contains(String.join(" ", jvmArgs)), "jvmArgs");
    }

    @Test
    void commandLineWritesTheSameOutputAndExitsZero() throws Exception {
        Path dir = out.resolve("new/sub");
        Streams streams = new Streams();

        int status = ScalingCharts.COMMAND.run(new String[] {dir.toString(), fixture().toString()}, streams.out, streams.err);

        assertEquals(0, status, streams.err());
        assertTrue(Files.isRegularFile(dir.resolve(ScalingCharts.SUMMARY)));
        assertTrue(streams.out().contains("wrote 2 charts"), streams.out());
    }

    private static JsonArray fixtureEntries() throws IOException, URISyntaxException {
        return JsonParser.parseString(Files.readString(fixture())).getAsJsonArray();
    }

    private static double secondaryScore(JsonObject secondary, String name) {
        return secondary.getAsJsonObject(name).get("score").getAsDouble();
    }
}
