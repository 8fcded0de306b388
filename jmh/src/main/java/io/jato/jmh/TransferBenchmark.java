package io.jato.jmh;

import io.jato.collections.TxHashMap;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
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
import org.openjdk.jmh.infra.ThreadParams;

import java.util.HashMap;
import java.util.concurrent.TimeUnit;

/**
 * A two-account transfer: read both balances, write both, in one {@link Stm#run} transaction;
 * against the same four calls on a plain {@link HashMap}.
 *
 * <p>Balances are {@code Long}s taken from a pre-boxed cache ({@link Data#adjust}): a transfer moves
 * one unit, modulo {@link Data#BALANCE_MODULUS}, so the values written are never boxed on the
 * measured path and any B/op reported is the map's or the store's own. Each thread takes its
 * (from, to) pairs from its own pre-generated random sequence of distinct pairs, the same for both
 * maps.
 *
 * <p>The STM map is checked after loading and after each trial: no item left locked and the sum
 * of balances (modulo {@link Data#BALANCE_MODULUS}) conserved. The baseline is not thread-safe: with
 * {@code -t 2} its threads race on values (never on structure, since no key is added or removed),
 * which is the cost floor the STM is compared with, not a correct alternative.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar TransferBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar TransferBenchmark -prof gc -t 2
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class TransferBenchmark {
    /** Seeds the threads' pair sequences; {@link PeerTransferBenchmark} draws the same pairs. */
    static final long PAIR_SEED = 0x5EED_0002L;

    /** The store and its accounts, shared by all threads. */
    @State(Scope.Benchmark)
    public static class StmAccounts {
        @Param("occ")
        public String protocol;
        /** {@code Stm.Builder.opacity}: {@code -p opacity=false,true} measures what opacity costs. */
        @Param("false")
        public boolean opacity;
        @Param("100000")
        public int entries;

        Stm stm;
        TxHashMap<Long, Long> accounts;
        Long[] keys;

        @Setup(Level.Trial)
        public void load() {
            stm = Stm.builder().protocol(protocol).opacity(opacity).build();
            accounts = new TxHashMap<>(stm, entries);
            keys = Data.keys(entries);
            TxHashMap.Single<Long, Long> loader = accounts.single();
            for (Long k : keys) {
                loader.put(k, Data.INITIAL_BALANCE);
            }
            check("after set-up");
        }

        @TearDown(Level.Trial)
        public void check() {
            check("after the trial");
        }

        private void check(String phase) {
            String problem = accounts.checkQuiescent();
            if (problem != null) {
                throw new IllegalStateException(phase + ": " + problem);
            }
            long[] sum = new long[1];
            accounts.single().forEach((k, v) -> sum[0] += v);
            long expected = (long) entries * Data.INITIAL_BALANCE;
            if (Math.floorMod(sum[0] - expected, (long) Data.BALANCE_MODULUS) != 0) {
                throw new IllegalStateException(phase + ": the sum of balances modulo "
                        + Data.BALANCE_MODULUS + " was not conserved: " + sum[0] + " vs " + expected);
            }
            Trials.report("TransferBenchmark", phase, stm);
        }
    }

    /** One thread's pairs, cursor and transaction body, created once so no operation allocates them. */
    @State(Scope.Thread)
    public static class StmTransfer {
        Stm stm;
        TxHashMap<Long, Long> accounts;
        Long[] pairs;
        int cursor;
        Long from;
        Long to;
        final TxnRunnable body = this::transferOne;

        @Setup(Level.Trial)
        public void init(StmAccounts shared, ThreadParams thread) {
            stm = shared.stm;
            accounts = shared.accounts;
            pairs = Data.randomPairs(shared.keys, PAIR_SEED, thread.getThreadIndex());
        }

        /** Picks the next pair; outside the transaction, so a retried attempt moves the same pair. */
        void next() {
            int c = cursor;
            from = pairs[c];
            to = pairs[c + 1];
            cursor = (c + 2) & Data.SEQUENCE_MASK;
        }

        private void transferOne(Txn txn) {
            final TxHashMap<Long, Long> m = accounts;
            Long a = m.get(txn, from);
            Long b = m.get(txn, to);
            m.put(txn, from, Data.adjust(a, -1));
            m.put(txn, to, Data.adjust(b, 1));
        }
    }

    /** The baseline accounts, loaded like the STM's. */
    @State(Scope.Benchmark)
    public static class PlainAccounts {
        @Param("100000")
        public int entries;

        HashMap<Long, Long> accounts;
        Long[] keys;

        @Setup(Level.Trial)
        public void load() {
            keys = Data.keys(entries);
            accounts = new HashMap<>(2 * entries);
            for (Long k : keys) {
                accounts.put(k, Data.INITIAL_BALANCE);
            }
        }
    }

    /** One thread's pairs and cursor for the baseline: the same sequence as the STM thread's. */
    @State(Scope.Thread)
    public static class PlainTransfer {
        Long[] pairs;
        int cursor;

        @Setup(Level.Trial)
        public void init(PlainAccounts shared, ThreadParams thread) {
            pairs = Data.randomPairs(shared.keys, PAIR_SEED, thread.getThreadIndex());
        }
    }

    @Benchmark
    public void transfer(StmTransfer t) {
        t.next();
        t.stm.run(t.body);
    }

    @Benchmark
    public Long transferHashMap(PlainAccounts m, PlainTransfer t) {
        final HashMap<Long, Long> accounts = m.accounts;
        final int c = t.cursor;
        final Long from = t.pairs[c];
        final Long to = t.pairs[c + 1];
        t.cursor = (c + 2) & Data.SEQUENCE_MASK;
        Long a = accounts.get(from);
        Long b = accounts.get(to);
        accounts.put(from, Data.adjust(a, -1));
        return accounts.put(to, Data.adjust(b, 1));
    }
}
