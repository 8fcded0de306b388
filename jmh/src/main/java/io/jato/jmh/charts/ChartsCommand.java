package io.jato.jmh.charts;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line the chart tools share: {@code TOOL OUT_DIR INPUT [INPUT ...]}. It checks the
 * arguments, renders, and maps the outcome to the exit status: 0 when everything was written; 2
 * for a usage error (wrong arguments, an OUT_DIR that is a file, or an input the tool refuses),
 * with the problem on standard error; 1 when writing failed (disk, permissions, a bug), with the
 * stack trace. Every message starts with the tool's name.
 *
 * @param tool the name that starts every message ("ScalingCharts")
 * @param usage the usage line
 * @param inputs what the inputs are, for "no ... given" ("result files")
 */
record ChartsCommand(String tool, String usage, String inputs, ChartsCommand.Renderer renderer) {
    /** Renders {@code inputs} into {@code outDir} and returns the files written, the summary last. */
    @FunctionalInterface
    interface Renderer {
        List<Path> render(Path outDir, List<Path> inputs) throws ResultsInputException, IOException;
    }

    /** Runs the command line and exits with its status (only where it is not 0). */
    void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** Runs the command line: returns the status, reports on {@code out} and {@code err}. */
    int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 2) {
            err.println(args.length == 0 ? usage : tool + ": no " + inputs + " given\n" + usage);
            return 2;
        }
        // Not the input's fault (disk full, permissions on OUT_DIR, a rendering bug): nothing was
        // published (StagedOutput).
        return status(tool, usage, err, "failed, nothing written", () -> {
            Path outDir = Path.of(args[0]);
            if (Files.exists(outDir) && !Files.isDirectory(outDir)) {
                err.println(tool + ": " + outDir + ": exists and is not a directory\n" + usage);
                return 2;
            }
            List<Path> files = new ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                files.add(Path.of(args[i]));
            }
            List<Path> written = renderer.render(outDir, files);
            out.println(tool + ": wrote " + (written.size() - 1) + " charts and " + written.get(written.size() - 1));
            return 0;
        });
    }

    /** A tool's work on its arguments, returning its exit status. */
    @FunctionalInterface
    interface Work {
        int run() throws ResultsInputException, IOException;
    }

    /**
     * Runs {@code work} and maps its failures to the status every chart tool exits with: an
     * argument that is not a path (with the usage) or a refused input, 2, the message on
     * {@code err} after the tool's name; a failure to write (disk, permissions, a bug), 1, with
     * {@code failed} and the stack trace.
     */
    static int status(String tool, String usage, PrintStream err, String failed, Work work) {
        try {
            return work.run();
        } catch (InvalidPathException e) {
            err.println(tool + ": not a path: " + e.getInput() + "\n" + usage);
            return 2;
        } catch (ResultsInputException e) {
            err.println(tool + ": " + e.getMessage());
            return 2;
        } catch (IOException | RuntimeException e) {
            err.println(tool + ": " + failed + ": " + e);
            e.printStackTrace(err);
            return 1;
        }
    }
}
