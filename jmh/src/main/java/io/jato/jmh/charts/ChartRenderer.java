package io.jato.jmh.charts;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.XYStyler;

/**
 * Draws a group's two scaling charts with XChart and writes them as {@value #WIDTH}x{@value
 * #HEIGHT} PNG files: a title naming the benchmark and its params, the thread counts on the x
 * axis, the value with its unit on the y axis (from zero, so that small differences do not look
 * large), one line per series and a legend below the plot. Its building blocks (the shared look,
 * the thread-count axis, the PNG writer) serve the other tools' charts too. Needs no display (the
 * tools set {@code java.awt.headless}).
 */
final class ChartRenderer {
    static final int WIDTH = 800;
    static final int HEIGHT = 500;

    private ChartRenderer() {
    }

    /** Throughput (the primary score) against threads, with JMH's error margins as error bars. */
    static void throughput(ScalingGroup group, Path png) throws IOException {
        String what = modeLabel(group.mode());
        XYChart chart = chart(group, capitalized(what) + " of " + group.chartTitle(),
                what + " (" + group.scoreUnit() + ")", Formats::number);
        for (ScalingGroup.Series s : group.series()) {
            List<JmhResult> points = new ArrayList<>(s.points().values());
            double[] errors = values(points, r -> Double.isFinite(r.scoreError()) ? r.scoreError() : 0);
            boolean anyError = false;
            for (double e : errors) {
                anyError |= e != 0;
            }
            // XChart draws error bars for a series only when given some; a run with one fork and
            // one iteration has no error margin at all, and zero-length bars would only be noise.
            chart.addSeries(s.label(group.benchmark()), positions(group, s), values(points, JmhResult::score),
                    anyError ? errors : null);
        }
        write(chart, png);
    }

    /** Abort rate in percent against threads; points without abort counters are left out. */
    static void abortRate(ScalingGroup group, Path png) throws IOException {
        XYChart chart = chart(group, "Abort rate of " + group.chartTitle(), "abort rate (%)",
                v -> Formats.number(v) + "%");
        double highest = 0;
        for (ScalingGroup.Series s : group.series()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Map.Entry<Integer, JmhResult> p : s.points().entrySet()) {
                double rate = p.getValue().abortRatePercent();
                if (!Double.isNaN(rate)) {
                    x.add((double) position(group, p.getKey()));
                    y.add(rate);
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(s.label(group.benchmark()), x, y);
                highest = Math.max(highest, y.stream().mapToDouble(Double::doubleValue).max().orElse(0));
            }
        }
        // No aborts anywhere would leave a 0..0 axis that XChart draws as one line mid-plot; a
        // 0..1% axis shows the zeros as zeros, on the floor.
        if (highest == 0) {
            chart.getStyler().setYAxisMax(1.0);
        }
        write(chart, png);
    }

    private static XYChart chart(ScalingGroup group, String title, String yTitle, Function<Double, String> yLabels) {
        XYChart chart = threadsChart(title, yTitle, group.threadCounts());
        chart.getStyler().setErrorBarsColorSeriesColor(true);
        chart.getStyler().setyAxisTickLabelsFormattingFunction(yLabels);
        return chart;
    }

    /**
     * A line chart against the thread count, styled as all the tools' charts ({@link #style}), its
     * y axis from zero (so that small differences do not look large).
     *
     * <p>The x axis is categorical: thread count i of {@code threads} sits at x = i ({@link
     * #position}), so 1, 2, 4, ... 64 are evenly spaced (log2-like for the usual powers of two)
     * and any set of counts labels cleanly.
     */
    static XYChart threadsChart(String title, String yTitle, SortedSet<Integer> threads) {
        XYChart chart = categoryLineChart(title, "threads", yTitle,
                threads.stream().map(String::valueOf).toList());
        chart.getStyler().setYAxisMin(0.0);
        return chart;
    }

    /**
     * A line chart whose x axis is categorical: category i of {@code categories} sits at x = i and
     * is labelled with its name, so the categories are evenly spaced whatever they are. Styled as
     * all the tools' charts ({@link #style}); long labels stand upright ({@link
     * #fitCategoryLabels}). XChart puts ticks on the data's x values when they are evenly spaced,
     * as here; a tick between two categories (should it make one) gets no label.
     */
    static XYChart categoryLineChart(String title, String xTitle, String yTitle, List<String> categories) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        XYStyler style = chart.getStyler();
        style(style, title);
        style.setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Line);
        List<String> labels = List.copyOf(categories);
        style.setxAxisTickLabelsFormattingFunction(x -> {
            long i = Math.round(x);
            return Math.abs(x - i) < 1e-9 && i >= 0 && i < labels.size() ? labels.get((int) i) : "";
        });
        fitCategoryLabels(style, labels);
        return chart;
    }

    /**
     * Labels side by side overlap once they are wider than the plot (about 7 px a character): then
     * they stand upright, in a smaller font, each right under its category (at other angles XChart
     * centres a label on its tick, so that it seems to belong to the neighbour).
     */
    static void fitCategoryLabels(AxesChartStyler style, List<String> categories) {
        int longest = categories.stream().mapToInt(String::length).max().orElse(0);
        if (categories.size() * longest * 7 > WIDTH - 100) {
            style.setXAxisLabelRotation(90);
            style.setAxisTickLabelsFont(style.getAxisTickLabelsFont().deriveFont(9f));
        }
    }

    /** Where {@code threads} sits on the x axis of a {@link #threadsChart} of {@code all} counts. */
    static int position(SortedSet<Integer> all, int threads) {
        return all.headSet(threads).size();
    }

    /**
     * The look every chart of the tools shares: a title that fits the width, the legend in one
     * row below the plot, white backgrounds and no plot border.
     */
    static void style(AxesChartStyler style, String title) {
        // XChart neither wraps nor shrinks a title: one that is wider than the chart loses both
        // ends. A bold sans-serif character is at most about 0.65 of the font size wide, so the size is
        // chosen to fit the width, between 9 and 14 points.
        int titleSize = (int) Math.max(9, Math.min(14, (WIDTH - 40) / (0.65 * title.length())));
        style.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, titleSize));
        style.setLegendPosition(LegendPosition.OutsideS);
        style.setLegendLayout(LegendLayout.Horizontal);
        style.setChartBackgroundColor(Color.WHITE);
        style.setPlotBackgroundColor(Color.WHITE);
        style.setPlotBorderVisible(false);
    }

    private static double[] positions(ScalingGroup group, ScalingGroup.Series s) {
        return s.points().keySet().stream().mapToDouble(t -> position(group, t)).toArray();
    }

    private static int position(ScalingGroup group, int threads) {
        return position(group.threadCounts(), threads);
    }

    private static double[] values(List<JmhResult> points, ToDoubleFunction<JmhResult> value) {
        return points.stream().mapToDouble(value).toArray();
    }

    /** What JMH's mode measures, for the y axis: the unit alone (ops/s, ns/op) does not say it. */
    private static String modeLabel(String mode) {
        return switch (mode) {
            case "thrpt" -> "throughput";
            case "avgt" -> "average time";
            case "sample" -> "sampled time";
            case "ss" -> "single-shot time";
            default -> mode;
        };
    }

    private static String capitalized(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    /** Writes {@code chart} as a PNG file of its size. */
    static void write(Chart<?, ?> chart, Path png) throws IOException {
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
        }
    }
}
