package io.jato.jmh.charts;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.function.Function;
import java.util.function.Predicate;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler.YAxisPosition;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Builds {@link RunCharts}' four kinds of chart with XChart, {@value ChartRenderer#WIDTH}x{@value
 * ChartRenderer#HEIGHT} in the look of {@link ChartRenderer#style}, for {@link ChartRenderer#write}:
 * throughput over time (warm-up and measured seconds as two series, the abort rate on a second
 * axis), latency against percentile on the "nines" scale, protocol bars per setting, and
 * throughput against threads. Values are labelled by {@link Formats}, as in the summary.
 */
final class RunChartRenderer {
    /** The colours of the throughput-over-time series (package-private for the tests). */
    static final Color WARM_UP = new Color(0xf0, 0xa0, 0x30);
    static final Color MEASURED = new Color(0x1f, 0x5f, 0xbf);
    static final Color ABORTS = new Color(0xc8, 0x32, 0x2d);

    private RunChartRenderer() {
    }

    /**
     * Throughput per second against seconds since the warm-up began, warm-up and measured seconds
     * in two colours, and the abort rate per second as a dashed line on a second y axis (right).
     */
    static XYChart timeline(RunReport r) {
        String title = "Throughput over time: " + r.name() + " (" + r.workload() + ", " + r.protocol() + ", "
                + Formats.threads(r.threads()) + ")";
        XYChart chart = new XYChartBuilder().width(ChartRenderer.WIDTH).height(ChartRenderer.HEIGHT).title(title)
                .xAxisTitle("seconds since the warm-up began").yAxisTitle("throughput (txn/s)").build();
        XYStyler style = chart.getStyler();
        ChartRenderer.style(style, title);
        style.setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Line);
        // One formatter serves both y axes: whole numbers with grouping for txn/s, three
        // significant digits for the small percentages.
        style.setyAxisTickLabelsFormattingFunction(Formats::number);
        style.setYAxisMin(0, 0.0);
        style.setYAxisMin(1, 0.0);
        // The seconds are about a second apart, so XChart ticks at the data's own x values
        // (1.000085432): whole seconds are what the reader wants to see.
        style.setLocale(Locale.ROOT);
        style.setXAxisDecimalPattern("#,##0.#");
        addSeconds(chart, "warm-up", r, s -> !s.measured(), Second.THROUGHPUT, WARM_UP);
        addSeconds(chart, "measured", r, RunReport.Second::measured, Second.THROUGHPUT, MEASURED);
        XYSeries aborts = addSeconds(chart, "abort rate (%, right axis)", r, s -> true, Second.ABORT_RATE, ABORTS);
        if (aborts != null) {
            aborts.setYAxisGroup(1);
            aborts.setLineStyle(SeriesLines.DASH_DASH);
            aborts.setMarker(SeriesMarkers.NONE);
            chart.setYAxisGroupTitle(1, "abort rate (%)");
            style.setYAxisGroupPosition(1, YAxisPosition.Right);
            if (r.series().stream().allMatch(s -> Double.isNaN(s.abortRatePercent()) || s.abortRatePercent() == 0)) {
                // All zeros would make a 0..0 axis that XChart draws as one line mid-plot.
                style.setYAxisMax(1, 1.0);
            }
        }
        return chart;
    }

    /** Which value of a second a series shows. */
    private enum Second {
        THROUGHPUT, ABORT_RATE
    }

    /** Adds the seconds that match {@code which} and have the value; none, and no series is added (null). */
    private static XYSeries addSeconds(XYChart chart, String name, RunReport r, Predicate<RunReport.Second> which,
            Second value, Color color) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (RunReport.Second s : r.series()) {
            double v = value == Second.THROUGHPUT ? s.throughput() : s.abortRatePercent();
            if (which.test(s) && !Double.isNaN(v)) {
                x.add(s.atSeconds());
                y.add(v);
            }
        }
        if (x.isEmpty()) {
            return null;
        }
        XYSeries series = chart.addSeries(name, x, y);
        series.setLineColor(color);
        series.setMarkerColor(color);
        return series;
    }

    /**
     * Latency against percentile, one line per entry of {@code lines}. The x axis is the "nines"
     * scale: a percentile p sits at -log10(1 - p/100), so 0%, 90%, 99%, 99.9% are evenly spaced
     * and the tail gets the room it deserves. XChart 3.8.8 has logarithmic axes, but with a label
     * function it places the ticks linearly, so the transform is done here and the labels name
     * the percentiles. The latency axis is XChart's own logarithmic one.
     */
    static XYChart latency(RunChartPlan.LatencyChart c) {
        XYChart chart = new XYChartBuilder().width(ChartRenderer.WIDTH).height(ChartRenderer.HEIGHT).title(c.title())
                .xAxisTitle("percentile").yAxisTitle("latency (µs, log scale)").build();
        XYStyler style = chart.getStyler();
        ChartRenderer.style(style, c.title());
        style.setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Line);
        style.setYAxisLogarithmic(true);
        style.setLocale(Locale.ROOT);
        style.setYAxisDecimalPattern("#,##0.###");
        style.setxAxisTickLabelsFormattingFunction(RunChartRenderer::ninesLabel);
        double right = 1;
        for (Map.Entry<String, RunReport> line : c.lines().entrySet()) {
            List<RunReport.Percentile> points = line.getValue().chartablePercentiles();
            double[] x = points.stream().mapToDouble(p -> nines(p.percentile())).toArray();
            double[] y = points.stream().mapToDouble(RunReport.Percentile::micros).toArray();
            chart.addSeries(line.getKey(), x, y).setMarker(SeriesMarkers.NONE);
            right = Math.max(right, Math.ceil(x[x.length - 1]));
        }
        style.setXAxisMin(0.0);
        style.setXAxisMax(right);
        return chart;
    }

    /** Where percentile {@code p} sits on the nines scale: 0 for 0%, 1 for 90%, 2 for 99%, ... */
    static double nines(double p) {
        return -Math.log10(1 - p / 100);
    }

    /** The label of a whole number of nines: "0%", "90%", "99%", "99.9%"; other positions get none. */
    static String ninesLabel(double x) {
        long n = Math.round(x);
        if (Math.abs(x - n) > 1e-9 || n < 0) {
            return "";
        }
        return n == 0 ? "0%" : n == 1 ? "90%" : "99" + (n == 2 ? "" : "." + "9".repeat((int) n - 2)) + "%";
    }

    /** Throughput per protocol, one group of bars per setting. */
    static CategoryChart throughputBars(ProtocolBars bars) {
        return bars("Throughput by protocol", "throughput (txn/s)", bars.categories(), bars.throughput(),
                Formats::number);
    }

    /** Abort rate per protocol, one group of bars per setting. */
    static CategoryChart abortBars(ProtocolBars bars) {
        return bars("Abort rate by protocol", "abort rate (% of attempts)", bars.categories(),
                bars.abortRatePercent(), v -> Formats.number(v) + "%");
    }

    /**
     * Grouped bars: one category per entry of {@code categories}, one bar per series in each (a
     * null value is no bar).
     */
    private static CategoryChart bars(String title, String yTitle, List<String> categories,
            SortedMap<String, List<Double>> series, Function<Double, String> yLabels) {
        CategoryChart chart = new CategoryChartBuilder().width(ChartRenderer.WIDTH).height(ChartRenderer.HEIGHT)
                .title(title).xAxisTitle("setting").yAxisTitle(yTitle).build();
        CategoryStyler style = chart.getStyler();
        ChartRenderer.style(style, title);
        style.setYAxisMin(0.0);
        style.setyAxisTickLabelsFormattingFunction(yLabels);
        ChartRenderer.fitCategoryLabels(style, categories);
        if (series.values().stream().flatMap(List::stream).allMatch(v -> v == null || v == 0)) {
            style.setYAxisMax(1.0);
        }
        series.forEach((name, values) -> chart.addSeries(name, categories, values));
        return chart;
    }

    /** Mean throughput against threads, one line per protocol, as ScalingCharts draws it. */
    static XYChart scaling(RunGroup group) {
        SortedSet<Integer> threads = group.threadCounts();
        XYChart chart = ChartRenderer.threadsChart("Throughput against threads: " + group.title(), "throughput (txn/s)",
                threads);
        chart.getStyler().setyAxisTickLabelsFormattingFunction(Formats::number);
        group.throughputByProtocolAndThreads().forEach((protocol, line) -> chart.addSeries(protocol,
                line.keySet().stream().mapToDouble(t -> ChartRenderer.position(threads, t)).toArray(),
                line.values().stream().mapToDouble(Double::doubleValue).toArray()));
        return chart;
    }
}
