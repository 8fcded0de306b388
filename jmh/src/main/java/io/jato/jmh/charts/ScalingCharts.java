package io.jato.jmh.charts;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Renders JMH JSON results as scaling charts: for each group of results (one benchmark, one JMH
 * mode, one value of every param except {@code protocol}, and except {@code warehouses} where it is
 * {@code threads}) a throughput chart and, where the results count {@code commits} and
 * {@code aborts}, an abort-rate chart, both against the thread count with one line per protocol;
 * and a {@code summary.md} that links them, tabulates the numbers, breaks the aborts down by cause
 * at the highest thread count and says which files, JMH and JVM produced them.
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.jato.jmh.charts.ScalingCharts OUT_DIR RESULT.json [RESULT.json ...]
 * </pre>
 *
 * <p>RESULT.json is what {@code java -jar benchmarks.jar ... -rf json -rff RESULT.json} writes;
 * several files are merged (a point, i.e. benchmark, params, protocol and thread count, may appear
 * in only one of them). In OUT_DIR it writes {@code <group>-throughput.png},
 * {@code <group>-aborts.png} (800x500) and {@code summary.md}, replacing files of the same names.
 *
 * <p>Guarantees: every input is read and checked before anything is written, so bad input leaves
 * OUT_DIR as it was; the output is rendered into a temporary directory inside OUT_DIR and moved into
 * place only when complete, {@code summary.md} last (and a previous {@code summary.md} is removed
 * first), so a {@code summary.md} is only ever there beside the complete set of charts it links.
 * Rendering needs no display: {@code java.awt.headless} is set before anything touches AWT.
 *
 * <p>Exit status: 0 when everything was written; 2 for a usage error (wrong arguments, or an input
 * that is missing, not a JMH JSON result array, or holds no results), with the problem on standard
 * error; 1 when writing the output failed.
 */
public final class ScalingCharts {
    static {
        // Before any AWT class loads: the charts are drawn into images, never onto a screen, and a
        // machine without a display (CI, a benchmark host over ssh) would otherwise fail at the
        // first font or graphics call.
        System.setProperty("java.awt.headless", "true");
    }

    /** The Markdown summary's file name in the output directory. */
    public static final String SUMMARY = "summary.md";

    static final String USAGE =
            "usage: java -cp benchmarks.jar io.jato.jmh.charts.ScalingCharts OUT_DIR RESULT.json [RESULT.json ...]";

    /** The command line (its {@code run} returns the status instead of exiting, for the tests). */
    static final ChartsCommand COMMAND =
            new ChartsCommand("ScalingCharts", USAGE, "result files", ScalingCharts::render);

    private ScalingCharts() {
    }

    /** Runs the tool and exits with its status (see the class comment). */
    public static void main(String[] args) {
        COMMAND.main(args);
    }

    /**
     * Reads {@code inputs}, renders their charts and the summary into {@code outDir} (created if
     * missing) and returns the files written, the summary last.
     *
     * @throws ResultsInputException an input is unusable (see {@link ResultsInputException});
     *     nothing was written
     * @throws IOException writing failed; nothing was published (no new file replaced an old one
     *     unless all were ready, and no summary.md is left without its charts)
     */
    public static List<Path> render(Path outDir, List<Path> inputs) throws ResultsInputException, IOException {
        List<JmhResult> results = JmhResultReader.readAll(inputs);
        List<ScalingGroup> groups = ScalingGroup.of(results);

        try (StagedOutput output = StagedOutput.create(outDir, ".scaling-charts-")) {
            for (ScalingGroup g : groups) {
                ChartRenderer.throughput(g, output.stage(g.throughputChart()));
                if (g.hasAbortRates()) {
                    ChartRenderer.abortRate(g, output.stage(g.abortsChart()));
                }
            }
            return output.publish(SUMMARY, SummaryWriter.markdown(inputs, results, groups));
        }
    }
}
