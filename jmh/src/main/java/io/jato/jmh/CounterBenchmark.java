package io.jato.jmh;

import io.jato.collections.TxCounter;
import io.jato.stm.Stm;
import io.jato.stm.TxnRunnable;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * A transaction whose only operation is {@link TxCounter#add}{@code (txn, 1)} — a commit-time
 * update with no read dependency — against incrementing a plain field and a {@code long[]} cell.
 *
 * <p>After each trial the counter must equal the number of committed transactions.
 *
 * <p>One counter is shared by all threads (that is what a counter is for). With {@code -t 2} the
 * STM threads serialize on the counter's short commit lock; the baselines race without any
 * synchronisation and lose updates: they show the cost of the cache line moving between cores,
 * not a correct alternative.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar CounterBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar CounterBenchmark -prof gc -t 2
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class CounterBenchmark {

    /** The store and its counter, shared by all threads. */
    @State(Scope.Benchmark)
    public static class StmCounter {
        @Param("occ")
        public String protocol;

        Stm stm;
        TxCounter counter;

        @Setup(Level.Trial)
        public void create() {
            stm = Stm.builder().protocol(protocol).build();
            counter = new TxCounter(stm);
            check("after set-up");
        }

        /** Every committed transaction added exactly one, and nothing else runs in this store. */
        @TearDown(Level.Trial)
        public void check() {
            check("after the trial");
        }

        private void check(String phase) {
            long commits = Trials.report("CounterBenchmark", phase, stm).commits();
            long value = counter.single().get();
            if (value != commits) {
                throw new IllegalStateException(phase + ": counter is " + value + " after " + commits + " committed adds");
            }
        }
    }

    /** One thread's transaction body, created once so no operation allocates it. */
    @State(Scope.Thread)
    public static class StmAdder {
        Stm stm;
        TxnRunnable body;

        @Setup(Level.Trial)
        public void init(StmCounter shared) {
            stm = shared.stm;
            TxCounter counter = shared.counter;
            body = txn -> counter.add(txn, 1);
        }
    }

    /** The baselines' counters, shared by all threads like the STM's. */
    @State(Scope.Benchmark)
    public static class PlainCounter {
        long value;
        final long[] cell = new long[1];
    }

    @Benchmark
    public void counterAdd(StmAdder a) {
        a.stm.run(a.body);
    }

    @Benchmark
    public long counterAddField(PlainCounter c) {
        return ++c.value;
    }

    @Benchmark
    public long counterAddArray(PlainCounter c) {
        return ++c.cell[0];
    }
}
