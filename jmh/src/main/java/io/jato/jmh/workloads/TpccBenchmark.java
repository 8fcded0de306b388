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
 * TPC-C in JMH: one operation is one TPC-C transaction of the runner's {@code tpcc} workload (its
 * loader, its transaction code, its deferred delivery), on a database loaded once per trial.
 * Throughput is transactions per second over all threads; {@link Attempts} reports commits and
 * aborts by cause beside it. After every trial TPC-C's consistency conditions are checked and
 * nothing may be left locked: a broken protocol fails the benchmark rather than report a number.
 *
 * <p>Parameters (each also a runner option, {@code ./jato tpcc --help}):
 * <ul>
 *   <li>{@code protocol}: a registered protocol's name, or a store mixing protocols per table as
 *       {@code DEFAULT+TABLE=PROTOCOL+...}, e.g. {@code occ+stock=tictoc} (the runner's
 *       {@code --table-protocols}).</li>
 *   <li>{@code mode}: {@code base}, {@code ts}, {@code cu}, {@code cu+ts}.</li>
 *   <li>{@code warehouses}: a number, or {@code threads} for one warehouse per JMH thread (each
 *       thread then serves its own home warehouse, the usual TPC-C scaling).</li>
 *   <li>{@code mix}: {@code standard} (45/43/4/4/4 with deferred delivery), or one type alone:
 *       {@code new-order}, {@code payment}, {@code order-status}, {@code delivery},
 *       {@code stock-level}.</li>
 *   <li>{@code orderIds}: {@code fast} (Silo's) or {@code strict}.</li>
 * </ul>
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar TpccBenchmark -t 2 -p protocol=occ,tictoc -p mode=base,cu+ts
 * java -jar jmh/target/benchmarks.jar TpccBenchmark -t 4 -p warehouses=1 -p mix=payment -prof gc
 * </pre>
 * Each warehouse needs about 256 MiB of heap and the run 512 MiB more (a trial with less is
 * refused before loading, as the runner refuses it), and the database grows as new-orders commit: give
 * the forks room with {@code -jvmArgsAppend -Xmx16g} for many warehouses.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(1)
public class TpccBenchmark {
    /** The database of one trial, shared by its threads. */
    @State(Scope.Benchmark)
    public static class Database {
        @Param({"occ", "tictoc"})
        public String protocol;
        @Param("cu+ts")
        public String mode;
        @Param("threads")
        public String warehouses;
        @Param("standard")
        public String mix;
        @Param("fast")
        public String orderIds;

        WorkloadTrial trial;

        @Setup(Level.Trial)
        public void load(BenchmarkParams params) {
            int threads = params.getThreads();
            List<String> line = new ArrayList<>(Protocols.options(protocol, "--table-protocols", ","));
            line.addAll(List.of("--mode", mode,
                    "--warehouses", "threads".equals(warehouses) ? Integer.toString(threads) : warehouses,
                    "--mix", mix, "--order-ids", orderIds,
                    "--threads", Integer.toString(threads), "--seed", Long.toString(Protocols.SEED)));
            trial = WorkloadTrial.load("tpcc", line, System.out);
            trial.check("after loading", System.out);
        }
    }

    /** One thread's terminal: the runner's worker for this thread index, with its own generators. */
    @State(Scope.Thread)
    public static class Terminal extends WorkerState {
        @Setup(Level.Trial)
        public void init(Database db, ThreadParams thread) {
            start(db.trial, thread.getThreadIndex());
        }
    }

    /**
     * Runs one transaction to its end, retries included.
     *
     * @return whether it committed (false for a new-order rolled back on purpose)
     */
    @Benchmark
    public boolean transaction(Attempts attempts, Terminal terminal) {
        return terminal.worker.runOne();
    }
}
