package io.jato.jmh.charts;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the workload runner's JSON reports ({@code ./jato tpcc|ycsb|transfer ... --json FILE}) as
 * charts and a {@code summary.md}:
 *
 * <ul>
 *   <li>throughput over time, per report that has a per-second series: warm-up and measured
 *       seconds in two colours, the abort rate per second on a second axis
 *       ({@code timeline-<report>.png});
 *   <li>latency against percentile on the "nines" scale (0%, 90%, 99%, 99.9%, ...), one line per
 *       report where two or more reports of a workload have a latency distribution
 *       ({@code latency-<workload>.png}), else one chart per report ({@code latency-<report>.png});
 *   <li>with two or more reports, grouped bars of throughput and of abort rate, one category per
 *       setting (workload, the parameters that differ, threads) and one bar per protocol
 *       ({@code throughput-by-protocol.png}, {@code aborts-by-protocol.png});
 *   <li>where reports differ only in threads (and protocol), throughput against threads, one line
 *       per protocol ({@code scaling-<workload>-<the parameters that set it apart>.png}).
 * </ul>
 *
 * <p>{@code summary.md} tabulates each workload and parameter set (protocol, threads, throughput,
 * abort rate, p50/p99/p99.9 latency, check), says what produced each report (start time, git
 * commit, JVM and flags, CPU, processors, OS), links every chart, and gives one line for each
 * chart it could not draw and why: reports written before the runner recorded a series or a
 * latency distribution are charted as far as they go. Reports that agree on workload, parameters,
 * protocol and threads are repeats: a chart shows their mean, the table lists each.
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.jato.jmh.charts.RunCharts OUT_DIR REPORT.json [REPORT.json ...]
 * </pre>
 *
 * <p>Guarantees, as {@link ScalingCharts}': every input is read and checked before anything is
 * written, so bad input leaves OUT_DIR as it was; the charts are rendered into a temporary
 * directory inside OUT_DIR and moved into place only when complete, {@code summary.md} last (a
 * previous one is removed first); PNGs are 800x500; no display is needed. Exit status: 0 when
 * everything was written; 2 for a usage error (wrong arguments, or an input that is missing, given
 * twice, or not a runner report: no {@code workload}, {@code protocol}, {@code threads} or
 * {@code throughput_txn_per_s}, or a key of the wrong shape), with the problem and the file on
 * standard error; 1 when writing the output failed.
 */
public final class RunCharts {
    static {
        // Before any AWT class loads: the charts are drawn into images, never onto a screen.
        System.setProperty("java.awt.headless", "true");
    }

    /** The Markdown summary's file name in the output directory. */
    public static final String SUMMARY = "summary.md";

    static final String USAGE =
            "usage: java -cp benchmarks.jar io.jato.jmh.charts.RunCharts OUT_DIR REPORT.json [REPORT.json ...]\n"
            + "  REPORT.json: what ./jato tpcc|ycsb|transfer ... --json REPORT.json writes";

    /** The command line (its {@code run} returns the status instead of exiting, for the tests). */
    static final ChartsCommand COMMAND =
            new ChartsCommand("RunCharts", USAGE, "report files", RunCharts::render);

    private RunCharts() {
    }

    /** Runs the tool and exits with its status (see the class comment). */
    public static void main(String[] args) {
        COMMAND.main(args);
    }

    /**
     * The tool without its command line: checks every report, decides the charts from them alone
     * ({@link RunChartPlan}), then draws them and the summary into {@code outDir}, created if
     * missing.
     *
     * @return the charts written, in the summary's order, then {@code summary.md}
     * @throws ResultsInputException a report is unusable (see the class comment); nothing was written
     * @throws IOException writing failed; nothing was published
     */
    public static List<Path> render(Path outDir, List<Path> inputs) throws ResultsInputException, IOException {
        List<RunReport> reports = read(inputs);
        RunChartPlan plan = RunChartPlan.of(reports);
        try (StagedOutput output = StagedOutput.create(outDir, ".run-charts-")) {
            ProtocolBars bars = plan.bars();
            if (bars != null) {
                ChartRenderer.write(RunChartRenderer.throughputBars(bars), output.stage(RunChartPlan.THROUGHPUT_BARS));
                if (bars.hasAbortRates()) {
                    ChartRenderer.write(RunChartRenderer.abortBars(bars), output.stage(RunChartPlan.ABORT_BARS));
                }
            }
            for (RunChartPlan.Scaling s : plan.scaling()) {
                ChartRenderer.write(RunChartRenderer.scaling(s.group()), output.stage(s.file()));
            }
            for (RunChartPlan.LatencyChart l : plan.latency()) {
                ChartRenderer.write(RunChartRenderer.latency(l), output.stage(l.file()));
            }
            for (RunChartPlan.Timeline t : plan.timelines()) {
                ChartRenderer.write(RunChartRenderer.timeline(t.report()), output.stage(t.file()));
            }
            return output.publish(SUMMARY, RunSummaryWriter.markdown(reports, plan));
        }
    }

    /**
     * Every report, checked; a file given twice is refused (its charts would collide and its
     * numbers count twice). Reports are named by their file names, or by the paths as given where
     * two share a file name.
     */
    private static List<RunReport> read(List<Path> inputs) throws ResultsInputException, IOException {
        if (inputs.isEmpty()) {
            throw new ResultsInputException("no report files given");
        }
        Map<Path, Path> seen = new HashMap<>();
        Map<String, Integer> names = new HashMap<>();
        List<RunReport> reports = new ArrayList<>();
        for (Path input : inputs) {
            Path earlier = seen.putIfAbsent(input.toAbsolutePath().normalize(), input);
            if (earlier != null) {
                throw new ResultsInputException(input, "given twice (also as " + earlier + ")");
            }
            RunReport r = RunReportReader.read(input);
            names.merge(r.name(), 1, Integer::sum);
            reports.add(r);
        }
        reports.replaceAll(r -> names.get(r.name()) > 1 ? r.named(r.source().toString()) : r);
        return reports;
    }
}
