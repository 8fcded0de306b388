package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which reports share a chart: the bars' categories name only what differs, repeats are one bar
 * (their mean), a scaling chart is drawn only where a workload and parameter set was run at several
 * thread counts, and a latency chart has one line per report of its workload.
 */
class RunChartsGroupingTest {
    @TempDir
    Path dir;

    @Test
    void barCategoriesNameOnlyTheParametersThatDifferWithOneSeriesPerProtocol() throws Exception {
        RunReport occ = report("occ.json", RunJson.TPCC, r -> { });
        RunReport tictoc = report("tictoc.json", RunJson.TPCC_TICTOC, r -> { });
        RunReport fourWarehouses = report("w4.json", RunJson.TPCC, r -> {
            r.getAsJsonObject("parameters").addProperty("warehouses", 4);
            r.addProperty("throughput_txn_per_s", 50000.0);
        });
        RunReport ycsb = report("ycsb.json", RunJson.YCSB_OLD, r -> { });

        ProtocolBars bars = ProtocolBars.of(List.of(ycsb, fourWarehouses, tictoc, occ));

        assertEquals(List.of("tpcc warehouses=1, 2 threads", "tpcc warehouses=4, 2 threads", "ycsb, 1 thread"),
                bars.categories());
        assertEquals(Map.of(
                        "occ", Arrays.asList(occ.throughput(), 50000.0, ycsb.throughput()),
                        "tictoc", Arrays.asList(tictoc.throughput(), null, null)),
                bars.throughput());
        assertEquals(Arrays.asList(tictoc.abortRatePercent(), null, null), bars.abortRatePercent().get("tictoc"));
        assertNotEquals(occ.abortRatePercent(), tictoc.abortRatePercent(), "the fixtures tell the protocols apart");
    }

    @Test
    void aParameterValueOrdersNumericallyAndAMissingOneDiffers() throws Exception {
        RunReport ten = report("w10.json", RunJson.TPCC, r -> r.getAsJsonObject("parameters").addProperty("warehouses", 10));
        RunReport two = report("w2.json", RunJson.TPCC, r -> r.getAsJsonObject("parameters").addProperty("warehouses", 2));
        RunReport none = report("w-none.json", RunJson.TPCC, r -> r.getAsJsonObject("parameters").remove("warehouses"));

        assertEquals(List.of("tpcc warehouses=2, 2 threads", "tpcc warehouses=10, 2 threads",
                "tpcc warehouses=–, 2 threads"), ProtocolBars.of(List.of(ten, none, two)).categories());
    }

    @Test
    void repeatsAreOneBarAndOnePointTheirMeanButEachATableRow() throws Exception {
        RunReport a = report("a.json", RunJson.TPCC, r -> r.addProperty("throughput_txn_per_s", 1000.0));
        RunReport b = report("b.json", RunJson.TPCC, r -> r.addProperty("throughput_txn_per_s", 3000.0));
        RunReport one = report("one.json", RunJson.TPCC, r -> {
            r.addProperty("threads", 1);
            r.addProperty("throughput_txn_per_s", 700.0);
        });

        RunChartPlan plan = RunChartPlan.of(List.of(a, b, one));

        assertEquals(List.of("tpcc, 1 thread", "tpcc, 2 threads"), plan.bars().categories());
        assertEquals(Arrays.asList(700.0, 2000.0), plan.bars().throughput().get("occ"));
        assertEquals(1, plan.groups().size());
        assertEquals(List.of(one, a, b), plan.groups().get(0).reports(), "each is a row, by threads");
        assertEquals(Map.of("occ", Map.of(1, 700.0, 2, 2000.0)),
                plan.groups().get(0).throughputByProtocolAndThreads());
    }

    @Test
    void aScalingChartOnlyWhereReportsDifferOnlyInThreadsAndProtocol() throws Exception {
        List<RunReport> reports = List.of(
                report("occ-1.json", RunJson.TPCC, r -> r.addProperty("threads", 1)),
                report("occ-2.json", RunJson.TPCC, r -> { }),
                report("occ-4.json", RunJson.TPCC, r -> r.addProperty("threads", 4)),
                report("tictoc-2.json", RunJson.TPCC_TICTOC, r -> { }),
                report("w4-2.json", RunJson.TPCC, r -> r.getAsJsonObject("parameters").addProperty("warehouses", 4)));

        RunChartPlan plan = RunChartPlan.of(reports);

        assertEquals(2, plan.groups().size());
        assertEquals(1, plan.scaling().size(), "the warehouses=4 group has one thread count");
        RunChartPlan.Scaling scaling = plan.scaling().get(0);
        assertEquals("scaling-tpcc-warehouses-1.png", scaling.file());
        assertEquals(List.of(1, 2, 4), List.copyOf(scaling.group().threadCounts()));
        assertEquals(Map.of("occ", Map.of(1, reports.get(0).throughput(), 2, reports.get(1).throughput(),
                        4, reports.get(2).throughput()), "tictoc", Map.of(2, reports.get(3).throughput())),
                scaling.group().throughputByProtocolAndThreads());
        assertTrue(plan.notCharted().isEmpty(), plan.notCharted().toString());

        RunChartPlan flat = RunChartPlan.of(List.of(reports.get(1), reports.get(3), reports.get(4)));
        assertEquals(List.of(), flat.scaling());
        assertEquals(List.of("Scaling by threads: no two reports differ only in threads (and protocol)."),
                flat.notCharted());
    }

    @Test
    void aLatencyChartPerWorkloadWithALinePerReportLabelledByWhatDiffers() throws Exception {
        RunReport occ = report("occ.json", RunJson.TPCC, r -> { });
        RunReport tictoc = report("tictoc.json", RunJson.TPCC_TICTOC, r -> { });
        RunReport oneThread = report("occ-1.json", RunJson.TPCC, r -> r.addProperty("threads", 1));
        RunReport ycsb = report("ycsb-new.json", RunJson.TPCC, r -> r.addProperty("workload", "ycsb"));

        List<RunChartPlan.LatencyChart> charts = RunChartPlan.of(List.of(occ, tictoc, ycsb)).latency();
        assertEquals(List.of("latency-tpcc.png", "latency-ycsb-new.png"),
                charts.stream().map(RunChartPlan.LatencyChart::file).toList());
        assertEquals(Map.of("occ", occ, "tictoc", tictoc), charts.get(0).lines());
        assertEquals(Map.of("occ", ycsb), charts.get(1).lines());

        assertEquals(List.of("occ, 2 threads", "occ, 1 thread"), List.copyOf(
                RunChartPlan.of(List.of(occ, oneThread)).latency().get(0).lines().keySet()));
        RunReport again = report("occ-again.json", RunJson.TPCC, r -> { });
        assertEquals(List.of("occ (occ.json)", "occ (occ-again.json)"), List.copyOf(
                RunChartPlan.of(List.of(occ, again)).latency().get(0).lines().keySet()));
    }

    @Test
    void reportsWithTheSameFileNameAreNamedByTheirPaths() throws Exception {
        Path a = RunJson.write(RunJson.load(RunJson.TPCC), Files.createDirectories(dir.resolve("a")).resolve("r.json"));
        Path b = RunJson.write(RunJson.load(RunJson.TPCC_TICTOC),
                Files.createDirectories(dir.resolve("b")).resolve("r.json"));
        Path c = RunJson.write(RunJson.load(RunJson.TPCC), dir.resolve("c.json"));

        List<Path> written = RunCharts.render(dir.resolve("out"), List.of(a, b, c));

        String summary = Files.readString(dir.resolve("out").resolve(RunCharts.SUMMARY));
        for (Path p : List.of(a, b)) {
            assertTrue(summary.contains("| `" + p + "` | occ |") || summary.contains("| `" + p + "` | tictoc |"),
                    p + " in\n" + summary);
        }
        assertTrue(summary.contains("| `c.json` | occ |"), summary);
        List<String> timelines = written.stream().map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("timeline-")).toList();
        assertEquals(3, timelines.size(), timelines.toString());
        assertTrue(timelines.get(0).endsWith("-a-r.png") && timelines.get(1).endsWith("-b-r.png"), timelines.toString());
    }

    @Test
    void aMixedStoreIsItsOwnSeriesNamedAsItsProtocolParamIs() throws Exception {
        RunReport mixed = report("mixed.json", RunJson.TPCC, r -> {
            JsonObject bindings = new JsonObject();
            bindings.addProperty("stock", "tictoc");
            bindings.addProperty("customer", "tictoc");
            r.add("object_protocols", bindings);
        });
        RunReport occ = report("occ.json", RunJson.TPCC, r -> { });

        assertEquals("occ+stock=tictoc+customer=tictoc", mixed.protocol(), "the report's order");
        assertEquals(List.of("occ", "occ+stock=tictoc+customer=tictoc"),
                List.copyOf(ProtocolBars.of(List.of(mixed, occ)).throughput().keySet()));
    }

    @Test
    void aReportWithoutAnAbortRateHasNoAbortBarAndTheSummarySaysSo() throws Exception {
        RunReport noStm = report("no-stm.json", RunJson.TPCC_TICTOC, r -> r.remove("stm"));
        RunReport occ = report("occ.json", RunJson.TPCC, r -> { });

        RunChartPlan plan = RunChartPlan.of(List.of(noStm, occ));

        assertEquals(Arrays.asList((Double) null), plan.bars().abortRatePercent().get("tictoc"));
        assertEquals(List.of(occ.abortRatePercent()), plan.bars().abortRatePercent().get("occ"));
        assertEquals(List.of("`no-stm.json` has no abort rate (`stm.abort_rate`): it has no bar in the abort-rate chart.",
                "Scaling by threads: no two reports differ only in threads (and protocol)."), plan.notCharted());
        assertEquals(List.of("Abort-rate bars: no report has an abort rate (`stm.abort_rate`).",
                "Scaling by threads: no two reports differ only in threads (and protocol)."),
                RunChartPlan.of(List.of(noStm, report("no-stm-2.json", RunJson.TPCC, r -> r.remove("stm"))))
                        .notCharted());
    }

    @Test
    void theLatencyCurveLeavesOutOnlyWhatTheNinesScaleCannotShow() throws Exception {
        RunReport r = report("zero.json", RunJson.TPCC, json -> json.getAsJsonArray("latency_distribution_us")
                .get(0).getAsJsonObject().addProperty("value_us", 0));
        List<RunReport.Percentile> all = r.latencyDistribution();

        List<RunReport.Percentile> charted = r.chartablePercentiles();

        assertEquals(100.0, all.get(all.size() - 1).percentile(), "the fixture ends at 100%, as HdrHistogram does");
        assertEquals(all.subList(1, all.size() - 1), charted, "not 100% (at infinity), not 0 µs (log axis)");
        RunReport empty = report("empty.json", RunJson.TPCC, json -> json.add("latency_distribution_us",
                new JsonArray()));
        assertEquals(List.of("`empty.json` has an empty latency distribution (no transaction committed):"
                + " not on a latency percentile chart."), RunChartPlan.of(List.of(empty)).notCharted().stream()
                .filter(l -> l.contains("latency")).toList());
    }

    @Test
    void theNinesScalePutsEachNineOneStepFurther() {
        assertEquals(0.0, RunChartRenderer.nines(0), 1e-12);
        assertEquals(1.0, RunChartRenderer.nines(90), 1e-12);
        assertEquals(3.0, RunChartRenderer.nines(99.9), 1e-9);
        assertEquals(List.of("0%", "90%", "99%", "99.9%", "99.99%", ""),
                List.of(0.0, 1.0, 2.0, 3.0, 4.0, 2.5).stream().map(RunChartRenderer::ninesLabel).toList());
    }

    /** A fixture with one edit, written as {@code name} and read back as the tool reads it. */
    private RunReport report(String name, String fixture, Consumer<JsonObject> edit) throws Exception {
        JsonObject json = RunJson.load(fixture);
        edit.accept(json);
        return RunReportReader.read(RunJson.write(json, dir.resolve(name)));
    }
}
