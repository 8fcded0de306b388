package io.jato.jmh.charts;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * Renders the peer comparison ({@code Peer*Benchmark}, {@code docs/peers.md}) from JMH JSON results
 * as grouped bar charts: for each thread count one chart of every transaction, a group of bars per
 * transaction and one bar per system; for each transaction one chart of its systems at every
 * thread count; and a {@code summary.md} that links them and tabulates every score with its error
 * margin. {@link PeerBars} says how results become transactions and systems.
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.jato.jmh.charts.PeerCharts OUT_DIR RESULT.json [RESULT.json ...]
 * </pre>
 *
 * <p>RESULT.json is what {@code java -jar benchmarks.jar 'Peer' ... -rf json -rff RESULT.json}
 * writes ({@code jmh/peers.sh} runs one per thread count); several files are merged. In OUT_DIR it
 * writes {@code peers-t<N>.png} per thread count, {@code peers-<transaction>.png} per transaction
 * (800x500) and {@code summary.md}, replacing files of the same names.
 *
 * <p>Guarantees, as {@link ScalingCharts}': every input is read and checked before anything is
 * written (so bad input leaves OUT_DIR as it was); the files are published together, the summary
 * last, so a summary is only ever beside the charts it links; no display is needed. A system keeps
 * its colour on every chart. The time or throughput axis starts at zero, unless the largest value
 * of a chart is more than {@value #LOG_SPREAD} times its smallest: then it is logarithmic (and says
 * so), so that the small values still show. Exit status as {@link ChartsCommand}'s: 0 written, 2 a
 * usage error or unusable input, 1 writing failed.
 */
public final class PeerCharts {
    static {
        // Before any AWT class loads (see ScalingCharts).
        System.setProperty("java.awt.headless", "true");
    }

    /** The Markdown summary's file name in the output directory. */
    public static final String SUMMARY = "summary.md";

    /** The spread (largest / smallest value) above which a chart's value axis is logarithmic. */
    static final double LOG_SPREAD = 30;

    /** The systems' colours, by their position in {@link PeerBars#systems} (repeating after the last). */
    static final List<Color> PALETTE = List.of(
            new Color(0x1f, 0x5f, 0xbf), new Color(0x5b, 0x9b, 0xe6), new Color(0x9c, 0xc6, 0xf2),
            new Color(0xe0, 0x7b, 0x1a), new Color(0x2c, 0xa0, 0x2c), new Color(0x98, 0xdf, 0x8a),
            new Color(0xc8, 0x32, 0x2d), new Color(0xf2, 0x9a, 0x96), new Color(0x94, 0x67, 0xbd),
            new Color(0x55, 0x55, 0x55), new Color(0x8c, 0x56, 0x4b), new Color(0xbc, 0xbd, 0x22),
            new Color(0x17, 0xbe, 0xcf), new Color(0xe3, 0x77, 0xc2));

    static final String USAGE =
            "usage: java -cp benchmarks.jar io.jato.jmh.charts.PeerCharts OUT_DIR RESULT.json [RESULT.json ...]";

    /** The command line (its {@code run} returns the status instead of exiting, for the tests). */
    static final ChartsCommand COMMAND = new ChartsCommand("PeerCharts", USAGE, "result files", PeerCharts::render);

    private PeerCharts() {
    }

    /** Runs the tool and exits with its status (see the class comment). */
    public static void main(String[] args) {
        COMMAND.main(args);
    }

    /**
     * Reads {@code inputs}, renders their charts and the summary into {@code outDir} (created if
     * missing) and returns the files written, the summary last.
     *
     * @throws ResultsInputException an input is unusable; nothing was written
     * @throws IOException writing failed; nothing was published
     */
    public static List<Path> render(Path outDir, List<Path> inputs) throws ResultsInputException, IOException {
        List<JmhResult> results = JmhResultReader.readAll(inputs);
        PeerBars bars = PeerBars.of(results);
        try (StagedOutput output = StagedOutput.create(outDir, ".peer-charts-")) {
            for (int t : bars.threads()) {
                ChartRenderer.write(byTransaction(bars, t), output.stage(threadsChart(t)));
            }
            for (PeerBars.Transaction tx : bars.transactions()) {
                ChartRenderer.write(byThreads(bars, tx), output.stage(tx.slug() + ".png"));
            }
            return output.publish(SUMMARY, summary(inputs, results, bars));
        }
    }

    /** The file name of the chart of every transaction at {@code threads}. */
    static String threadsChart(int threads) {
        return "peers-t" + threads + ".png";
    }

    /** Every transaction at {@code threads}: a group per transaction, a bar per system (none where it did not run). */
    static CategoryChart byTransaction(PeerBars bars, int threads) {
        List<String> categories = bars.transactions().stream().map(PeerBars.Transaction::label).toList();
        List<Series> series = new ArrayList<>();
        for (String system : bars.systems()) {
            List<Double> values = new ArrayList<>();
            for (PeerBars.Transaction tx : bars.transactions()) {
                JmhResult r = tx.result(system, threads);
                values.add(r == null ? null : r.score());
            }
            series.add(new Series(system, values));
        }
        return chart(bars, "Peer transactions at " + Formats.threads(threads), "transaction", categories, series);
    }

    /** One transaction: a group per thread count, a bar per system that ran it. */
    static CategoryChart byThreads(PeerBars bars, PeerBars.Transaction tx) {
        List<String> categories = bars.threads().stream().map(Formats::threads).toList();
        List<Series> series = new ArrayList<>();
        for (String system : tx.systems(bars.systems())) {
            List<Double> values = new ArrayList<>();
            for (int t : bars.threads()) {
                JmhResult r = tx.result(system, t);
                values.add(r == null ? null : r.score());
            }
            series.add(new Series(system, values));
        }
        return chart(bars, tx.label() + " on each system", "threads", categories, series);
    }

    /** One bar series: a system's values by category, null where it has none. */
    private record Series(String system, List<Double> values) {
    }

    private static CategoryChart chart(PeerBars bars, String title, String xTitle, List<String> categories,
            List<Series> series) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (Series s : series) {
            for (Double v : s.values()) {
                if (v != null && v > 0) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        boolean log = max > LOG_SPREAD * min;
        String fullTitle = title + ": " + what(bars.mode());
        CategoryChart chart = new CategoryChartBuilder().width(ChartRenderer.WIDTH).height(ChartRenderer.HEIGHT)
                .title(fullTitle).xAxisTitle(xTitle)
                .yAxisTitle(axis(bars.mode(), bars.unit()) + (log ? ", log scale" : "")).build();
        CategoryStyler style = chart.getStyler();
        ChartRenderer.style(style, fullTitle);
        // Many systems: their legend goes to the right, one per line, where it has room for all.
        style.setLegendPosition(LegendPosition.OutsideE);
        style.setLegendLayout(LegendLayout.Vertical);
        if (log) {
            // XChart's bars start at the axis minimum, which must be above zero on a log axis: a
            // decade below the smallest value, so that the shortest bar still shows.
            style.setYAxisLogarithmic(true);
            double floor = Math.pow(10, Math.floor(Math.log10(min)));
            style.setYAxisMin(floor < min ? floor : floor / 10);
            style.setYAxisMax(Math.pow(10, Math.ceil(Math.log10(max))));
            // With a label function XChart would place a log axis's ticks linearly: a pattern
            // keeps its decades (Formats' grouping and dot, whatever the machine's locale).
            style.setLocale(Locale.ROOT);
            style.setYAxisDecimalPattern("#,##0.###");
        } else {
            style.setYAxisMin(0.0);
            style.setyAxisTickLabelsFormattingFunction(Formats::number);
        }
        // Category labels that would touch (about 10 px a character, and the plot is the width less
        // the axis and the legend) get a smaller font (about 7 px); if they still would, they stand
        // upright.
        int longest = categories.stream().mapToInt(String::length).max().orElse(0);
        int plot = ChartRenderer.WIDTH - 290;
        if (categories.size() * longest * 10 > plot) {
            style.setAxisTickLabelsFont(style.getAxisTickLabelsFont().deriveFont(9f));
            if (categories.size() * longest * 7 > plot) {
                style.setXAxisLabelRotation(90);
            }
        }
        for (Series s : series) {
            CategorySeries added = chart.addSeries(s.system(), categories, s.values());
            added.setFillColor(colour(bars, s.system()));
        }
        return chart;
    }

    /** The colour of {@code system}: the same on every chart of one rendering. */
    static Color colour(PeerBars bars, String system) {
        return PALETTE.get(bars.systems().indexOf(system) % PALETTE.size());
    }

    /** What the value is, for titles: "time per transaction (lower is better)". */
    static String what(String mode) {
        return switch (mode) {
            case "avgt", "sample", "ss" -> "time per transaction (lower is better)";
            case "thrpt" -> "transactions per time (higher is better)";
            default -> mode;
        };
    }

    private static String axis(String mode, String unit) {
        return switch (mode) {
            case "avgt" -> "average time";
            case "thrpt" -> "throughput";
            case "sample" -> "sampled time";
            case "ss" -> "single-shot time";
            default -> mode;
        } + " (" + unit + ")";
    }

    /** The summary: provenance, the charts, and per transaction a table of systems by threads. */
    static String summary(List<Path> inputs, List<JmhResult> results, PeerBars bars) {
        StringBuilder md = new StringBuilder();
        md.append("# Peer comparison\n\n");
        md.append("Rendered by `").append(PeerCharts.class.getName()).append("` from ")
                .append(inputs.size() == 1 ? "one JMH result file" : inputs.size() + " JMH result files")
                .append(", ").append(results.size()).append(results.size() == 1 ? " result" : " results").append(": ")
                .append(bars.transactions().size()).append(" transactions, ").append(bars.systems().size())
                .append(" systems. Mode ").append(bars.mode()).append(", ").append(what(bars.mode()))
                .append("; each cell is JMH's score ± its error margin (99.9%), in ").append(bars.unit())
                .append(".\n\n");
        SummaryWriter.provenance(md, results);
        for (int t : bars.threads()) {
            md.append("![").append(Formats.threads(t)).append("](").append(threadsChart(t)).append(")\n");
        }
        md.append('\n');
        for (PeerBars.Transaction tx : bars.transactions()) {
            md.append("## ").append(tx.label()).append("\n\n");
            md.append("Benchmark ").append(Markdown.code(tx.benchmarkClass()));
            if (!tx.params().isEmpty()) {
                md.append(", params ").append(Markdown.code(tx.params().toString()));
            }
            md.append(".\n\n![").append(Markdown.cell(tx.label())).append("](").append(tx.slug()).append(".png)\n\n");
            md.append("| system |");
            for (int t : bars.threads()) {
                md.append(' ').append(Formats.threads(t)).append(" |");
            }
            md.append("\n|---|").append("---:|".repeat(bars.threads().size())).append('\n');
            for (String system : tx.systems(bars.systems())) {
                md.append("| ").append(Markdown.cell(system)).append(" |");
                for (int t : bars.threads()) {
                    JmhResult r = tx.result(system, t);
                    md.append(' ').append(r == null ? "–" : cell(r)).append(" |");
                }
                md.append('\n');
            }
            md.append('\n');
        }
        return md.toString();
    }

    /** "1,234 ± 56", or the score alone where JMH had no error margin. */
    static String cell(JmhResult r) {
        String score = Formats.number(r.score());
        return Double.isFinite(r.scoreError()) ? score + " ± " + Formats.number(r.scoreError()) : score;
    }
}
