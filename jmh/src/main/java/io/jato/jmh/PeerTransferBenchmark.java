package io.jato.jmh;

import io.jato.collections.TxLong;
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
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;
import scala.concurrent.stm.japi.STM;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A two-account transfer over {@code entries} accounts (100 000): read both balances, write both, in
 * one transaction, on Jato and on the JVM's other STMs ({@code docs/peers.md}). Each thread takes
 * its (from, to) pairs from its own pre-generated random sequence of distinct pairs, the same
 * sequence as {@link TransferBenchmark}'s and the same for every system.
 *
 * <ul>
 *   <li>{@code jato}: the accounts are a {@code TxLong[]}, like the peers' arrays of references; a
 *       transfer is two {@link TxLong#get} and two {@link TxLong#set} in {@link Stm#run}.
 *       {@code jatoMap}: {@link TransferBenchmark}'s transfer on a {@code TxHashMap<Long, Long>}, its
 *       states reused as they are.</li>
 *   <li>{@code scalaStm}: a {@code Ref.View<Long>[]}, {@code get} and {@code set} in
 *       {@link STM#atomic(Runnable)}.</li>
 *   <li>{@code multiverse}: a {@code TxnLong[]}, {@code get(txn)} and {@code set(txn, v)} in
 *       {@link StmUtils#atomic}.</li>
 *   <li>{@code clojure}: a {@code Ref[]}, {@code (ref-set a (f @a))} for both in {@code dosync}.</li>
 *   <li>{@code mvstore}: one {@code TransactionMap<Long, Long>}; {@code lock} both keys, then
 *       {@code put} both, in one MVStore transaction, retried after a write conflict.</li>
 *   <li>{@code globalLock}: a {@code long[]} under one {@link ReentrantLock}.</li>
 * </ul>
 * The peers whose references hold objects (ScalaSTM, Clojure, MVStore) keep balances as the
 * pre-boxed {@code Long}s of {@link Data#adjust} (modulo {@link Data#BALANCE_MODULUS}), as
 * {@link TransferBenchmark} does, so the benchmark boxes nothing; the others keep plain longs. Each
 * system's states, and what each allocates per op, are in its class ({@link JatoPeer},
 * {@link ScalaStmPeer}, {@link MultiversePeer}, {@link ClojurePeer}, {@link MvStorePeer},
 * {@link GlobalLockPeer}).
 *
 * <p>After each trial the sum of balances must be what was loaded (exactly, or modulo
 * {@link Data#BALANCE_MODULUS} for the pre-boxed ones); {@code jato} also checks no lock is left.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar PeerTransferBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar PeerTransferBenchmark -prof gc -t 2
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PeerTransferBenchmark {
    static final String NAME = "PeerTransferBenchmark";

    /** Base of a system's accounts, checked for a conserved sum of balances. */
    @State(Scope.Benchmark)
    public abstract static class AccountsBase extends Peers.Shared {
        @Param("100000")
        public int entries;

        /** The account keys {@code 0 .. entries-1}, boxed once. */
        Long[] keys;

        /** @return the sum of the committed balances, read while no transaction runs */
        abstract long sum();

        /** @return whether balances are kept modulo {@link Data#BALANCE_MODULUS} (pre-boxed) */
        boolean modular() {
            return false;
        }

        /** Boxes the keys; then the system's {@code load} creates its accounts, each with {@link Data#INITIAL_BALANCE}. */
        @Override
        void prepare() {
            keys = Data.keys(entries);
        }

        @Override
        void check(String phase) {
            long sum = sum();
            long expected = (long) entries * Data.INITIAL_BALANCE;
            boolean ok = modular()
                    ? Math.floorMod(sum - expected, (long) Data.BALANCE_MODULUS) == 0
                    : sum == expected;
            Peers.check(ok, NAME, system(), phase, "sum of balances " + sum + ", loaded " + expected
                    + (modular() ? " (compared modulo " + Data.BALANCE_MODULUS + ")" : "") + retried());
        }
    }

    /**
     * Base of a thread's state: its pairs, drawn as {@link TransferBenchmark}'s, and the pair the
     * next transaction moves (picked outside the transaction, so a retried attempt moves the same).
     */
    public abstract static class TransfersBase extends Peers.Worker {
        int[] pairs;
        int cursor;
        int from;
        int to;

        void initPairs(AccountsBase shared, ThreadParams thread) {
            shared.tally.add(this);
            Long[] boxed = Data.randomPairs(shared.keys, TransferBenchmark.PAIR_SEED, thread.getThreadIndex());
            pairs = new int[boxed.length];
            for (int i = 0; i < boxed.length; i++) {
                pairs[i] = (int) (long) boxed[i];
            }
        }

        void next() {
            int c = cursor;
            from = pairs[c];
            to = pairs[c + 1];
            cursor = (c + 2) & Data.SEQUENCE_MASK;
        }
    }

    @Benchmark
    public void jato(JatoPeer.Transferrer t) {
        t.next();
        t.stm.run(t.body);
    }

    @Benchmark
    public void jatoMap(TransferBenchmark.StmTransfer t) {
        t.next();
        t.stm.run(t.body);
    }

    @Benchmark
    public void scalaStm(ScalaStmPeer.Transferrer t) {
        t.next();
        STM.atomic(t.body);
    }

    @Benchmark
    public void multiverse(MultiversePeer.Transferrer t) {
        t.next();
        StmUtils.atomic(t.body);
    }

    @Benchmark
    public void clojure(ClojurePeer.Transferrer t) {
        t.next();
        ClojurePeer.dosync(t.body);
    }

    @Benchmark
    public void mvstore(MvStorePeer.Transferrer t) {
        t.next();
        t.retries += t.store.run(t.body);
    }

    @Benchmark
    public void globalLock(GlobalLockPeer.Accounts m, GlobalLockPeer.Transferrer t) {
        t.next();
        final long[] accounts = m.accounts;
        final ReentrantLock lock = m.lock;
        lock.lock();
        try {
            long x = accounts[t.from];
            long y = accounts[t.to];
            accounts[t.from] = x - 1;
            accounts[t.to] = y + 1;
        } finally {
            lock.unlock();
        }
    }
}
