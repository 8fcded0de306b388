package io.jato.jmh;

import io.jato.collections.TxLong;
import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;

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
 * A read-only transaction that sums {@link #VALUES} {@link TxLong}s, run through
 * {@link Stm#readOnly} and through {@link Stm#atomic}, against summing a plain {@code long[]}.
 * Nothing writes during the benchmark, so every thread only reads shared memory: with {@code -t 2}
 * the time per operation must not rise, and anything that does rise is a write to shared memory
 * (or a cache line shared between the threads' own state) on the read path.
 *
 * <p>After each trial no item may be locked and the sum must be unchanged; the abort count printed
 * must be 0.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar ReadOnlySumBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar ReadOnlySumBenchmark -prof gc -t 2
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class ReadOnlySumBenchmark {
    /** How many values one transaction sums: the size the performance issue names. */
    static final int VALUES = 100;

    /** @return the value loaded at index {@code i} (shared with {@link PeerReadOnlySumBenchmark}) */
    static long value(int i) {
        return i * 7L + 1;
    }

    /** @return the sum of the {@link #VALUES} values loaded: what every read-only sum must return */
    static long expectedSum() {
        long sum = 0;
        for (int i = 0; i < VALUES; i++) {
            sum += value(i);
        }
        return sum;
    }

    /** The store and its values, shared by all threads. */
    @State(Scope.Benchmark)
    public static class StmValues {
        @Param("occ")
        public String protocol;
        /** {@code Stm.Builder.opacity}: {@code -p opacity=false,true} measures what opacity costs. */
        @Param("false")
        public boolean opacity;

        Stm stm;
        TxLong[] values;
        long[] plain;
        long expected;

        @Setup(Level.Trial)
        public void create() {
            stm = Stm.builder().protocol(protocol).opacity(opacity).build();
            values = new TxLong[VALUES];
            plain = new long[VALUES];
            for (int i = 0; i < VALUES; i++) {
                values[i] = new TxLong(stm, value(i));
                plain[i] = value(i);
            }
            expected = expectedSum();
            check("after set-up");
        }

        @TearDown(Level.Trial)
        public void check() {
            check("after the trial");
        }

        private void check(String phase) {
            long sum = 0;
            for (TxLong v : values) {
                String problem = v.checkQuiescent();
                if (problem != null) {
                    throw new IllegalStateException(phase + ": " + problem);
                }
                sum += v.single().get();
            }
            if (sum != expected) {
                throw new IllegalStateException(phase + ": sum " + sum + ", expected " + expected);
            }
            if (Trials.report("ReadOnlySumBenchmark", phase, stm).aborts() != 0) {
                throw new IllegalStateException(phase + ": a read-only transaction with no writer aborted");
            }
        }
    }

    /** One thread's transaction body, created once so no operation allocates it. */
    @State(Scope.Thread)
    public static class Summer {
        Stm stm;
        TxnFunction<Long> body;
        long[] plain;
        /** The body's result, kept unboxed: the function returns null to avoid boxing the sum. */
        long sum;

        @Setup(Level.Trial)
        public void init(StmValues shared) {
            stm = shared.stm;
            plain = shared.plain;
            TxLong[] values = shared.values;
            body = txn -> {
                long s = 0;
                for (TxLong v : values) {
                    s += v.get(txn);
                }
                sum = s;
                return null;
            };
        }
    }

    @Benchmark
    public long readOnlySum(Summer s) {
        s.stm.readOnly(s.body);
        return s.sum;
    }

    @Benchmark
    public long atomicSum(Summer s) {
        s.stm.atomic(s.body);
        return s.sum;
    }

    @Benchmark
    public long plainSum(Summer s) {
        long sum = 0;
        for (long v : s.plain) {
            sum += v;
        }
        return sum;
    }
}
