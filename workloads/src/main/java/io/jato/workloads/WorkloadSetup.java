package io.jato.workloads;

import io.jato.stm.Stm;
import io.jato.workloads.none.NoneProtocol;
import io.jato.workloads.tpcc.TpccCommand;
import io.jato.workloads.transfer.TransferCommand;
import io.jato.workloads.ycsb.YcsbCommand;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A store and a workload built from a runner command line, exactly as {@code jato <command>} builds
 * them: the same options, the same validation and messages, the same protocol and option handling.
 * {@link Main} runs what this prepares; other harnesses (the JMH workload benchmarks) drive the same
 * workload code through it instead of a second copy of the set-up.
 *
 * <pre>
 * WorkloadSetup s = WorkloadSetup.parse("tpcc", "--protocol", "tictoc", "--warehouses", "2", "--threads", "2");
 * s.workload().load(new ParallelLoader(s.settings().loadThreads(), System.err));
 * </pre>
 *
 * <p>Nothing is loaded here: {@link Workload#load} is the caller's step.
 */
public final class WorkloadSetup {
    /** The workloads the runner knows, in the order its usage lists them. */
    static final List<WorkloadCommand> COMMANDS = List.of(new TpccCommand(), new YcsbCommand(), new TransferCommand());

    /** The options every workload command takes besides its own. */
    static final List<Option> RUN_OPTIONS = List.of(
            Option.valued("protocol", "NAME", "concurrency-control protocol (default occ; see 'jato protocols')"),
            Option.valued("options", "NAME=VALUE,...", "the protocol's own options (see 'jato protocols --details')"),
            Option.valued("tree", "2-layer|3-layer|FILE", "run Tebaldi's tree of concurrency controls over the"
                    + " workload's transaction types (protocol tebaldi; docs/tebaldi.md): a shipped tree or a file"),
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

    private final Stm stm;
    private final Workload workload;
    private final Runner.Settings settings;
    private final long seed;

    private WorkloadSetup(Stm stm, Workload workload, Runner.Settings settings, long seed) {
        this.stm = stm;
        this.workload = workload;
        this.settings = settings;
        this.seed = seed;
    }

    /**
     * Builds the store and the workload a runner command line names.
     *
     * @param command the workload's name ({@code tpcc}, {@code ycsb}, {@code transfer})
     * @param options its options as on the command line, e.g. {@code "--protocol", "tictoc", "--threads", "4"}
     * @throws UsageException for an unknown command, option or protocol, or a value out of range, with
     *                        the runner's message (nothing has been built then)
     */
    public static WorkloadSetup parse(String command, String... options) throws UsageException {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(options, "options");
        WorkloadCommand c = command(command);
        if (c == null) {
            throw new UsageException("unknown workload '" + command + "'; workloads: " + names());
        }
        String[] args = new String[options.length + 1];
        args[0] = command;
        System.arraycopy(options, 0, args, 1, options.length);
        Options o = Options.parse(allOptions(c), args, 1);
        if (o.has("help")) {
            throw new UsageException("--help asks for the usage, not a run");
        }
        return create(c, o);
    }

    /** @return the command named {@code name}, or null */
    static WorkloadCommand command(String name) {
        for (WorkloadCommand c : COMMANDS) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** @return the names of the workloads, comma-separated */
    static String names() {
        List<String> names = new ArrayList<>();
        COMMANDS.forEach(c -> names.add(c.name()));
        return String.join(", ", names);
    }

    /** @return the run options followed by {@code command}'s own */
    static List<Option> allOptions(WorkloadCommand command) {
        List<Option> all = new ArrayList<>(RUN_OPTIONS);
        all.addAll(command.options());
        return all;
    }

    /** Validates the parsed options of {@code command} and builds its store and workload. */
    static WorkloadSetup create(WorkloadCommand command, Options o) throws UsageException {
        TreeOption tree = TreeOption.parse(o, command);
        String protocol = tree != null ? TreeOption.PROTOCOL : o.string("protocol", "occ");
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
        long seed = o.has("seed") ? o.longValue("seed", 0, Long.MIN_VALUE + 1, Long.MAX_VALUE)
                : new SplittableRandom().nextLong();
        boolean noCc = protocol.equals(NoneProtocol.NAME);
        if (noCc && threads != 1) {
            throw new UsageException("protocol 'none' has no concurrency control and runs one thread only;"
                    + " use --threads 1 (it is the single-thread baseline for the cost of concurrency control)");
        }
        // Without concurrency control, loading must be single-threaded too.
        int warmupThreads = o.intValue("warmup-threads", threads, 1, threads);
        Runner.Settings settings = new Runner.Settings(threads, seconds(warmup), seconds(duration),
                noCc ? 1 : Math.max(1, Runtime.getRuntime().availableProcessors()), o.has("interrupt"),
                warmupThreads);
        Stm stm = store(protocol, o.has("options") ? o.string("options", "") : "", objectProtocols, tree);
        return new WorkloadSetup(stm, command.create(o, stm, seed), settings, seed);
    }

    /**
     * Builds the store; {@code options} is {@code NAME=VALUE,...} (may be empty); {@code objectProtocols}
     * are the workload's further protocols, known and other than {@code protocol}.
     */
    private static Stm store(String protocol, String options, List<String> objectProtocols, TreeOption tree)
            throws UsageException {
        Stm.Builder b = Stm.builder().protocol(protocol);
        objectProtocols.forEach(b::objectProtocol);
        if (tree != null) {
            tree.configure(b);
        }
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

    private static long seconds(double s) {
        return Math.round(s * TimeUnit.SECONDS.toNanos(1));
    }

    /** @return the store the workload runs in */
    public Stm stm() {
        return stm;
    }

    /** @return the workload, not yet loaded */
    public Workload workload() {
        return workload;
    }

    /** @return threads, timing, loading threads and the interrupt flag the command line asked for */
    public Runner.Settings settings() {
        return settings;
    }

    /** @return the seed every random choice derives from (drawn at random when the line gave none) */
    public long seed() {
        return seed;
    }

    @Override
    public String toString() {
        return "WorkloadSetup{" + workload.name() + ' ' + workload.parameters() + ", " + stm + ", seed " + seed
                + ", threads " + settings.threads() + '}';
    }
}
