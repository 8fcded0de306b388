package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/**
 * What each chart holds, series by series, against the fixtures' own numbers: the seconds of each
 * phase, the latency points on the nines scale, one bar per protocol and setting, one scaling line
 * per protocol.
 */
class RunChartRendererTest {
    @TempDir
    Path dir;

    @Test
    void theTimelineHasTheWarmUpAndMeasuredSecondsApartAndTheAbortRateOnTheRightAxis() throws Exception {
        XYChart chart = RunChartRenderer.timeline(RunReportReader.read(RunJson.fixture(RunJson.TPCC)));
        JsonObject json = RunJson.load(RunJson.TPCC);

        Map<String, XYSeries> series = chart.getSeriesMap();
        assertEquals(List.of("warm-up", "measured", "abort rate (%, right axis)"), List.copyOf(series.keySet()));
        assertSeconds(series.get("warm-up"), json, s -> s.get("phase").getAsString().equals("warmup"),
                "throughput_txn_per_s", 1);
        assertSeconds(series.get("measured"), json, s -> s.get("phase").getAsString().equals("measure"),
                "throughput_txn_per_s", 1);
        assertSeconds(series.get("abort rate (%, right axis)"), json, s -> true, "abort_rate", 100);
        assertEquals(0, series.get("measured").getYAxisGroup());
        assertEquals(1, series.get("abort rate (%, right axis)").getYAxisGroup());
    }

    @Test
    void theLatencyChartHasALinePerReportOnTheNinesScale() throws Exception {
        List<RunReport> reports = List.of(RunReportReader.read(RunJson.fixture(RunJson.TPCC)),
                RunReportReader.read(RunJson.fixture(RunJson.TPCC_TICTOC)));
        RunChartPlan.LatencyChart latency = RunChartPlan.of(reports).latency().get(0);

        XYChart chart = RunChartRenderer.latency(latency);

        assertEquals(List.of("occ", "tictoc"), List.copyOf(chart.getSeriesMap().keySet()));
        assertTrue(chart.getStyler().isYAxisLogarithmic());
        for (String fixture : List.of(RunJson.TPCC, RunJson.TPCC_TICTOC)) {
            JsonObject json = RunJson.load(fixture);
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (JsonElement e : json.getAsJsonArray("latency_distribution_us")) {
                double p = e.getAsJsonObject().get("percentile").getAsDouble();
                if (p < 100) {
                    x.add(-Math.log10(1 - p / 100));
                    y.add(e.getAsJsonObject().get("value_us").getAsDouble());
                }
            }
            XYSeries line = chart.getSeriesMap().get(json.get("protocol").getAsString());
            assertArrayEquals(x.stream().mapToDouble(Double::doubleValue).toArray(), line.getXData(), 1e-9, fixture);
            assertArrayEquals(y.stream().mapToDouble(Double::doubleValue).toArray(), line.getYData(), 0, fixture);
        }
    }

    @Test
    void theBarsHaveACategoryPerSettingAndASeriesPerProtocol() throws Exception {
        JsonObject oneThread = RunJson.with(RunJson.load(RunJson.TPCC), "occ", 1);
        List<RunReport> reports = List.of(RunReportReader.read(RunJson.fixture(RunJson.TPCC)),
                RunReportReader.read(RunJson.fixture(RunJson.TPCC_TICTOC)),
                RunReportReader.read(RunJson.write(oneThread, dir.resolve("one.json"))));
        ProtocolBars bars = ProtocolBars.of(reports);

        CategoryChart throughput = RunChartRenderer.throughputBars(bars);
        CategoryChart aborts = RunChartRenderer.abortBars(bars);

        for (CategoryChart chart : List.of(throughput, aborts)) {
            assertEquals(List.of("occ", "tictoc"), List.copyOf(chart.getSeriesMap().keySet()));
            for (CategorySeries s : chart.getSeriesMap().values()) {
                assertEquals(List.of("tpcc, 1 thread", "tpcc, 2 threads"), List.copyOf(s.getXData()));
            }
        }
        assertEquals(Arrays.asList(null, reports.get(1).throughput()),
                new ArrayList<>(throughput.getSeriesMap().get("tictoc").getYData()));
        assertEquals(List.of(reports.get(2).abortRatePercent(), reports.get(0).abortRatePercent()),
                List.copyOf(aborts.getSeriesMap().get("occ").getYData()));
    }

    @Test
    void theScalingChartHasALinePerProtocolAtItsThreadCounts() throws Exception {
        List<RunReport> reports = new ArrayList<>();
        for (int threads : List.of(1, 2, 8)) {
            JsonObject json = RunJson.with(RunJson.load(RunJson.TPCC), "occ", threads);
            json.addProperty("throughput_txn_per_s", 1000.0 * threads);
            reports.add(RunReportReader.read(RunJson.write(json, dir.resolve("occ-" + threads + ".json"))));
        }
        reports.add(RunReportReader.read(RunJson.fixture(RunJson.TPCC_TICTOC)));

        XYChart chart = RunChartRenderer.scaling(RunGroup.of(reports).get(0));

        assertEquals(List.of("occ", "tictoc"), List.copyOf(chart.getSeriesMap().keySet()));
        // The thread counts are categories: 1, 2, 8 at 0, 1, 2.
        assertArrayEquals(new double[] {0, 1, 2}, chart.getSeriesMap().get("occ").getXData());
        assertArrayEquals(new double[] {1000, 2000, 8000}, chart.getSeriesMap().get("occ").getYData());
        assertArrayEquals(new double[] {1}, chart.getSeriesMap().get("tictoc").getXData());
        assertArrayEquals(new double[] {reports.get(3).throughput()}, chart.getSeriesMap().get("tictoc").getYData());
    }

    /** The series holds the seconds {@code which} picks: their {@code t_s}, and {@code key} times {@code scale}. */
    private static void assertSeconds(XYSeries series, JsonObject json, Predicate<JsonObject> which, String key,
            double scale) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (JsonElement e : json.getAsJsonArray("series")) {
            JsonObject second = e.getAsJsonObject();
            if (which.test(second)) {
                x.add(second.get("t_s").getAsDouble());
                y.add(scale * second.get(key).getAsDouble());
            }
        }
        assertTrue(!x.isEmpty(), "the fixture has such seconds");
        assertArrayEquals(x.stream().mapToDouble(Double::doubleValue).toArray(), series.getXData(), 0);
        assertArrayEquals(y.stream().mapToDouble(Double::doubleValue).toArray(), series.getYData(), 1e-9);
    }
}
