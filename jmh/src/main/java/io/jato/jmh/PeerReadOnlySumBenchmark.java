package io.jato.jmh;

import io.jato.stm.Stm;

import org.multiverse.api.TxnExecutor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import scala.concurrent.stm.japi.STM;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A read-only transaction that sums {@link ReadOnlySumBenchmark#VALUES} (100) transactional longs,
 * on Jato and on the JVM's other STMs ({@code docs/peers.md}). Nothing writes during the benchmark,
 * so with {@code -t 2} the threads only read shared memory: a time per op that rises with the
 * second thread shows a shared write on the peer's read path.
 *
 * <ul>
 *   <li>{@code jato}: {@link ReadOnlySumBenchmark}'s {@link Stm#readOnly} sum of 100 {@code TxLong}s,
 *       its states reused as they are.</li>
 *   <li>{@code scalaStm}: 100 {@code Ref.View<Long>.get()} in {@link STM#atomic(Runnable)} (ScalaSTM
 *       has no read-only declaration).</li>
 *   <li>{@code multiverse}: 100 {@code TxnLong.get(txn)} in a {@link TxnExecutor} built with
 *       {@code setReadonly(true)}, Multiverse's declared read-only transaction.</li>
 *   <li>{@code clojure}: 100 {@code Ref.deref()} in {@code dosync} (no read-only declaration either).</li>
 *   <li>{@code mvstore}: 100 {@code TransactionMap.get} in one MVStore transaction, then
 *       {@code commit()} (READ COMMITTED: each get reads the latest committed value, not one
 *       snapshot — the same thing here, where nothing writes).</li>
 *   <li>{@code globalLock}: summing a {@code long[100]} under one {@link ReentrantLock}: readers
 *       serialise too.</li>
 * </ul>
 * The values are those of {@link ReadOnlySumBenchmark}, pre-boxed for the peers that hold objects.
 * Each system's states, and what each allocates per op, are in its class ({@link ScalaStmPeer},
 * {@link MultiversePeer}, {@link ClojurePeer}, {@link MvStorePeer}, {@link GlobalLockPeer}).
 *
 * <p>Every transaction's sum is kept; after each trial each thread's last sum and the values' sum
 * read outside any transaction must both be the sum loaded ({@code jato}: {@link ReadOnlySumBenchmark}'s
 * checks, the sum, no lock left and no abort).
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar PeerReadOnlySumBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar PeerReadOnlySumBenchmark -prof gc -t 2
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PeerReadOnlySumBenchmark {
    static final String NAME = "PeerReadOnlySumBenchmark";
    static final int VALUES = ReadOnlySumBenchmark.VALUES;
    static final long EXPECTED = ReadOnlySumBenchmark.expectedSum();

    /** Base of a system's values, checked to still sum to {@link #EXPECTED}. */
    public abstract static class ValuesBase extends Peers.Shared {
        /** The keys {@code 0 .. VALUES-1} and the values at them, boxed once. */
        final Long[] keys = Data.keys(VALUES);
        final Long[] boxed = new Long[VALUES];

        /** @return the sum of the committed values, read while no transaction runs */
        abstract long sum();

        /** Boxes the values; then the system's {@code load} creates its values from {@link #boxed}. */
        @Override
        void prepare() {
            for (int i = 0; i < VALUES; i++) {
                boxed[i] = ReadOnlySumBenchmark.value(i);
            }
        }

        @Override
        void check(String phase) {
            long sum = sum();
            Peers.check(sum == EXPECTED, NAME, system(), phase, "sum " + sum + ", loaded " + EXPECTED);
        }
    }

    /** Base of a thread's state: the sum its last transaction returned, checked after the trial. */
    public abstract static class ReaderBase {
        long sum;

        @TearDown(Level.Trial)
        public void checkLastSum() {
            if (sum != EXPECTED) {
                Class<?> state = getClass();
                while (state.getName().contains(".jmh_generated.")) {
                    state = state.getSuperclass();
                }
                throw new IllegalStateException("invariant violated: " + NAME + " " + state.getName()
                        + ": the last transaction summed " + sum + ", loaded " + EXPECTED);
            }
        }
    }

    @Benchmark
    public long jato(ReadOnlySumBenchmark.Summer s) {
        s.stm.readOnly(s.body);
        return s.sum;
    }

    @Benchmark
    public long scalaStm(ScalaStmPeer.Summer r) {
        STM.atomic(r.body);
        return r.sum;
    }

    @Benchmark
    public long multiverse(MultiversePeer.Summer r) {
        return r.sum = r.readOnly.execute(r.body);
    }

    @Benchmark
    public long clojure(ClojurePeer.Summer r) {
        ClojurePeer.dosync(r.body);
        return r.sum;
    }

    @Benchmark
    public long mvstore(MvStorePeer.Summer r) {
        r.store.run(r.body);
        return r.sum;
    }

    @Benchmark
    public long globalLock(GlobalLockPeer.Values v, GlobalLockPeer.Summer r) {
        return r.sum = v.sum();
    }
}
