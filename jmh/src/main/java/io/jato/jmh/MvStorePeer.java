package io.jato.jmh;

import org.h2.mvstore.tx.TransactionMap;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * H2 MVStore's states for the peer comparison: every system's values are the entries of one
 * {@code TransactionMap<Long, Long>} of an in-memory MVStore, and every operation is one MVStore
 * transaction ({@code begin()}, the body, {@code commit()}) run by {@link MvStoreMap#run}, which
 * also holds what MVStore's documentation leaves to its user: a write conflict throws, and the
 * transaction is rolled back and run again.
 *
 * <p>MVStore locks rows rather than validating reads, under READ COMMITTED (the default of
 * {@code begin()}): a value that will be written is read with {@code lock(key)} (which locks the row,
 * then returns its latest committed value, like {@code SELECT ... FOR UPDATE}) and written with
 * {@code put}; a value only read is a {@code get}, neither locked nor checked at commit.
 *
 * <p>Allocation: MVStore allocates per transaction (the {@code Transaction}, the map's view for it,
 * undo-log records, the copy-on-write pages of every write) and its values are objects, so a written
 * value outside the pre-boxed range is boxed ({@link PeerCounterBenchmark},
 * {@link PeerReadWrite16Benchmark}; {@link PeerTransferBenchmark} writes pre-boxed balances).
 *
 * <p>The map workload ({@link PeerMapBenchmark}) is the same {@code TransactionMap} used as a map:
 * {@code get} to look up, {@code put} (which locks the row and returns the value it replaced, null
 * for an insert) and {@code remove} (which returns the value removed) to write; its size is
 * {@code sizeAsLong()} in a transaction.
 *
 * <p>The threads count the conflicts they retried; the end-of-trial line reports the total, and
 * the check also requires no transaction left open.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar 'Peer.*Benchmark\.mvstore' -prof gc
 * </pre>
 */
public final class MvStorePeer {
    static final Long COUNTER_KEY = 0L;
    private static final Long[] COUNTER_KEYS = {COUNTER_KEY};

    private MvStorePeer() {
    }

    /** @return the sum of {@code keys}' values read in one transaction, after checking none is open */
    private static long sum(MvStoreMap store, Long[] keys) {
        String problem = store.checkQuiescent();
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        return store.sum(keys);
    }

    @State(Scope.Benchmark)
    public static class Counter extends PeerCounterBenchmark.CounterBase {
        MvStoreMap store;

        @Override
        void load() {
            store = closeAfterTrial(new MvStoreMap(COUNTER_KEYS, new Long[] {0L}));
        }

        @Override
        String system() {
            return "mvstore";
        }

        @Override
        long value() {
            return sum(store, COUNTER_KEYS);
        }
    }

    /** {@code put(0, lock(0) + 1)}. */
    @State(Scope.Thread)
    public static class Incrementer extends Peers.Worker {
        MvStoreMap store;
        final MvStoreMap.Body body = Incrementer::increment;

        @Setup(Level.Trial)
        public void init(Counter shared) {
            shared.tally.add(this);
            store = shared.store;
        }

        private static void increment(TransactionMap<Long, Long> m) {
            m.put(COUNTER_KEY, m.lock(COUNTER_KEY) + 1);
        }
    }

    @State(Scope.Benchmark)
    public static class Accounts extends PeerTransferBenchmark.AccountsBase {
        MvStoreMap store;

        @Override
        void load() {
            store = closeAfterTrial(new MvStoreMap(keys, Data.filled(entries, Data.INITIAL_BALANCE)));
        }

        @Override
        String system() {
            return "mvstore";
        }

        @Override
        long sum() {
            return MvStorePeer.sum(store, keys);
        }

        @Override
        boolean modular() {
            return true;
        }
    }

    /** {@code lock} both accounts, then {@code put} both. */
    @State(Scope.Thread)
    public static class Transferrer extends PeerTransferBenchmark.TransfersBase {
        MvStoreMap store;
        Long[] keys;
        final MvStoreMap.Body body = this::transfer;

        @Setup(Level.Trial)
        public void init(Accounts shared, ThreadParams thread) {
            initPairs(shared, thread);
            store = shared.store;
            keys = shared.keys;
        }

        private void transfer(TransactionMap<Long, Long> m) {
            Long a = keys[from];
            Long b = keys[to];
            Long x = m.lock(a);
            Long y = m.lock(b);
            m.put(a, Data.adjust(x, -1));
            m.put(b, Data.adjust(y, 1));
        }
    }

    @State(Scope.Benchmark)
    public static class Values extends PeerReadOnlySumBenchmark.ValuesBase {
        MvStoreMap store;

        @Override
        void load() {
            store = closeAfterTrial(new MvStoreMap(keys, boxed));
        }

        @Override
        String system() {
            return "mvstore";
        }

        @Override
        long sum() {
            return MvStorePeer.sum(store, keys);
        }
    }

    /** 100 {@code get}s. */
    @State(Scope.Thread)
    public static class Summer extends PeerReadOnlySumBenchmark.ReaderBase {
        MvStoreMap store;
        Long[] keys;
        final MvStoreMap.Body body = this::sumAll;

        @Setup(Level.Trial)
        public void init(Values shared) {
            store = shared.store;
            keys = shared.keys;
        }

        private void sumAll(TransactionMap<Long, Long> m) {
            long s = 0;
            for (Long k : keys) {
                s += m.get(k);
            }
            sum = s;
        }
    }

    @State(Scope.Benchmark)
    public static class Counters extends PeerReadWrite16Benchmark.CountersBase {
        Long[] boxedKeys;
        MvStoreMap store;

        @Override
        void load() {
            boxedKeys = Data.keys(keys);
            store = closeAfterTrial(new MvStoreMap(boxedKeys, Data.filled(keys, 0L)));
        }

        @Override
        String system() {
            return "mvstore";
        }

        @Override
        long total() {
            return MvStorePeer.sum(store, boxedKeys);
        }
    }

    /** Per operation {@code get}, or {@code lock} and {@code put(x + 1)} if it writes. */
    @State(Scope.Thread)
    public static class Ops16 extends PeerReadWrite16Benchmark.OpsBase {
        MvStoreMap store;
        Long[] keys;
        final MvStoreMap.Body body = this::run16;

        @Setup(Level.Trial)
        public void init(Counters shared, ThreadParams thread) {
            initOps(shared, thread);
            store = shared.store;
            keys = shared.boxedKeys;
        }

        private void run16(TransactionMap<Long, Long> m) {
            long s = 0;
            for (int i = 0; i < PeerReadWrite16Benchmark.OPS; i++) {
                int op = op(i);
                Long key = keys[op >>> 1];
                if ((op & 1) != 0) {
                    long x = m.lock(key);
                    s += x;
                    m.put(key, x + 1);
                } else {
                    s += m.get(key);
                }
            }
            sum = s;
        }
    }

    @State(Scope.Benchmark)
    public static class Entries extends PeerMapBenchmark.MapBase {
        MvStoreMap store;

        @Override
        void load() {
            store = closeAfterTrial(new MvStoreMap(loadedKeys, loadedValues));
        }

        @Override
        String system() {
            return "mvstore";
        }

        @Override
        Long[] values() {
            String problem = store.checkQuiescent();
            if (problem != null) {
                throw new IllegalStateException(problem);
            }
            Long[][] values = new Long[1][];
            store.run(m -> values[0] = each(k -> m.get(space[k])));
            return values[0];
        }

        @Override
        long size() {
            long[] size = new long[1];
            store.run(m -> size[0] = m.sizeAsLong());
            return size[0];
        }
    }

    /** {@code get} per lookup; {@code put} and {@code remove} if it writes. */
    @State(Scope.Thread)
    public static class MapOps extends PeerMapBenchmark.OpsBase {
        MvStoreMap store;
        /** A {@code TransactionMap} is a {@code java.util.Map}: the shared body does the operations. */
        final MvStoreMap.Body body = this::transact;

        @Setup(Level.Trial)
        public void init(Entries shared, ThreadParams thread) {
            initOps(shared, thread);
            store = shared.store;
        }
    }
}
