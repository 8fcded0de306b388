package io.jato.jmh;

import io.jato.stm.Stm;

import org.multiverse.api.StmUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;
import scala.concurrent.stm.japi.STM;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A 16-operation transaction over {@code keys} (10 000) counters, on Jato and on the JVM's other
 * STMs ({@code docs/peers.md}): each operation reads one counter and, with probability
 * {@code writePercent}% (50), writes it back plus one. Each thread takes its operations, 16
 * consecutive ones per transaction, from its own pre-generated sequence (keys uniform, write
 * decisions drawn with them), the same for every system; a retried attempt replays the same 16.
 *
 * <ul>
 *   <li>{@code jato}: a {@code TxLong[]}, {@code get} and {@code set} in {@link Stm#run}.</li>
 *   <li>{@code scalaStm}: a {@code Ref.View<Long>[]}, {@code get} and {@code set} in
 *       {@link STM#atomic(Runnable)}.</li>
 *   <li>{@code multiverse}: a {@code TxnLong[]}, {@code get(txn)} and {@code set(txn, v)} in
 *       {@link StmUtils#atomic(TxnVoidCallable)}.</li>
 *   <li>{@code clojure}: a {@code Ref[]}, {@code deref} and {@code set} ({@code ref-set}) in
 *       {@code LockingTransaction.runInTransaction}. A counter only read is not validated at commit
 *       (Clojure's refs give snapshot isolation; {@code ensure} would protect it).</li>
 *   <li>{@code mvstore}: one {@code TransactionMap<Long, Long>}: a read is {@code get}, a read that
 *       will be written is {@code lock} then {@code put}, in one MVStore transaction, retried after a
 *       write conflict ({@link MvStoreMap}; READ COMMITTED, a plain read is not validated either).</li>
 *   <li>{@code globalLock}: a {@code long[]} under one {@link ReentrantLock}.</li>
 * </ul>
 * Counters count without bound, so the peers whose references hold objects (ScalaSTM, Clojure,
 * MVStore) box each value written ({@code Long.valueOf}, 16 B above 127): their API takes no
 * primitive. Jato, Multiverse and the baseline keep plain longs. Each system's states, and what
 * each allocates per op, are in its class ({@link JatoPeer}, {@link ScalaStmPeer},
 * {@link MultiversePeer}, {@link ClojurePeer}, {@link MvStorePeer}, {@link GlobalLockPeer}).
 *
 * <p>Each thread adds up the writes of the transactions it committed; after each trial the sum of all
 * counters (loaded as 0) must equal that total. {@code jato} also checks no lock is left.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar PeerReadWrite16Benchmark -prof gc
 * java -jar jmh/target/benchmarks.jar PeerReadWrite16Benchmark -prof gc -t 2
 * java -jar jmh/target/benchmarks.jar PeerReadWrite16Benchmark -p writePercent=0,10,50 -t 2
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PeerReadWrite16Benchmark {
    static final String NAME = "PeerReadWrite16Benchmark";
    static final int OPS = 16;
    private static final long OP_SEED = 0x5EED_0016L;

    /** Base of a system's counters, checked against the increments its threads committed. */
    @State(Scope.Benchmark)
    public abstract static class CountersBase extends Peers.Shared {
        @Param("10000")
        public int keys;
        @Param("50")
        public int writePercent;

        /** @return the sum of the committed counters (loaded as 0), read while no transaction runs */
        abstract long total();

        @Override
        void check(String phase) {
            long total = total();
            long committed = tally.committed();
            Peers.check(total == committed, NAME, system(), phase, "counters sum to " + total + ", "
                    + committed + " committed increments" + retried());
        }
    }

    /**
     * Base of a thread's state: its operation sequence and cursor, and the {@link #sum} of the values
     * the body of the current transaction read. Counts the writes of each committed transaction into
     * {@link #committed}.
     */
    public abstract static class OpsBase extends Peers.Worker {
        int[] ops;
        /** The number of writes among each transaction's 16 operations, by {@code cursor / OPS}. */
        int[] writes;
        int cursor;
        long sum;

        void initOps(CountersBase shared, ThreadParams thread) {
            shared.tally.add(this);
            ops = Data.readWriteSequence(shared.keys, shared.writePercent, OP_SEED, thread.getThreadIndex());
            writes = new int[ops.length / OPS];
            for (int i = 0; i < ops.length; i++) {
                writes[i / OPS] += ops[i] & 1;
            }
        }

        /** @return the current transaction's {@code i}-th operation: {@code key << 1 | write} */
        final int op(int i) {
            return ops[(cursor + i) & Data.SEQUENCE_MASK];
        }

        /** After a commit: counts its writes and moves to the next 16 operations. */
        long afterCommit() {
            int c = cursor;
            committed += writes[c / OPS];
            cursor = (c + OPS) & Data.SEQUENCE_MASK;
            return sum;
        }
    }

    @Benchmark
    public long jato(JatoPeer.Ops16 t) {
        t.stm.run(t.body);
        return t.afterCommit();
    }

    @Benchmark
    public long scalaStm(ScalaStmPeer.Ops16 t) {
        STM.atomic(t.body);
        return t.afterCommit();
    }

    @Benchmark
    public long multiverse(MultiversePeer.Ops16 t) {
        StmUtils.atomic(t.body);
        return t.afterCommit();
    }

    @Benchmark
    public long clojure(ClojurePeer.Ops16 t) {
        ClojurePeer.dosync(t.body);
        return t.afterCommit();
    }

    @Benchmark
    public long mvstore(MvStorePeer.Ops16 t) {
        t.retries += t.store.run(t.body);
        return t.afterCommit();
    }

    @Benchmark
    public long globalLock(GlobalLockPeer.Counters s, GlobalLockPeer.Ops16 t) {
        final ReentrantLock lock = s.lock;
        lock.lock();
        try {
            t.run16(s.counters);
        } finally {
            lock.unlock();
        }
        return t.afterCommit();
    }
}
