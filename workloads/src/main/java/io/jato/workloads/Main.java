package io.jato.workloads;

import io.jato.stm.Stm;
import io.jato.workloads.none.NoneProtocol;
import io.jato.workloads.tpcc.TpccCommand;
import io.jato.workloads.transfer.TransferCommand;
import io.jato.workloads.ycsb.YcsbCommand;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

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

    private static final List<WorkloadCommand> COMMANDS = List.of(new TpccCommand(), new YcsbCommand(), new TransferCommand());

    private static final List<Option> RUN_OPTIONS = List.of(
            Option.valued("protocol", "NAME", "concurrency-control protocol (default occ; see 'jato protocols')"),
            Option.valued("options", "NAME=VALUE,...", "the protocol's own options (see 'jato protocols --details')"),
            Option.valued("threads", "N", "worker threads (default 2)"),
            Option.valued("duration", "SECONDS", "measured run time (default 10)"),
            Option.valued("warmup", "SECONDS", "run time before measuring starts (default 2)"),
            Option.valued("warmup-threads", "N", "workers that run during the warm-up, 1 to --threads (default:"
                    + " all); the rest join when measuring starts"),
            Option.valued("seed", "N", "seed for every random choice (default: random; printed in the report)"),
            Option.valued("json", "FILE", "also write the results as JSON to FILE"),
            Option.flag("interrupt", "keep every worker's interrupt flag set (a pending interrupt must not slow the store)"),
            Option.flag("help", "show this help"));

    private static final int MAX_THREADS = 4096;

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
        return usageError(err, "jato", (name.startsWith("-") ? "expected a command before option '" + name + "'"
                : "unknown command '" + name + "'") + "; commands: " + commandNames());
    }

    /**
     * Builds the store; {@code options} is {@code NAME=VALUE,...} (may be empty); {@code objectProtocols}
     * are the workload's further protocols, known and other than {@code protocol}.
     */
    private static Stm store(String protocol, String options, List<String> objectProtocols) throws UsageException {
        Stm.Builder b = Stm.builder().protocol(protocol);
        objectProtocols.forEach(b::objectProtocol);
        for (String pair : options.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--options takes NAME=VALUE pairs separated by commas, got '" + pair + "'");
            }
            b.option(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static int runWorkload(WorkloadCommand command, String[] args, PrintStream out, PrintStream err) {
        String who = "jato " + command.name();
        Workload workload;
        Stm stm;
        Runner.Settings settings;
        long seed;
        Path json;
        try {
            List<Option> all = new ArrayList<>(RUN_OPTIONS);
            all.addAll(command.options());
            Options o = Options.parse(all, args, 1);
            if (o.has("help")) {
                out.print(commandUsage(command));
                return EXIT_OK;
            }
            String protocol = o.string("protocol", "occ");
            List<String> known = Stm.availableProtocols();
            if (!known.contains(protocol)) {
                throw new UsageException("unknown protocol '" + protocol + "'; known protocols: " + String.join(", ", known));
            }
            List<String> objectProtocols = new ArrayList<>();
            for (String p : command.objectProtocols(o)) {
                if (!known.contains(p)) {
                    throw new UsageException("unknown protocol '" + p + "' in the " + command.name()
                            + " options; known protocols: " + String.join(", ", known));
                }
                if (!p.equals(protocol) && !objectProtocols.contains(p)) {
                    objectProtocols.add(p);
                }
            }
            if (!objectProtocols.isEmpty()
                    && (protocol.equals(NoneProtocol.NAME) || objectProtocols.contains(NoneProtocol.NAME))) {
                throw new UsageException("protocol 'none' has no concurrency control and cannot be mixed with other"
                        + " protocols (here " + protocol + ", " + String.join(", ", objectProtocols) + ")");
            }
            int threads = o.intValue("threads", 2, 1, MAX_THREADS);
            double duration = o.doubleValue("duration", 10, 0.001, 1e7, false);
            double warmup = o.doubleValue("warmup", 2, 0, 1e7, false);
            seed = o.has("seed") ? o.longValue("seed", 0, Long.MIN_VALUE + 1, Long.MAX_VALUE)
                    : new SplittableRandom().nextLong();
            json = o.has("json") ? jsonPath(o.string("json", "")) : null;
            boolean noCc = protocol.equals(NoneProtocol.NAME);
            if (noCc && threads != 1) {
                throw new UsageException("protocol 'none' has no concurrency control and runs one thread only;"
                        + " use --threads 1 (it is the single-thread baseline for the cost of concurrency control)");
            }
            // Without concurrency control, loading must be single-threaded too.
            int warmupThreads = o.intValue("warmup-threads", threads, 1, threads);
            settings = new Runner.Settings(threads, seconds(warmup), seconds(duration),
                    noCc ? 1 : Math.max(1, Runtime.getRuntime().availableProcessors()), o.has("interrupt"),
                    warmupThreads);
            stm = store(protocol, o.has("options") ? o.string("options", "") : "", objectProtocols);
            workload = command.create(o, stm, seed);
        } catch (UsageException e) {
            return usageError(err, who, e.getMessage());
        }

        RunResult result;
        try {
            result = new Runner(stm, settings, err).run(workload, seed);
        } catch (RunFailure f) {
            err.println(who + ": " + f.getMessage() + ": " + f.getCause());
            if (f.getCause() instanceof OutOfMemoryError) {
                err.println(who + ": the heap is too small for this run; give the JVM more, e.g. JAVA_OPTS=-Xmx8g");
            } else {
                f.printStackTrace(err);
            }
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

    private static long seconds(double s) {
        return Math.round(s * TimeUnit.SECONDS.toNanos(1));
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

    private static void appendOptions(StringBuilder sb, List<Option> options) {
        for (Option o : options) {
            sb.append(String.format("  %-20s%s%n", o.synopsis(), o.help()));
        }
    }
}
