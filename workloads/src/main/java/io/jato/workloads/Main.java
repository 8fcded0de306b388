package io.jato.workloads;

import io.jato.stm.Stm;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The command-line runner: {@code jato <command> [options]}. Each workload is a
 * {@link WorkloadCommand}; {@code protocols} lists the stores' protocols.
 *
 * <p>Exit status: 0 when the run's consistency check passed (or for help), 1 when it failed or the
 * run could not finish, 2 for a command line it cannot run. Progress goes to standard error, the
 * report to standard output.
 */
public final class Main {
    /** Exit status of a run whose check passed, and of help. */
    public static final int EXIT_OK = 0;
    /** Exit status of a failed check or a run that could not finish. */
    public static final int EXIT_FAILED = 1;
    /** Exit status of a command line that cannot be run. */
    public static final int EXIT_USAGE = 2;

    private static final List<WorkloadCommand> COMMANDS = WorkloadSetup.COMMANDS;
    /** The ./jato script's chart command (io.jato.jmh.charts.RunCharts); the runner only lists it. */
    private static final String PLOT = "plot";
    private static final List<Option> RUN_OPTIONS = WorkloadSetup.RUN_OPTIONS;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs a command line.
     *
     * @param out receives the report and help
     * @param err receives progress and error messages
     * @return the exit status
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.print(usage());
            return EXIT_USAGE;
        }
        String name = args[0];
        if (name.equals("--help") || name.equals("-h") || name.equals("help")) {
            out.print(usage());
            return EXIT_OK;
        }
        if (name.equals("protocols")) {
            if (args.length == 2 && (args[1].equals("--help") || args[1].equals("-h"))) {
                out.println("Usage: jato protocols [--details]\n\nLists the concurrency-control protocols a store can use"
                        + " (--protocol NAME), one per line;\nwith --details also what each guarantees and its options"
                        + " (--options NAME=VALUE,...).");
                return EXIT_OK;
            }
            boolean details = args.length == 2 && args[1].equals("--details");
            if (args.length > 1 && !details) {
                return usageError(err, "jato protocols", "unexpected argument '" + args[1] + "'");
            }
            for (String p : Stm.availableProtocols()) {
                out.println(p);
                if (details) {
                    out.println("    " + Stm.protocolCapabilities(p));
                    Stm.protocolOptions(p).forEach((k, v) -> out.println("    option " + k + " = " + v));
                }
            }
            return EXIT_OK;
        }
        for (WorkloadCommand c : COMMANDS) {
            if (c.name().equals(name)) {
                return runWorkload(c, args, out, err);
            }
        }
        if (name.equals(PLOT)) {
            // Listed in the usage, so it is a name users try here too: say where it lives.
            return usageError(err, "jato", "'plot' is a command of the ./jato script, which runs the chart tool of"
                    + " jmh/target/benchmarks.jar: ./jato plot OUT_DIR REPORT.json...");
        }
        return usageError(err, "jato", (name.startsWith("-") ? "expected a command before option '" + name + "'"
                : "unknown command '" + name + "'") + "; commands: " + commandNames());
    }

    /** Runs {@code command} with {@code args} ({@code args[0]} is its name); package-private for tests. */
    static int runWorkload(WorkloadCommand command, String[] args, PrintStream out, PrintStream err) {
        String who = "jato " + command.name();
        Workload workload;
        Stm stm;
        Runner.Settings settings;
        long seed;
        Path json;
        try {
            Options o = Options.parse(WorkloadSetup.allOptions(command), args, 1);
            if (o.has("help")) {
                out.print(commandUsage(command));
                return EXIT_OK;
            }
            json = o.has("json") ? jsonPath(o.string("json", "")) : null;
            WorkloadSetup setup = WorkloadSetup.create(command, o);
            stm = setup.stm();
            workload = setup.workload();
            settings = setup.settings();
            seed = setup.seed();
        } catch (UsageException e) {
            return usageError(err, who, e.getMessage());
        }

        // Prepared before the run: after an OutOfMemoryError the heap may still be full (a worker
        // not yet unwound holds what it allocated), and building the report could fail itself.
        String heapReport = who + ": the runner failed: java.lang.OutOfMemoryError: Java heap space"
                + System.lineSeparator() + who + HEAP_TOO_SMALL;
        RunResult result;
        try {
            result = new Runner(stm, settings, err).run(workload, seed);
        } catch (RunFailure | OutOfMemoryError f) {
            // Drop the database first: after an OutOfMemoryError the heap is still full of it, and
            // the lines below need a little.
            workload = null;
            stm = null;
            reportFailure(err, who, f, heapReport);
            return EXIT_FAILED;
        }
        Report.print(result, out);
        if (json != null) {
            try {
                Files.writeString(json, Report.json(result));
            } catch (IOException e) {
                err.println(who + ": cannot write the JSON report to " + json + ": " + e);
                return EXIT_FAILED;
            }
        }
        return result.check().passed() ? EXIT_OK : EXIT_FAILED;
    }

    private static final String HEAP_TOO_SMALL =
            ": the heap is too small for this run; give the JVM more, e.g. JAVA_OPTS=-Xmx8g";

    /**
     * Reports a failed run in two lines (or a line and a stack trace). Out of memory while
     * reporting an OutOfMemoryError, it prints {@code heapReport}, prepared before the run, and
     * tries a few times, pausing so that the workers still unwinding let go of the heap: the JVM's
     * own "OutOfMemoryError thrown from the main thread" must not replace Main's report.
     */
    private static void reportFailure(PrintStream err, String who, Throwable f, String heapReport) {
        Throwable cause = f instanceof RunFailure ? f.getCause() : f;
        if (!(cause instanceof OutOfMemoryError)) {
            err.println(who + ": " + f.getMessage() + ": " + cause);
            f.printStackTrace(err);
            return;
        }
        for (int tries = 0;; tries++) {
            try {
                String report;
                try {
                    report = f instanceof RunFailure
                            ? who + ": " + f.getMessage() + ": " + cause + System.lineSeparator() + who + HEAP_TOO_SMALL
                            : heapReport;
                } catch (OutOfMemoryError again) {
                    report = heapReport;
                }
                err.println(report);
                return;
            } catch (OutOfMemoryError again) {
                if (tries == 3) {
                    throw again;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private static Path jsonPath(String raw) throws UsageException {
        Path p;
        try {
            p = Path.of(raw);
        } catch (InvalidPathException e) {
            throw new UsageException("--json: invalid file name '" + raw + "'");
        }
        if (raw.isEmpty() || Files.isDirectory(p)) {
            throw new UsageException("--json needs a file name, got '" + raw + "'");
        }
        Path dir = p.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new UsageException("--json: directory '" + dir + "' does not exist");
        }
        return p;
    }

    private static int usageError(PrintStream err, String who, String message) {
        err.println(who + ": " + message);
        err.println("Try '" + who + " --help' for usage.");
        return EXIT_USAGE;
    }

    private static String commandNames() {
        List<String> names = new ArrayList<>();
        COMMANDS.forEach(c -> names.add(c.name()));
        names.add("protocols");
        return String.join(", ", names);
    }

    static String usage() {
        StringBuilder sb = new StringBuilder();
        sb.append("Usage: jato <command> [options]\n\n");
        sb.append("Runs a workload on a Jato store for a duration with N threads and reports throughput,\n");
        sb.append("abort rate by cause and latency percentiles, then checks the workload's invariants.\n\n");
        sb.append("Commands:\n");
        for (WorkloadCommand c : COMMANDS) {
            sb.append(String.format("  %-12s%s%n", c.name(), c.summary()));
        }
        sb.append(String.format("  %-12s%s%n", "protocols", "list the concurrency-control protocols"));
        sb.append(String.format("  %-12s%s%n  %-12s%s%n", PLOT,
                "render charts from --json reports (run by the ./jato script, not by this jar):",
                "", "./jato plot OUT_DIR REPORT.json..."));
        sb.append("\nRun 'jato <command> --help' for a command's options. Example:\n");
        sb.append("  jato tpcc --warehouses 1 --threads 2 --duration 10\n");
        sb.append("  jato ycsb --mix txn16 --threads 2 --duration 10\n");
        sb.append("\nExit status: 0 ok, 1 check failed or run failed, 2 bad command line.\n");
        return sb.toString();
    }

    static String commandUsage(WorkloadCommand c) {
        StringBuilder sb = new StringBuilder();
        sb.append("Usage: jato ").append(c.name()).append(" [options]\n\n");
        sb.append(c.description()).append("\n\n");
        sb.append("Run options:\n");
        appendOptions(sb, RUN_OPTIONS);
        sb.append('\n').append(c.name().toUpperCase(Locale.ROOT)).append(" options:\n");
        appendOptions(sb, c.options());
        sb.append("\nOptions take '--name VALUE' or '--name=VALUE'. Integers accept a k or m suffix (10m = 10,000,000).\n");
        sb.append("Progress goes to standard error, the report to standard output.\n");
        return sb.toString();
    }

    /** The column, after the two-space indent, where an option's help text starts. */
    private static final int HELP_COLUMN = 20;

    private static void appendOptions(StringBuilder sb, List<Option> options) {
        for (Option o : options) {
            String synopsis = o.synopsis();
            if (synopsis.length() < HELP_COLUMN - 1) {
                sb.append(String.format("  %-" + HELP_COLUMN + "s%s%n", synopsis, o.help()));
            } else {
                // A long synopsis would run into its help text: the help goes on a line of its own.
                sb.append("  ").append(synopsis).append('\n')
                        .append(" ".repeat(HELP_COLUMN + 2)).append(o.help()).append('\n');
            }
        }
    }
}
