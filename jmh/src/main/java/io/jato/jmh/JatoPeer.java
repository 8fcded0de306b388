package io.jato.jmh;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLong;
import io.jato.collections.TxLongSortedMap;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Jato's states for the peer comparison where Jato's own benchmarks have no like-for-like
 * transaction: the peers keep one transactional reference per value, so here Jato keeps one
 * {@link TxLong} per value too (a counter, an array of accounts, an array of counters); and the
 * map workload's two maps ({@link TxHashMap}, {@link TxLongSortedMap}), whose lookup-only
 * transactions are declared read-only. The read-only sum needs none: {@link ReadOnlySumBenchmark}'s states are that already, and the
 * {@code jatoCounter} and {@code jatoMap} variants reuse {@link CounterBenchmark}'s and
 * {@link TransferBenchmark}'s.
 *
 * <p>Every body is created once per thread and reads its inputs from fields; no operation
 * allocates, except what a map allocates to insert a key. After each trial: the benchmark's invariant, no {@code TxLong} left locked, and the
 * store's commit and abort counts printed ({@link Trials}).
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar 'Peer.*Benchmark\.jato' -prof gc
 * </pre>
 */
public final class JatoPeer {
    private JatoPeer() {
    }

    /**
     * @return the sum of the committed values, read while no transaction runs
     * @throws IllegalStateException if one is left locked or otherwise not quiescent
     */
    static long sum(TxLong... values) {
        long sum = 0;
        for (TxLong v : values) {
            String problem = v.checkQuiescent();
            if (problem != null) {
                throw new IllegalStateException(problem);
            }
            sum += v.single().get();
        }
        return sum;
    }

    @State(Scope.Benchmark)
    public static class Counter extends PeerCounterBenchmark.CounterBase {
        @Param("occ")
        public String protocol;

        Stm stm;
        TxLong counter;

        @Override
        void load() {
            stm = Stm.builder().protocol(protocol).build();
            counter = new TxLong(stm, 0);
        }

        @Override
        String system() {
            return "jato";
        }

        @Override
        long value() {
            return JatoPeer.sum(counter);
        }

        @Override
        void check(String phase) {
            super.check(phase);
            long commits = Trials.report(PeerCounterBenchmark.NAME, phase, stm).commits();
            if (commits != value()) {
                throw new IllegalStateException(phase + ": counter is " + value() + " after " + commits + " commits");
            }
        }
    }

    /** {@code counter.addAndGet(txn, 1)}: reads, then writes. */
    @State(Scope.Thread)
    public static class Incrementer extends Peers.Worker {
        Stm stm;
        TxnRunnable body;

        @Setup(Level.Trial)
        public void init(Counter shared) {
            shared.tally.add(this);
            stm = shared.stm;
            TxLong counter = shared.counter;
            body = txn -> counter.addAndGet(txn, 1);
        }
    }

    @State(Scope.Benchmark)
    public static class Accounts extends PeerTransferBenchmark.AccountsBase {
        @Param("occ")
        public String protocol;

        Stm stm;
        TxLong[] accounts;

        @Override
        void load() {
            stm = Stm.builder().protocol(protocol).build();
            accounts = new TxLong[entries];
            for (int i = 0; i < entries; i++) {
                accounts[i] = new TxLong(stm, Data.INITIAL_BALANCE);
            }
        }

        @Override
        String system() {
            return "jato";
        }

        @Override
        long sum() {
            return JatoPeer.sum(accounts);
        }

        @Override
        void check(String phase) {
            super.check(phase);
            Trials.report(PeerTransferBenchmark.NAME, phase, stm);
        }
    }

    /** Two {@code get}, two {@code set}. */
    @State(Scope.Thread)
    public static class Transferrer extends PeerTransferBenchmark.TransfersBase {
        Stm stm;
        TxLong[] accounts;
        final TxnRunnable body = this::transfer;

        @Setup(Level.Trial)
        public void init(Accounts shared, ThreadParams thread) {
            initPairs(shared, thread);
            stm = shared.stm;
            accounts = shared.accounts;
        }

        private void transfer(Txn txn) {
            TxLong a = accounts[from];
            TxLong b = accounts[to];
            long x = a.get(txn);
            long y = b.get(txn);
            a.set(txn, x - 1);
            b.set(txn, y + 1);
        }
    }

    @State(Scope.Benchmark)
    public static class Counters extends PeerReadWrite16Benchmark.CountersBase {
        @Param("occ")
        public String protocol;

        Stm stm;
        TxLong[] counters;

        @Override
        void load() {
            stm = Stm.builder().protocol(protocol).build();
            counters = new TxLong[keys];
            for (int i = 0; i < keys; i++) {
                counters[i] = new TxLong(stm, 0);
            }
        }

        @Override
        String system() {
            return "jato";
        }

        @Override
        long total() {
            return JatoPeer.sum(counters);
        }

        @Override
        void check(String phase) {
            super.check(phase);
            Trials.report(PeerReadWrite16Benchmark.NAME, phase, stm);
        }
    }

    /** Per operation {@code get}, and {@code set(x + 1)} if it writes. */
    @State(Scope.Thread)
    public static class Ops16 extends PeerReadWrite16Benchmark.OpsBase {
        Stm stm;
        TxLong[] counters;
        final TxnRunnable body = this::run16;

        @Setup(Level.Trial)
        public void init(Counters shared, ThreadParams thread) {
            initOps(shared, thread);
            stm = shared.stm;
            counters = shared.counters;
        }

        private void run16(Txn txn) {
            long s = 0;
            for (int i = 0; i < PeerReadWrite16Benchmark.OPS; i++) {
                int op = op(i);
                TxLong counter = counters[op >>> 1];
                long x = counter.get(txn);
                s += x;
                if ((op & 1) != 0) {
                    counter.set(txn, x + 1);
                }
            }
            sum = s;
        }
    }

    /** @throws IllegalStateException with {@code problem} unless it is null (a map's {@code checkQuiescent}) */
    static void quiescent(String problem) {
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
    }

    /**
     * Runs one transaction of the map workload: {@code body} in {@link Stm#run} if it writes, else
     * {@code lookups} in {@link Stm#readOnly}, the declaration Jato's user guide recommends for a
     * transaction that only reads.
     */
    static void transact(Stm stm, boolean writes, TxnRunnable body, TxnFunction<?> lookups) {
        if (writes) {
            stm.run(body);
        } else {
            stm.readOnly(lookups);
        }
    }

    /** What the Jato maps share: the store, its protocol, and its report after the check. */
    @State(Scope.Benchmark)
    public abstract static class JatoEntries extends PeerMapBenchmark.MapBase {
        @Param("occ")
        public String protocol;

        Stm stm;

        @Override
        void check(String phase) {
            super.check(phase);
            Trials.report(PeerMapBenchmark.NAME, phase, stm);
        }
    }

    /** A {@code TxHashMap<Long, Long>} sized for the key space. */
    @State(Scope.Benchmark)
    public static class Entries extends JatoEntries {
        TxHashMap<Long, Long> map;

        @Override
        void load() {
            stm = Stm.builder().protocol(protocol).build();
            map = new TxHashMap<>(stm, space.length);
            TxHashMap.Single<Long, Long> loader = map.single();
            for (int i = 0; i < keys; i++) {
                loader.put(loadedKeys[i], loadedValues[i]);
            }
        }

        @Override
        String system() {
            return "jato";
        }

        @Override
        Long[] values() {
            quiescent(map.checkQuiescent());
            return each(k -> map.single().get(space[k]));
        }

        @Override
        long size() {
            return map.single().size();
        }
    }

    /** {@code get}, {@code put} and {@code remove} with boxed keys. */
    @State(Scope.Thread)
    public static class MapOps extends PeerMapBenchmark.OpsBase {
        Stm stm;
        TxHashMap<Long, Long> map;
        final TxnRunnable body = this::transact;
        final TxnFunction<Object> lookups = txn -> {
            transact(txn);
            return null;
        };

        @Setup(Level.Trial)
        public void init(Entries shared, ThreadParams thread) {
            initOps(shared, thread);
            stm = shared.stm;
            map = shared.map;
        }

        private void transact(Txn txn) {
            final TxHashMap<Long, Long> m = map;
            long s = 0;
            for (int i = 0; i < PeerMapBenchmark.LOOKUPS; i++) {
                Long v = m.get(txn, boxedKey(i));
                s += v == null ? 0 : v;
            }
            sum = s;
            Long value = putValue();
            if (value != null) {
                didInsert = m.put(txn, boxedKey(PeerMapBenchmark.PUT), value) == null;
                didRemove = m.remove(txn, boxedKey(PeerMapBenchmark.REMOVE)) != null;
            }
        }
    }

    /** A {@code TxLongSortedMap<Long>} with the default layout. */
    @State(Scope.Benchmark)
    public static class SortedEntries extends JatoEntries {
        TxLongSortedMap<Long> map;

        @Override
        void load() {
            stm = Stm.builder().protocol(protocol).build();
            map = new TxLongSortedMap<>(stm);
            TxLongSortedMap.Single<Long> loader = map.single();
            for (int i = 0; i < keys; i++) {
                loader.put(loadedKeys[i], loadedValues[i]);
            }
        }

        @Override
        String system() {
            return "jatoSorted";
        }

        @Override
        Long[] values() {
            quiescent(map.checkQuiescent());
            return each(map.single()::get);
        }

        @Override
        long size() {
            return map.single().size();
        }
    }

    /** {@code get}, {@code put} and {@code remove} on the sorted map. */
    @State(Scope.Thread)
    public static class SortedMapOps extends PeerMapBenchmark.OpsBase {
        Stm stm;
        TxLongSortedMap<Long> map;
        final TxnRunnable body = this::transact;
        final TxnFunction<Object> lookups = txn -> {
            transact(txn);
            return null;
        };

        @Setup(Level.Trial)
        public void init(SortedEntries shared, ThreadParams thread) {
            initOps(shared, thread);
            stm = shared.stm;
            map = shared.map;
        }

        private void transact(Txn txn) {
            final TxLongSortedMap<Long> m = map;
            long s = 0;
            for (int i = 0; i < PeerMapBenchmark.LOOKUPS; i++) {
                Long v = m.get(txn, key(i));
                s += v == null ? 0 : v;
            }
            sum = s;
            Long value = putValue();
            if (value != null) {
                didInsert = m.put(txn, key(PeerMapBenchmark.PUT), value) == null;
                didRemove = m.remove(txn, key(PeerMapBenchmark.REMOVE)) != null;
            }
        }
    }
}
