package io.jato.jmh.workloads;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * YCSB in JMH: one operation is one transaction of the runner's {@code ycsb} workload, on a table
 * loaded once per trial. Throughput is transactions per second over all threads, with commits and
 * aborts by cause beside it ({@link Attempts}). After every trial the workload's invariant is
 * checked (every column grew by exactly its committed increments, nothing left locked): a broken
 * protocol fails the benchmark rather than report a number.
 *
 * <p>Parameters (each also a runner option, {@code ./jato ycsb --help}):
 * <ul>
 *   <li>{@code protocol}: a registered protocol's name.</li>
 *   <li>{@code workload}: {@code txn16-high} - 16 operations on distinct keys, Zipf θ = 0.9, 50%
 *       writes (the high contention of seeds 000 and 001); {@code txn16-medium} - θ = 0.8, 10% writes
 *       (seed 001's medium contention); {@code a} and {@code b} - YCSB-A and YCSB-B, one key per
 *       transaction, θ = 0.99.</li>
 *   <li>{@code theta}, {@code writeRatio}: {@code default} keeps the workload's; a number overrides
 *       it (STO's txn16 runs are {@code -p theta=0.99 -p writeRatio=0.5} and
 *       {@code -p theta=0.8 -p writeRatio=0.05}).</li>
 *   <li>{@code records}: table size (the seed papers use 10 M; give the forks heap for it).</li>
 *   <li>{@code layout}: {@code rows}, {@code coarse} or {@code split}; {@code writes}: {@code rmw} or
 *       {@code updater} (commit-time increments, record layouts only).</li>
 * </ul>
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar YcsbBenchmark -t 2 -p workload=txn16-high -p protocol=occ,tictoc
 * java -jar jmh/target/benchmarks.jar YcsbBenchmark -t 1 -p records=10000000 -jvmArgsAppend -Xmx12g
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class YcsbBenchmark {
    /** The table of one trial, shared by its threads. */
    @State(Scope.Benchmark)
    public static class Table {
        @Param({"occ", "tictoc"})
        public String protocol;
        @Param({"txn16-high", "txn16-medium", "a", "b"})
        public String workload;
        @Param("default")
        public String theta;
        @Param("default")
        public String writeRatio;
        @Param("1000000")
        public String records;
        @Param("rows")
        public String layout;
        @Param("rmw")
        public String writes;

        WorkloadTrial trial;

        @Setup(Level.Trial)
        public void load(BenchmarkParams params) {
            List<String> line = new ArrayList<>(List.of("--protocol", protocol));
            switch (workload) {
                case "txn16-high" -> line.addAll(List.of("--mix", "txn16", "--theta", "0.9", "--write-ratio", "0.5"));
                case "txn16-medium" -> line.addAll(List.of("--mix", "txn16", "--theta", "0.8", "--write-ratio", "0.1"));
                case "a", "b" -> line.addAll(List.of("--mix", workload));
                default -> throw new IllegalArgumentException("unknown YCSB workload '" + workload
                        + "'; known: txn16-high, txn16-medium, a, b");
            }
            override(line, "--theta", theta);
            override(line, "--write-ratio", writeRatio);
            line.addAll(List.of("--records", records, "--layout", layout, "--writes", writes,
                    "--threads", Integer.toString(params.getThreads()), "--seed", Long.toString(Protocols.SEED)));
            trial = WorkloadTrial.load("ycsb", line, System.out);
            trial.check("after loading", System.out);
        }

        /** Replaces (or adds) {@code option}'s value unless {@code value} is {@code default}. */
        private static void override(List<String> line, String option, String value) {
            if ("default".equals(value)) {
                return;
            }
            int at = line.indexOf(option);
            if (at >= 0) {
                line.set(at + 1, value);
            } else {
                line.addAll(List.of(option, value));
            }
        }
    }

    /** One thread's client: the runner's worker for this thread index, with its own key generator. */
    @State(Scope.Thread)
    public static class Client extends WorkerState {
        @Setup(Level.Trial)
        public void init(Table table, ThreadParams thread) {
            start(table.trial, thread.getThreadIndex());
        }
    }

    /**
     * Runs one transaction to its end, retries included.
     *
     * @return whether it committed
     */
    @Benchmark
    public boolean transaction(Attempts attempts, Client client) {
        return client.worker.runOne();
    }
}
