package io.jato.jmh.charts;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

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

    private ScalingCharts() {
    }

    /** Runs the tool and exits with its status (see the class comment). */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** The command line without the exit: returns the status, reports on {@code out} and {@code err}. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 2) {
            err.println(args.length == 0 ? USAGE : "ScalingCharts: no result files given\n" + USAGE);
            return 2;
        }
        try {
            Path outDir = Path.of(args[0]);
            if (Files.exists(outDir) && !Files.isDirectory(outDir)) {
                err.println("ScalingCharts: " + outDir + ": exists and is not a directory\n" + USAGE);
                return 2;
            }
            List<Path> inputs = new ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                inputs.add(Path.of(args[i]));
            }
            List<Path> written = render(outDir, inputs);
            out.println("ScalingCharts: wrote " + (written.size() - 1) + " charts and " + written.get(written.size() - 1));
            return 0;
        } catch (InvalidPathException e) {
            err.println("ScalingCharts: not a path: " + e.getInput() + "\n" + USAGE);
            return 2;
        } catch (ResultsInputException e) {
            err.println("ScalingCharts: " + e.getMessage());
            return 2;
        } catch (IOException | RuntimeException e) {
            // Not the input's fault (disk full, permissions on OUT_DIR, a rendering bug): say what
            // failed; nothing was published (see render).
            err.println("ScalingCharts: failed, nothing written: " + e);
            e.printStackTrace(err);
            return 1;
        }
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
        if (inputs.isEmpty()) {
            throw new ResultsInputException("no result files given");
        }
        List<JmhResult> results = new ArrayList<>();
        for (Path input : inputs) {
            results.addAll(JmhResultReader.read(input));
        }
        List<ScalingGroup> groups = ScalingGroup.of(results);

        Files.createDirectories(outDir);
        // Same directory as the targets, so that the final moves stay on one file system.
        Path staging = Files.createTempDirectory(outDir, ".scaling-charts-");
        try {
            List<String> charts = new ArrayList<>();
            for (ScalingGroup g : groups) {
                ChartRenderer.throughput(g, staging.resolve(g.throughputChart()));
                charts.add(g.throughputChart());
                if (g.hasAbortRates()) {
                    ChartRenderer.abortRate(g, staging.resolve(g.abortsChart()));
                    charts.add(g.abortsChart());
                }
            }
            Files.writeString(staging.resolve(SUMMARY), SummaryWriter.markdown(inputs, results, groups));

            // Publish: the old summary goes first, the new one comes last, so that at no moment
            // does a summary.md stand beside charts it does not describe.
            Files.deleteIfExists(outDir.resolve(SUMMARY));
            List<Path> written = new ArrayList<>();
            for (String chart : charts) {
                written.add(Files.move(staging.resolve(chart), outDir.resolve(chart),
                        StandardCopyOption.REPLACE_EXISTING));
            }
            written.add(publish(staging.resolve(SUMMARY), outDir.resolve(SUMMARY)));
            return written;
        } finally {
            deleteTree(staging);
        }
    }

    /**
     * Best effort: a staging directory that cannot be removed is a hidden subdirectory, which no
     * reader of OUT_DIR's summary.md looks into, and failing a run whose output is already in place
     * would misreport it.
     */
    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // left as it is (see above)
        }
    }

    private static Path publish(Path from, Path to) throws IOException {
        try {
            return Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            return Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
