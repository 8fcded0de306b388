package io.jato.jmh;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;
import scala.concurrent.stm.Ref.View;
import scala.concurrent.stm.japi.STM;

import java.util.Map;

/**
 * ScalaSTM's states for the peer comparison, written with its Java API as its documentation
 * recommends for Java users: values are {@code Ref.View}s made by {@link STM#newRef}, and a
 * transaction is a {@link Runnable} run by {@link STM#atomic(Runnable)}; inside it
 * {@code View.get()} and {@code View.set(v)} join the running transaction. ScalaSTM retries the
 * body itself after a conflict.
 *
 * <p>Allocation forced by the API: {@code STM.atomic(Runnable)} wraps the runnable in a Scala
 * closure on every call, and a {@code Ref.View<Long>} takes and returns a boxed {@code Long}, so a
 * written value outside the pre-boxed range is boxed ({@link PeerCounterBenchmark},
 * {@link PeerReadWrite16Benchmark}; {@link PeerTransferBenchmark} writes pre-boxed balances).
 * {@code STM.increment(ref, 1L)} is not used for the counter: it allocates a closure more than
 * {@code get} and {@code set}, and reads and writes the same way.
 *
 * <p>The map workload ({@link PeerMapBenchmark}) uses ScalaSTM's transactional map through the
 * {@code java.util.Map} that {@link STM#newMap()} returns (a {@code TMap}'s view): inside
 * {@code STM.atomic} its {@code get}, {@code put} and {@code remove} join the transaction; outside
 * one, each is a transaction of its own (the load and the checks).
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar 'Peer.*Benchmark\.scalaStm' -prof gc
 * </pre>
 */
public final class ScalaStmPeer {
    private ScalaStmPeer() {
    }

    @SuppressWarnings("unchecked")
    private static View<Long>[] refs(Long[] initial) {
        View<Long>[] refs = (View<Long>[]) new View<?>[initial.length];
        for (int i = 0; i < refs.length; i++) {
            refs[i] = STM.newRef(initial[i]);
        }
        return refs;
    }

    private static long sum(View<Long>[] refs) {
        long sum = 0;
        for (View<Long> r : refs) {
            sum += r.get();
        }
        return sum;
    }

    @State(Scope.Benchmark)
    public static class Counter extends PeerCounterBenchmark.CounterBase {
        View<Long> counter;

        @Override
        void load() {
            counter = STM.newRef(0L);
        }

        @Override
        String system() {
            return "scalaStm";
        }

        @Override
        long value() {
            return counter.get();
        }
    }

    @State(Scope.Thread)
    public static class Incrementer extends Peers.Worker {
        Runnable body;

        @Setup(Level.Trial)
        public void init(Counter shared) {
            shared.tally.add(this);
            View<Long> counter = shared.counter;
            body = () -> counter.set(counter.get() + 1);
        }
    }

    @State(Scope.Benchmark)
    public static class Accounts extends PeerTransferBenchmark.AccountsBase {
        View<Long>[] accounts;

        @Override
        void load() {
            accounts = refs(Data.filled(entries, Data.INITIAL_BALANCE));
        }

        @Override
        String system() {
            return "scalaStm";
        }

        @Override
        long sum() {
            return ScalaStmPeer.sum(accounts);
        }

        @Override
        boolean modular() {
            return true;
        }
    }

    @State(Scope.Thread)
    public static class Transferrer extends PeerTransferBenchmark.TransfersBase {
        View<Long>[] accounts;
        final Runnable body = this::transfer;

        @Setup(Level.Trial)
        public void init(Accounts shared, ThreadParams thread) {
            initPairs(shared, thread);
            accounts = shared.accounts;
        }

        private void transfer() {
            View<Long> a = accounts[from];
            View<Long> b = accounts[to];
            Long x = a.get();
            Long y = b.get();
            a.set(Data.adjust(x, -1));
            b.set(Data.adjust(y, 1));
        }
    }

    @State(Scope.Benchmark)
    public static class Values extends PeerReadOnlySumBenchmark.ValuesBase {
        View<Long>[] values;

        @Override
        void load() {
            values = refs(boxed);
        }

        @Override
        String system() {
            return "scalaStm";
        }

        @Override
        long sum() {
            return ScalaStmPeer.sum(values);
        }
    }

    @State(Scope.Thread)
    public static class Summer extends PeerReadOnlySumBenchmark.ReaderBase {
        View<Long>[] values;
        final Runnable body = this::sumAll;

        @Setup(Level.Trial)
        public void init(Values shared) {
            values = shared.values;
        }

        private void sumAll() {
            sum = ScalaStmPeer.sum(values);
        }
    }

    @State(Scope.Benchmark)
    public static class Counters extends PeerReadWrite16Benchmark.CountersBase {
        View<Long>[] counters;

        @Override
        void load() {
            counters = refs(Data.filled(keys, 0L));
        }

        @Override
        String system() {
            return "scalaStm";
        }

        @Override
        long total() {
            return ScalaStmPeer.sum(counters);
        }
    }

    @State(Scope.Thread)
    public static class Ops16 extends PeerReadWrite16Benchmark.OpsBase {
        View<Long>[] counters;
        final Runnable body = this::run16;

        @Setup(Level.Trial)
        public void init(Counters shared, ThreadParams thread) {
            initOps(shared, thread);
            counters = shared.counters;
        }

        private void run16() {
            long s = 0;
            for (int i = 0; i < PeerReadWrite16Benchmark.OPS; i++) {
                int op = op(i);
                View<Long> counter = counters[op >>> 1];
                long x = counter.get();
                s += x;
                if ((op & 1) != 0) {
                    counter.set(x + 1);
                }
            }
            sum = s;
        }
    }

    @State(Scope.Benchmark)
    public static class Entries extends PeerMapBenchmark.MapBase {
        Map<Long, Long> map;

        @Override
        void load() {
            map = STM.newMap();
            for (int i = 0; i < keys; i++) {
                map.put(loadedKeys[i], loadedValues[i]);
            }
        }

        @Override
        String system() {
            return "scalaStm";
        }

        @Override
        Long[] values() {
            return each(k -> map.get(space[k]));
        }

        @Override
        long size() {
            return map.size();
        }
    }

    /** {@code get}, {@code put} and {@code remove} on the map view, inside {@code STM.atomic}. */
    @State(Scope.Thread)
    public static class MapOps extends PeerMapBenchmark.OpsBase {
        Map<Long, Long> map;
        final Runnable body = () -> transact(map);

        @Setup(Level.Trial)
        public void init(Entries shared, ThreadParams thread) {
            initOps(shared, thread);
            map = shared.map;
        }
    }
}
