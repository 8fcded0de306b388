package io.jato.jmh.charts;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;

/**
 * Draws a {@link TableChart} with XChart, {@value ChartRenderer#WIDTH}x{@value
 * ChartRenderer#HEIGHT} in the look of {@link ChartRenderer#style}: grouped bars (a missing value
 * is no bar) or lines across evenly spaced categories (a missing value is no point). The y axis
 * starts at zero unless a value is negative, or is logarithmic; values are labelled by {@link
 * Formats}. Error bars are drawn for the series that have some, except on a logarithmic axis, where
 * XChart 3.8.8 draws them wrongly; a reference value is a dashed horizontal line across the plot.
 */
final class TableChartRenderer {
    /** The reference line's look: dark grey, dashed. */
    static final Color REFERENCE = new Color(0x40, 0x40, 0x40);

    private TableChartRenderer() {
    }

    /** The chart of {@code c}, ready for {@link ChartRenderer#write}. */
    static Chart<?, ?> draw(TableChart c) {
        return c.directive().kind() == ChartDirective.Kind.BARS ? bars(c) : lines(c);
    }

    /** Grouped bars, one group per category, one bar per series. */
    static CategoryChart bars(TableChart c) {
        ChartDirective d = c.directive();
        CategoryChart chart = new CategoryChartBuilder().width(ChartRenderer.WIDTH).height(ChartRenderer.HEIGHT)
                .title(d.title()).xAxisTitle(c.xTitle()).yAxisTitle(d.unit()).build();
        ChartRenderer.style(chart.getStyler(), d.title());
        ChartRenderer.fitCategoryLabels(chart.getStyler(), c.categories());
        yAxis(chart.getStyler(), c);
        if (d.log()) {
            // Bars grow from the axis's bottom, which a log axis must be given: the power of ten at
            // or below the smallest value.
            double min = c.series().stream().flatMap(s -> s.values().stream()).filter(v -> v != null)
                    .mapToDouble(Double::doubleValue).min().orElse(1);
            chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
        }
        for (TableChart.Series s : c.series()) {
            if (s.hasErrors() && !d.log()) {
                // XChart takes no null beside error bars: NaN is no bar there.
                List<Double> values = s.values().stream().map(v -> v == null ? Double.NaN : v).toList();
                chart.addSeries(s.name(), c.categories(), values, s.errors());
            } else {
                chart.addSeries(s.name(), c.categories(), s.values());
            }
        }
        reference(chart, c);
        return chart;
    }

    /** Lines across the categories, one per series; a missing value is no point. */
    static XYChart lines(TableChart c) {
        ChartDirective d = c.directive();
        XYChart chart = ChartRenderer.categoryLineChart(d.title(), c.xTitle(), d.unit(), c.categories());
        chart.getStyler().setErrorBarsColorSeriesColor(true);
        yAxis(chart.getStyler(), c);
        for (TableChart.Series s : c.series()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> e = new ArrayList<>();
            for (int i = 0; i < c.categories().size(); i++) {
                if (s.values().get(i) != null) {
                    x.add((double) i);
                    y.add(s.values().get(i));
                    e.add(s.errors().get(i));
                }
            }
            if (x.isEmpty()) {
                continue;   // a series without values has no line; the legend would name nothing
            }
            chart.addSeries(s.name(), x, y, s.hasErrors() && !d.log() ? e : null);
        }
        reference(chart, c);
        return chart;
    }

    /** The y axis: logarithmic, or linear from zero (unless a value is below it), values as {@link Formats} writes them. */
    private static void yAxis(AxesChartStyler style, TableChart c) {
        double lowest = Double.POSITIVE_INFINITY;
        double highest = Double.NEGATIVE_INFINITY;
        for (TableChart.Series s : c.series()) {
            for (int i = 0; i < s.values().size(); i++) {
                Double v = s.values().get(i);
                if (v != null) {
                    lowest = Math.min(lowest, v - s.errors().get(i));
                    highest = Math.max(highest, v + s.errors().get(i));
                }
            }
        }
        if (c.directive().log()) {
            style.setYAxisLogarithmic(true);
            // XChart places a log axis's ticks itself; a label function would put them linearly.
            style.setLocale(Locale.ROOT);
            style.setYAxisDecimalPattern("#,##0.###");
            return;
        }
        style.setyAxisTickLabelsFormattingFunction(Formats::number);
        if (lowest >= 0) {
            style.setYAxisMin(0.0);
        }
        double ref = c.directive().ref();
        if (!Double.isNaN(ref) && ref > highest) {
            // The reference line would fall above the axis: the axis reaches a little past it.
            style.setYAxisMax(ref * 1.05);
        } else if (highest == 0 && lowest == 0) {
            // All zeros would make a 0..0 axis that XChart draws as one line mid-plot.
            style.setYAxisMax(1.0);
        }
    }

    /** The directive's reference value as a dashed line across the plot, if it has one. */
    private static void reference(Chart<?, ?> chart, TableChart c) {
        double ref = c.directive().ref();
        if (Double.isNaN(ref)) {
            return;
        }
        AxesChartStyler style = (AxesChartStyler) chart.getStyler();
        style.setAnnotationLineColor(REFERENCE);
        style.setAnnotationLineStroke(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {6f, 4f}, 0f));
        chart.addAnnotation(new AnnotationLine(ref, false, false));
    }
}
