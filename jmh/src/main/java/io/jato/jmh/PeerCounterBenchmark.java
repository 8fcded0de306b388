package io.jato.jmh;

import io.jato.collections.TxLong;
import io.jato.stm.Stm;

import org.multiverse.api.StmUtils;
import org.multiverse.api.references.TxnLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;
import scala.concurrent.stm.japi.STM;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One shared counter, +1 per transaction, on Jato and on the JVM's other STMs
 * ({@code docs/peers.md}). One op is one whole transaction; all threads increment the same counter.
 *
 * <ul>
 *   <li>{@code jato}: {@link TxLong#addAndGet}{@code (txn, 1)} in {@link Stm#run} (reads, then
 *       writes). {@code jatoCounter}: {@link CounterBenchmark}'s {@code TxCounter.add} (a commit-time
 *       add, no read), its states reused as they are.</li>
 *   <li>{@code scalaStm}: {@code counter.set(counter.get() + 1)} on a {@code Ref.View<Long>} in
 *       {@link STM#atomic(Runnable)}.</li>
 *   <li>{@code multiverse}: {@link TxnLong#incrementAndGet}{@code (txn, 1)} in
 *       {@link StmUtils#atomic}. {@code multiverseCommute}: {@link TxnLong#increment}{@code (txn)},
 *       which Multiverse implements as a commuting update (no read).</li>
 *   <li>{@code clojure}: {@code (dosync (ref-set counter (inc @counter)))}. {@code clojureCommute}:
 *       {@code (dosync (commute counter inc))}.</li>
 *   <li>{@code mvstore}: {@code lock(0)} then {@code put(0, v + 1)} on a {@code TransactionMap} in
 *       one MVStore transaction, retried after a write conflict.</li>
 *   <li>{@code globalLock}: {@code ++counter[0]} under one {@link ReentrantLock}: the serial baseline.</li>
 * </ul>
 * Each system's states, and what each allocates per op, are in its class ({@link JatoPeer},
 * {@link ScalaStmPeer}, {@link MultiversePeer}, {@link ClojurePeer}, {@link MvStorePeer},
 * {@link GlobalLockPeer}).
 *
 * <p>After each trial the counter must equal the increments the threads committed (each counts its
 * own after every transaction returned); {@code jato} also checks no lock is left and the store's
 * commit count.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar PeerCounterBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar PeerCounterBenchmark -prof gc -t 2
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PeerCounterBenchmark {
    static final String NAME = "PeerCounterBenchmark";

    /** Base of a system's shared counter, checked against its threads' committed increments. */
    public abstract static class CounterBase extends Peers.Shared {
        /** @return the counter's committed value (loaded as 0), read while no transaction runs */
        abstract long value();

        @Override
        void check(String phase) {
            long value = value();
            long committed = tally.committed();
            Peers.check(value == committed, NAME, system(), phase,
                    "counter " + value + ", " + committed + " committed increments" + retried());
        }
    }

    @Benchmark
    public void jato(JatoPeer.Incrementer t) {
        t.stm.run(t.body);
        t.committed++;
    }

    @Benchmark
    public void jatoCounter(CounterBenchmark.StmAdder a) {
        a.stm.run(a.body);
    }

    @Benchmark
    public void scalaStm(ScalaStmPeer.Incrementer t) {
        STM.atomic(t.body);
        t.committed++;
    }

    @Benchmark
    public void multiverse(MultiversePeer.Incrementer t) {
        StmUtils.atomic(t.body);
        t.committed++;
    }

    @Benchmark
    public void multiverseCommute(MultiversePeer.Incrementer t) {
        StmUtils.atomic(t.commute);
        t.committed++;
    }

    @Benchmark
    public void clojure(ClojurePeer.Incrementer t) {
        ClojurePeer.dosync(t.body);
        t.committed++;
    }

    @Benchmark
    public void clojureCommute(ClojurePeer.Incrementer t) {
        ClojurePeer.dosync(t.commute);
        t.committed++;
    }

    @Benchmark
    public void mvstore(MvStorePeer.Incrementer t) {
        t.retries += t.store.run(t.body);
        t.committed++;
    }

    @Benchmark
    public void globalLock(GlobalLockPeer.Counter c, GlobalLockPeer.Incrementer t) {
        final ReentrantLock lock = c.lock;
        lock.lock();
        try {
            c.counter[0]++;
        } finally {
            lock.unlock();
        }
        t.committed++;
    }
}
