package io.jato.jmh;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

import java.util.Arrays;
import java.util.HashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The global-lock baseline of the peer comparison: plain {@code long} fields and arrays, and every
 * transaction the same work done while holding one {@link ReentrantLock} per benchmark (readers
 * included). It is correct and serial: what an STM has to beat once threads contend, and the
 * floor of its cost when they do not. Nothing allocates, except the map workload's
 * {@link HashMap} (a node per insert).
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar 'Peer.*Benchmark\.globalLock' -prof gc
 * </pre>
 */
public final class GlobalLockPeer {
    private GlobalLockPeer() {
    }

    /** @return the sum of {@code values}, read under {@code lock} */
    static long sum(ReentrantLock lock, long[] values) {
        lock.lock();
        try {
            long sum = 0;
            for (long v : values) {
                sum += v;
            }
            return sum;
        } finally {
            lock.unlock();
        }
    }

    @State(Scope.Benchmark)
    public static class Counter extends PeerCounterBenchmark.CounterBase {
        final ReentrantLock lock = new ReentrantLock();
        final long[] counter = new long[1];

        @Override
        void load() {
        }

        @Override
        String system() {
            return "globalLock";
        }

        @Override
        long value() {
            return sum(lock, counter);
        }
    }

    @State(Scope.Thread)
    public static class Incrementer extends Peers.Worker {
        @Setup(Level.Trial)
        public void init(Counter shared) {
            shared.tally.add(this);
        }
    }

    @State(Scope.Benchmark)
    public static class Accounts extends PeerTransferBenchmark.AccountsBase {
        final ReentrantLock lock = new ReentrantLock();
        long[] accounts;

        @Override
        void load() {
            accounts = new long[entries];
            Arrays.fill(accounts, Data.INITIAL_BALANCE);
        }

        @Override
        String system() {
            return "globalLock";
        }

        @Override
        long sum() {
            return GlobalLockPeer.sum(lock, accounts);
        }
    }

    @State(Scope.Thread)
    public static class Transferrer extends PeerTransferBenchmark.TransfersBase {
        @Setup(Level.Trial)
        public void init(Accounts shared, ThreadParams thread) {
            initPairs(shared, thread);
        }
    }

    @State(Scope.Benchmark)
    public static class Values extends PeerReadOnlySumBenchmark.ValuesBase {
        final ReentrantLock lock = new ReentrantLock();
        long[] values;

        @Override
        void load() {
            values = new long[boxed.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = boxed[i];
            }
        }

        @Override
        String system() {
            return "globalLock";
        }

        @Override
        long sum() {
            return GlobalLockPeer.sum(lock, values);
        }
    }

    @State(Scope.Thread)
    public static class Summer extends PeerReadOnlySumBenchmark.ReaderBase {
    }

    @State(Scope.Benchmark)
    public static class Counters extends PeerReadWrite16Benchmark.CountersBase {
        final ReentrantLock lock = new ReentrantLock();
        long[] counters;

        @Override
        void load() {
            counters = new long[keys];
        }

        @Override
        String system() {
            return "globalLock";
        }

        @Override
        long total() {
            return sum(lock, counters);
        }
    }

    @State(Scope.Thread)
    public static class Ops16 extends PeerReadWrite16Benchmark.OpsBase {
        @Setup(Level.Trial)
        public void init(Counters shared, ThreadParams thread) {
            initOps(shared, thread);
        }

        /** The 16 operations on {@code counters}; the caller holds the lock. */
        void run16(long[] counters) {
            long s = 0;
            for (int i = 0; i < PeerReadWrite16Benchmark.OPS; i++) {
                int op = op(i);
                long x = counters[op >>> 1];
                s += x;
                if ((op & 1) != 0) {
                    counters[op >>> 1] = x + 1;
                }
            }
            sum = s;
        }
    }

    @State(Scope.Benchmark)
    public static class Entries extends PeerMapBenchmark.MapBase {
        final ReentrantLock lock = new ReentrantLock();
        HashMap<Long, Long> map;

        @Override
        void load() {
            map = new HashMap<>(2 * space.length);
            for (int i = 0; i < keys; i++) {
                map.put(loadedKeys[i], loadedValues[i]);
            }
        }

        @Override
        String system() {
            return "globalLock";
        }

        @Override
        Long[] values() {
            lock.lock();
            try {
                return each(k -> map.get(space[k]));
            } finally {
                lock.unlock();
            }
        }

        @Override
        long size() {
            lock.lock();
            try {
                return map.size();
            } finally {
                lock.unlock();
            }
        }
    }

    /** {@code transact(map)}, the shared body of the {@code java.util.Map}s, with the lock held. */
    @State(Scope.Thread)
    public static class MapOps extends PeerMapBenchmark.OpsBase {
        @Setup(Level.Trial)
        public void init(Entries shared, ThreadParams thread) {
            initOps(shared, thread);
        }
    }
}
