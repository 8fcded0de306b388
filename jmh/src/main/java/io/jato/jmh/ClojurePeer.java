package io.jato.jmh;

import clojure.java.api.Clojure;
import clojure.lang.IFn;
import clojure.lang.IPersistentMap;
import clojure.lang.LockingTransaction;
import clojure.lang.PersistentHashMap;
import clojure.lang.Ref;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

import java.util.concurrent.Callable;

/**
 * Clojure's states for the peer comparison: values are {@link Ref}s, and a transaction is a
 * {@link Callable} run by {@link LockingTransaction#runInTransaction}, the Java entry point that
 * Clojure's {@code dosync} expands to. Inside it {@link Ref#deref} is {@code @r} and
 * {@link Ref#set} is {@code ref-set}; {@code (ref-set r (f @r))} reads and writes as {@code alter}
 * does, without the argument list {@code Ref.alter} conses per call. The commuting counter uses
 * {@link Ref#commute} with {@code clojure.core/inc}. Clojure retries the body itself after a
 * conflict.
 *
 * <p>Clojure's refs give snapshot isolation: a ref only read is not validated at commit (Clojure's
 * {@code ensure} would protect it); every benchmark here writes what its invariant depends on.
 *
 * <p>The map workload ({@link PeerMapBenchmark}) keeps the map as Clojure programs do: one
 * {@code Ref} holding a {@link PersistentHashMap}, looked up with {@code valAt} on the value
 * {@code deref} returns, and written with {@code (ref-set m (-> @m (assoc k v) (dissoc r)))}. The
 * whole map is one ref, so every writing transaction conflicts with every other one (Clojure retries
 * all but one) and writers are serial; lookups read one immutable snapshot and never conflict. Each
 * write allocates the changed path of the persistent map.
 *
 * <p>Allocation forced by the API: Clojure creates a {@code LockingTransaction} (and its maps) per
 * outermost transaction, {@code commute} conses its function and arguments, and a {@code Ref}
 * holds objects, so a written value outside the pre-boxed range is boxed
 * ({@link PeerCounterBenchmark}, {@link PeerReadWrite16Benchmark}; {@link PeerTransferBenchmark}
 * writes pre-boxed balances).
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar 'Peer.*Benchmark\.clojure' -prof gc
 * </pre>
 */
public final class ClojurePeer {
    /** {@code clojure.core/inc}, looked up once (this loads {@code clojure.core}). */
    static final IFn INC = Clojure.var("clojure.core", "inc");

    private ClojurePeer() {
    }

    /**
     * Runs {@code body} in a Clojure transaction: {@code (dosync (body))}.
     *
     * @return what the body returned
     */
    static Object dosync(Callable<?> body) {
        try {
            return LockingTransaction.runInTransaction(body);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("a Clojure transaction body threw", e);
        }
    }

    private static Ref[] refs(Long[] initial) {
        Ref[] refs = new Ref[initial.length];
        for (int i = 0; i < refs.length; i++) {
            refs[i] = new Ref(initial[i]);
        }
        return refs;
    }

    /** @return the sum of the committed values, read outside any transaction */
    private static long sum(Ref[] refs) {
        long sum = 0;
        for (Ref r : refs) {
            sum += (Long) r.deref();
        }
        return sum;
    }

    @State(Scope.Benchmark)
    public static class Counter extends PeerCounterBenchmark.CounterBase {
        Ref counter;

        @Override
        void load() {
            counter = new Ref(0L);
        }

        @Override
        String system() {
            return "clojure";
        }

        @Override
        long value() {
            return (Long) counter.deref();
        }
    }

    @State(Scope.Thread)
    public static class Incrementer extends Peers.Worker {
        Callable<Object> body;
        Callable<Object> commute;

        @Setup(Level.Trial)
        public void init(Counter shared) {
            shared.tally.add(this);
            Ref counter = shared.counter;
            body = () -> counter.set((Long) counter.deref() + 1);
            commute = () -> counter.commute(INC, null);
        }
    }

    @State(Scope.Benchmark)
    public static class Accounts extends PeerTransferBenchmark.AccountsBase {
        Ref[] accounts;

        @Override
        void load() {
            accounts = refs(Data.filled(entries, Data.INITIAL_BALANCE));
        }

        @Override
        String system() {
            return "clojure";
        }

        @Override
        long sum() {
            return ClojurePeer.sum(accounts);
        }

        @Override
        boolean modular() {
            return true;
        }
    }

    @State(Scope.Thread)
    public static class Transferrer extends PeerTransferBenchmark.TransfersBase {
        Ref[] accounts;
        final Callable<Object> body = this::transfer;

        @Setup(Level.Trial)
        public void init(Accounts shared, ThreadParams thread) {
            initPairs(shared, thread);
            accounts = shared.accounts;
        }

        private Object transfer() {
            Ref a = accounts[from];
            Ref b = accounts[to];
            Long x = (Long) a.deref();
            Long y = (Long) b.deref();
            a.set(Data.adjust(x, -1));
            return b.set(Data.adjust(y, 1));
        }
    }

    @State(Scope.Benchmark)
    public static class Values extends PeerReadOnlySumBenchmark.ValuesBase {
        Ref[] values;

        @Override
        void load() {
            values = refs(boxed);
        }

        @Override
        String system() {
            return "clojure";
        }

        @Override
        long sum() {
            return ClojurePeer.sum(values);
        }
    }

    /** The values' {@code deref} inside the transaction: the same loop as {@link ClojurePeer#sum}. */
    @State(Scope.Thread)
    public static class Summer extends PeerReadOnlySumBenchmark.ReaderBase {
        Ref[] values;
        final Callable<Object> body = this::sumAll;

        @Setup(Level.Trial)
        public void init(Values shared) {
            values = shared.values;
        }

        private Object sumAll() {
            sum = ClojurePeer.sum(values);
            return null;
        }
    }

    @State(Scope.Benchmark)
    public static class Counters extends PeerReadWrite16Benchmark.CountersBase {
        Ref[] counters;

        @Override
        void load() {
            counters = refs(Data.filled(keys, 0L));
        }

        @Override
        String system() {
            return "clojure";
        }

        @Override
        long total() {
            return ClojurePeer.sum(counters);
        }
    }

    @State(Scope.Thread)
    public static class Ops16 extends PeerReadWrite16Benchmark.OpsBase {
        Ref[] counters;
        final Callable<Object> body = this::run16;

        @Setup(Level.Trial)
        public void init(Counters shared, ThreadParams thread) {
            initOps(shared, thread);
            counters = shared.counters;
        }

        private Object run16() {
            long s = 0;
            for (int i = 0; i < PeerReadWrite16Benchmark.OPS; i++) {
                int op = op(i);
                Ref counter = counters[op >>> 1];
                long x = (Long) counter.deref();
                s += x;
                if ((op & 1) != 0) {
                    counter.set(x + 1);
                }
            }
            sum = s;
            return null;
        }
    }

    @State(Scope.Benchmark)
    public static class Entries extends PeerMapBenchmark.MapBase {
        Ref map;

        @Override
        void load() {
            IPersistentMap m = PersistentHashMap.EMPTY;
            for (int i = 0; i < keys; i++) {
                m = m.assoc(loadedKeys[i], loadedValues[i]);
            }
            map = new Ref(m);
        }

        @Override
        String system() {
            return "clojure";
        }

        @Override
        Long[] values() {
            IPersistentMap m = (IPersistentMap) map.deref();
            return each(k -> (Long) m.valAt(space[k]));
        }

        @Override
        long size() {
            return ((IPersistentMap) map.deref()).count();
        }
    }

    /** {@code valAt} on {@code @m}; {@code (ref-set m (-> @m (assoc k v) (dissoc r)))} if it writes. */
    @State(Scope.Thread)
    public static class MapOps extends PeerMapBenchmark.OpsBase {
        Ref map;
        final Callable<Object> body = this::transact;

        @Setup(Level.Trial)
        public void init(Entries shared, ThreadParams thread) {
            initOps(shared, thread);
            map = shared.map;
        }

        private Object transact() {
            IPersistentMap m = (IPersistentMap) map.deref();
            long s = 0;
            for (int i = 0; i < PeerMapBenchmark.LOOKUPS; i++) {
                Object v = m.valAt(boxedKey(i));
                s += v == null ? 0 : (Long) v;
            }
            sum = s;
            Long value = putValue();
            if (value != null) {
                Long put = boxedKey(PeerMapBenchmark.PUT);
                Long removed = boxedKey(PeerMapBenchmark.REMOVE);
                didInsert = !m.containsKey(put);
                IPersistentMap next = m.assoc(put, value);
                didRemove = next.containsKey(removed);
                map.set(next.without(removed));
            }
            return null;
        }
    }
}
