package io.jato.jmh;

import org.multiverse.api.GlobalStmInstance;
import org.multiverse.api.StmUtils;
import org.multiverse.api.Txn;
import org.multiverse.api.TxnExecutor;
import org.multiverse.api.callables.TxnLongCallable;
import org.multiverse.api.callables.TxnVoidCallable;
import org.multiverse.api.references.TxnLong;
import org.multiverse.api.references.TxnRef;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Multiverse's states for the peer comparison, written as its documentation recommends: the global
 * {@code GammaStm}, values made by {@link StmUtils#newTxnLong}, and a transaction a
 * {@link TxnVoidCallable} run by {@link StmUtils#atomic} (its default {@link TxnExecutor}), which
 * passes the transaction to the body; {@code get(txn)} and {@code set(txn, v)} take it explicitly
 * rather than from the thread-local. The read-only sum runs on an executor built with
 * {@code setReadonly(true)} and returns the sum unboxed through a {@link TxnLongCallable}.
 * Multiverse retries the body itself after a conflict.
 *
 * <p>{@code TxnLong} holds a primitive, so nothing here boxes; whatever Multiverse allocates per
 * transaction is its own. The counter has two forms: {@code incrementAndGet(txn, 1)} (reads, then
 * writes) and {@code increment(txn)}, which Multiverse implements as a commuting update.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar 'Peer.*Benchmark\.multiverse' -prof gc
 * </pre>
 */
public final class MultiversePeer {
    private MultiversePeer() {
    }

    private static TxnLong[] refs(int n, long initial) {
        TxnLong[] refs = new TxnLong[n];
        for (int i = 0; i < n; i++) {
            refs[i] = StmUtils.newTxnLong(initial);
        }
        return refs;
    }

    /** @return the sum of the committed values, each read in its own {@code atomicGet} */
    private static long sum(TxnLong[] refs) {
        long sum = 0;
        for (TxnLong r : refs) {
            sum += r.atomicGet();
        }
        return sum;
    }

    @State(Scope.Benchmark)
    public static class Counter extends PeerCounterBenchmark.CounterBase {
        TxnLong counter;

        @Override
        void load() {
            counter = StmUtils.newTxnLong(0);
        }

        @Override
        String system() {
            return "multiverse";
        }

        @Override
        long value() {
            return counter.atomicGet();
        }
    }

    @State(Scope.Thread)
    public static class Incrementer extends Peers.Worker {
        TxnVoidCallable body;
        TxnVoidCallable commute;

        @Setup(Level.Trial)
        public void init(Counter shared) {
            shared.tally.add(this);
            TxnLong counter = shared.counter;
            body = txn -> counter.incrementAndGet(txn, 1);
            commute = counter::increment;
        }
    }

    @State(Scope.Benchmark)
    public static class Accounts extends PeerTransferBenchmark.AccountsBase {
        TxnLong[] accounts;

        @Override
        void load() {
            accounts = refs(entries, Data.INITIAL_BALANCE);
        }

        @Override
        String system() {
            return "multiverse";
        }

        @Override
        long sum() {
            return MultiversePeer.sum(accounts);
        }
    }

    @State(Scope.Thread)
    public static class Transferrer extends PeerTransferBenchmark.TransfersBase {
        TxnLong[] accounts;
        final TxnVoidCallable body = this::transfer;

        @Setup(Level.Trial)
        public void init(Accounts shared, ThreadParams thread) {
            initPairs(shared, thread);
            accounts = shared.accounts;
        }

        private void transfer(Txn txn) {
            TxnLong a = accounts[from];
            TxnLong b = accounts[to];
            long x = a.get(txn);
            long y = b.get(txn);
            a.set(txn, x - 1);
            b.set(txn, y + 1);
        }
    }

    @State(Scope.Benchmark)
    public static class Values extends PeerReadOnlySumBenchmark.ValuesBase {
        final TxnExecutor readOnly = GlobalStmInstance.getGlobalStmInstance().newTxnFactoryBuilder()
                .setReadonly(true).newTxnExecutor();
        TxnLong[] values;

        @Override
        void load() {
            values = new TxnLong[boxed.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = StmUtils.newTxnLong(boxed[i]);
            }
        }

        @Override
        String system() {
            return "multiverse";
        }

        @Override
        long sum() {
            return MultiversePeer.sum(values);
        }
    }

    @State(Scope.Thread)
    public static class Summer extends PeerReadOnlySumBenchmark.ReaderBase {
        TxnExecutor readOnly;
        TxnLongCallable body;

        @Setup(Level.Trial)
        public void init(Values shared) {
            readOnly = shared.readOnly;
            TxnLong[] values = shared.values;
            body = txn -> {
                long s = 0;
                for (TxnLong v : values) {
                    s += v.get(txn);
                }
                return s;
            };
        }
    }

    @State(Scope.Benchmark)
    public static class Counters extends PeerReadWrite16Benchmark.CountersBase {
        TxnLong[] counters;

        @Override
        void load() {
            counters = refs(keys, 0);
        }

        @Override
        String system() {
            return "multiverse";
        }

        @Override
        long total() {
            return MultiversePeer.sum(counters);
        }
    }

    @State(Scope.Thread)
    public static class Ops16 extends PeerReadWrite16Benchmark.OpsBase {
        TxnLong[] counters;
        final TxnVoidCallable body = this::run16;

        @Setup(Level.Trial)
        public void init(Counters shared, ThreadParams thread) {
            initOps(shared, thread);
            counters = shared.counters;
        }

        private void run16(Txn txn) {
            long s = 0;
            for (int i = 0; i < PeerReadWrite16Benchmark.OPS; i++) {
                int op = op(i);
                TxnLong counter = counters[op >>> 1];
                long x = counter.get(txn);
                s += x;
                if ((op & 1) != 0) {
                    counter.set(txn, x + 1);
                }
            }
            sum = s;
        }
    }

    /** Creates a key's ref, holding null (absent), on the key's first put. */
    private static final Function<Long, TxnRef<Long>> NEW_REF = k -> StmUtils.newTxnRef();

    @State(Scope.Benchmark)
    public static class Entries extends PeerMapBenchmark.MapBase {
        final TxnExecutor readOnly = GlobalStmInstance.getGlobalStmInstance().newTxnFactoryBuilder()
                .setReadonly(true).newTxnExecutor();
        ConcurrentHashMap<Long, TxnRef<Long>> refs;

        @Override
        void load() {
            refs = new ConcurrentHashMap<>(2 * space.length);
            for (int i = 0; i < keys; i++) {
                refs.put(loadedKeys[i], StmUtils.newTxnRef(loadedValues[i]));
            }
        }

        @Override
        String system() {
            return "multiverse";
        }

        @Override
        Long[] values() {
            return each(k -> {
                TxnRef<Long> r = refs.get(space[k]);
                return r == null ? null : r.atomicGet();
            });
        }

        /** The refs that hold a value, in one transaction. */
        @Override
        long size() {
            return StmUtils.atomic((TxnLongCallable) txn -> {
                long n = 0;
                for (TxnRef<Long> r : refs.values()) {
                    n += r.get(txn) == null ? 0 : 1;
                }
                return n;
            });
        }
    }

    /** Per lookup {@code get(txn)} of the key's ref (none: absent); {@code getAndSet} to put and to remove. */
    @State(Scope.Thread)
    public static class MapOps extends PeerMapBenchmark.OpsBase {
        TxnExecutor readOnly;
        ConcurrentHashMap<Long, TxnRef<Long>> refs;
        final TxnVoidCallable body = this::transact;

        @Setup(Level.Trial)
        public void init(Entries shared, ThreadParams thread) {
            initOps(shared, thread);
            readOnly = shared.readOnly;
            refs = shared.refs;
        }

        private void transact(Txn txn) {
            final ConcurrentHashMap<Long, TxnRef<Long>> m = refs;
            long s = 0;
            for (int i = 0; i < PeerMapBenchmark.LOOKUPS; i++) {
                TxnRef<Long> r = m.get(boxedKey(i));
                Long v = r == null ? null : r.get(txn);
                s += v == null ? 0 : v;
            }
            sum = s;
            Long value = putValue();
            if (value != null) {
                didInsert = m.computeIfAbsent(boxedKey(PeerMapBenchmark.PUT), NEW_REF).getAndSet(txn, value) == null;
                TxnRef<Long> r = m.get(boxedKey(PeerMapBenchmark.REMOVE));
                didRemove = r != null && r.getAndSet(txn, null) != null;
            }
        }
    }
}
