package io.jato.workloads;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runner's JSON report says what produced it and how the run went over time: the per-second
 * series (warm-up and measured seconds, throughput, aborts by cause), the latency distribution, the
 * start time, the JVM with its flags, the machine and the git commit.
 */
class RunJsonTest {
    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void theReportHasTheSeriesTheDistributionAndWhatProducedIt(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("run.json");
        String previous = System.getProperty(Report.GIT_COMMIT_PROPERTY);
        System.setProperty(Report.GIT_COMMIT_PROPERTY, "abc123-dirty");
        Cli.Outcome o;
        try {
            o = Cli.run("transfer", "--accounts", "16", "--threads", "2", "--warmup", "1.2", "--duration", "2.3",
                    "--seed", "4", "--json", json.toString());
        } finally {
            if (previous == null) {
                System.clearProperty(Report.GIT_COMMIT_PROPERTY);
            } else {
                System.setProperty(Report.GIT_COMMIT_PROPERTY, previous);
            }
        }
        assertEquals(Main.EXIT_OK, o.status(), o.err());
        String j = Files.readString(json);

        // 3.5 s of running: a second of warm-up, then measured seconds, one entry each.
        int warmup = count(j, "\"phase\": \"warmup\"");
        int measure = count(j, "\"phase\": \"measure\"");
        assertEquals(1, warmup, j);
        assertTrue(measure >= 2, j);
        assertTrue(j.contains("\"series\": ["), j);
        assertEquals(warmup + measure, count(j, "\"t_s\": "), j);
        assertEquals(warmup + measure + 1, count(j, "\"throughput_txn_per_s\": "), "one per second and the total: " + j);

        // The distribution ends at the 100th percentile with every committed transaction counted.
        Matcher last = Pattern.compile("\"percentile\": 100\\.0,\\s*\"value_us\": [0-9.E]+,\\s*\"count\": (\\d+)")
                .matcher(j);
        assertTrue(last.find(), j);
        Matcher commits = Pattern.compile("\"latency_us\": \\{\\s*\"count\": (\\d+)").matcher(j);
        assertTrue(commits.find(), j);
        assertEquals(commits.group(1), last.group(1), "the distribution covers every committed transaction");

        assertTrue(j.contains("\"git_commit\": \"abc123-dirty\""), j);
        assertTrue(Pattern.compile("\"started_at\": \"\\d{4}-\\d\\d-\\d\\dT").matcher(j).find(), j);
        assertTrue(j.contains("\"flags\": ["), j);
        assertTrue(j.contains("\"cpu_model\": \""), j);
        assertTrue(j.contains("\"vendor\": \"" + System.getProperty("java.vendor") + "\""), j);

        // The collector that ran, and its work over the measured interval (not since the JVM started).
        GcTotals now = GcTotals.now();
        Matcher gc = Pattern.compile("\"gc\": \\{\\s*\"collectors\": \"([^\"]+)\",\\s*\"collections\": (-?\\d+),"
                + "\\s*\"time_ms\": (-?\\d+)").matcher(j);
        assertTrue(gc.find(), j);
        assertEquals(now.collectors(), gc.group(1));
        long collections = Long.parseLong(gc.group(2));
        assertTrue(collections >= 0 && collections <= now.count(), j);
        assertTrue(o.out().contains("gc           " + now.collectors() + "; while measuring: "), o.out());
    }

    @Test
    void gcTotalsOverAnIntervalAreTheDifferenceAndUnknownStaysUnknown() {
        GcTotals before = new GcTotals("A + B", 3, 40);
        assertEquals(new GcTotals("A + B", 2, 15), new GcTotals("A + B", 5, 55).since(before));
        assertEquals(new GcTotals("A + B", -1, 15), new GcTotals("A + B", -1, 55).since(before));
        assertEquals(new GcTotals("A + B", 2, -1), new GcTotals("A + B", 5, 55).since(new GcTotals("A + B", 3, -1)));
    }
}
