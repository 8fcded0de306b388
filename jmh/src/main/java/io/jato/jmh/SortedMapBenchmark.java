package io.jato.jmh;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxSortedMap;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnFunction;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The sorted maps - {@code kind=long}: {@link TxLongSortedMap} (primitive keys), {@code kind=generic}:
 * {@link TxSortedMap} with {@code Long} keys - against {@link TxHashMap} for point reads and
 * {@link ConcurrentSkipListMap} (the JDK's concurrent sorted map, no transactions) for everything.
 *
 * <ul>
 *   <li>{@code get10*}: one read-only transaction of 10 point reads of random keys of a
 *       100 000-entry map (the skip list: 10 {@code get}s).</li>
 *   <li>{@code scan100*}: one read-only transaction that scans 100 consecutive entries from a random
 *       key, summing the values (the skip list: iterating a {@code subMap}).</li>
 *   <li>{@code insertMix*}: one transaction that appends a key at the end of the thread's own key
 *       region and deletes the oldest key of that region (a queue of 1 000 keys per thread, like
 *       TPC-C's NEW-ORDER table): one insert and one delete per operation. The {@code *2} variants
 *       run two threads on disjoint regions, which shows whether inserts into distinct key regions
 *       scale.</li>
 * </ul>
 *
 * <p>Keys and values of the read benchmarks are boxed once at set-up; the generic insert mix boxes
 * its two keys per operation, which is part of what the primitive map saves. After each trial the
 * sorted maps check their structure and locks ({@code checkQuiescent}) and their size.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar SortedMapBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class SortedMapBenchmark {
    static final int READS = 10;
    static final int SCAN = 100;
    /** Keys per thread in the insert mix. */
    static final int WINDOW = 1_000;
    private static final long KEY_SEED = 0x5EED_0004L;

    /** The keys, boxed once, and the store; shared by every map state. */
    @State(Scope.Benchmark)
    public static class Keys {
        @Param("100000")
        public int entries;
        @Param("occ")
        public String protocol;

        Long[] keys;
        Stm stm;

        @Setup(Level.Trial)
        public void make() {
            keys = Data.keys(entries);
            stm = Stm.builder().protocol(protocol).build();
        }

        @TearDown(Level.Trial)
        public void report() {
            Trials.report("SortedMapBenchmark", "after the trial", stm);
        }
    }

    /** A transactional put or remove of a primitive key (the generic map boxes it). */
    interface KeyWrite {
        Long apply(Txn txn, long key, Long value);
    }

    /** A scan of {@link #SCAN} entries from a key into the cursor's visitor. */
    interface Scan100 {
        void apply(Txn txn, Long from, Cursor c);
    }

    /**
     * The sorted map under test, {@code kind} {@code long} ({@link TxLongSortedMap}) or
     * {@code generic} ({@link TxSortedMap} with {@code Long} keys), seen through functions bound
     * once at set-up (each fork measures one kind, so every call site stays monomorphic).
     */
    @State(Scope.Benchmark)
    public static class Sorted {
        @Param({"long", "generic"})
        public String kind;

        BiFunction<Txn, Long, Long> get;
        Scan100 scan;
        KeyWrite put;
        KeyWrite remove;
        Supplier<String> quiescence;
        IntSupplier size;
        int expectedSize;

        @Setup(Level.Trial)
        public void load(Keys k, BenchmarkParams params) {
            if (kind.equals("long")) {
                TxLongSortedMap<Long> m = new TxLongSortedMap<>(k.stm);
                scan = (t, from, c) -> m.scan(t, from, true, from + SCAN - 1, true, Integer.MAX_VALUE, false,
                        c.longVisitor);
                bind(m::get, m::put, (t, key, v) -> m.remove(t, key), m::checkQuiescent, m.single()::size);
            } else if (kind.equals("generic")) {
                TxSortedMap<Long, Long> m = new TxSortedMap<>(k.stm);
                scan = (t, from, c) -> m.scan(t, from, true, null, true, SCAN, false, c.genericVisitor);
                bind(m::get, m::put, (t, key, v) -> m.remove(t, key), m::checkQuiescent, m.single()::size);
            } else {
                throw new IllegalArgumentException("kind must be long or generic, got " + kind);
            }
            for (int from = 0; from < k.entries; from += 1_000) {
                int start = from;
                k.stm.run(txn -> {
                    for (int i = start; i < Math.min(k.entries, start + 1_000); i++) {
                        put.apply(txn, i, k.keys[i]);
                    }
                });
            }
            expectedSize = k.entries + params.getThreads() * WINDOW;
        }

        private void bind(BiFunction<Txn, Long, Long> get, KeyWrite put, KeyWrite remove, Supplier<String> quiescence,
                          IntSupplier size) {
            this.get = get;
            this.put = put;
            this.remove = remove;
            this.quiescence = quiescence;
            this.size = size;
        }

        @TearDown(Level.Trial)
        public void verify() {
            String problem = quiescence.get();
            int n = size.getAsInt();
            if (problem != null || n != expectedSize) {
                throw new IllegalStateException(kind + " sorted map after the trial: " + (problem != null ? problem
                        : n + " keys, expected " + expectedSize));
            }
        }
    }

    @State(Scope.Benchmark)
    public static class HashMap {
        TxHashMap<Long, Long> map;

        @Setup(Level.Trial)
        public void load(Keys k) {
            map = new TxHashMap<>(k.stm, k.entries);
            for (Long key : k.keys) {
                map.single().put(key, key);
            }
        }
    }

    @State(Scope.Benchmark)
    public static class SkipList {
        ConcurrentSkipListMap<Long, Long> map;

        @Setup(Level.Trial)
        public void load(Keys k) {
            map = new ConcurrentSkipListMap<>();
            for (Long key : k.keys) {
                map.put(key, key);
            }
        }
    }

    /** One thread's random keys, its insert-mix region and its sum. */
    @State(Scope.Thread)
    public static class Cursor {
        Long[] sequence;
        int cursor;
        long sum;
        /** The thread's insert-mix region: keys {@code base + i}; {@code [head, tail)} are present. */
        long head;
        long tail;
        final TxLongSortedMap.Visitor<Long> longVisitor = (k, v) -> {
            sum += v;
            return true;
        };
        final TxSortedMap.Visitor<Long, Long> genericVisitor = (k, v) -> {
            sum += v;
            return true;
        };

        @Setup(Level.Trial)
        public void init(Keys k, ThreadParams thread) {
            // Scan starts are drawn like point keys, but leave room for a whole scan.
            Long[] starts = new Long[k.entries - SCAN];
            System.arraycopy(k.keys, 0, starts, 0, starts.length);
            sequence = Data.randomSequence(starts, KEY_SEED, thread.getThreadIndex());
            head = (long) (thread.getThreadIndex() + 1) << 40;
            tail = head + WINDOW;
        }

        void move(int step) {
            cursor = (cursor + step) & Data.SEQUENCE_MASK;
        }

        /** The transaction's reads start here; the cursor moves only after the commit. */
        Long at(int i) {
            return sequence[(cursor + i) & Data.SEQUENCE_MASK];
        }
    }

    /** The transaction bodies over the sorted map, created once per thread. */
    @State(Scope.Thread)
    public static class SortedOps {
        Stm stm;
        Sorted map;
        Cursor c;
        final TxnFunction<Object> get10 = this::get10;
        final TxnFunction<Object> scan100 = this::scan100;
        final TxnRunnable insertMix = this::insertMix;

        @Setup(Level.Trial)
        public void init(Keys k, Sorted m, Cursor cursor) {
            stm = k.stm;
            map = m;
            c = cursor;
            stm.run(txn -> {
                for (long key = c.head; key < c.tail; key++) {
                    m.put.apply(txn, key, k.keys[0]);
                }
            });
        }

        private Object get10(Txn txn) {
            long s = 0;
            for (int i = 0; i < READS; i++) {
                s += map.get.apply(txn, c.at(i));
            }
            c.sum = s;
            return null;
        }

        private Object scan100(Txn txn) {
            c.sum = 0;
            map.scan.apply(txn, c.at(0), c);
            return null;
        }

        private void insertMix(Txn txn) {
            map.put.apply(txn, c.tail, c.sequence[0]);
            map.remove.apply(txn, c.head, null);
        }
    }

    /** The hash-map body (point reads only). */
    @State(Scope.Thread)
    public static class HashOps {
        Stm stm;
        TxHashMap<Long, Long> map;
        Cursor c;
        final TxnFunction<Object> get10 = this::get10;

        @Setup(Level.Trial)
        public void init(Keys k, HashMap m, Cursor cursor) {
            stm = k.stm;
            map = m.map;
            c = cursor;
        }

        private Object get10(Txn txn) {
            long s = 0;
            for (int i = 0; i < READS; i++) {
                s += map.get(txn, c.at(i));
            }
            c.sum = s;
            return null;
        }
    }

    private static long advance(Cursor c, int step) {
        c.move(step);
        return c.sum;
    }

    private static long queueStep(Cursor c) {
        c.tail++;
        c.head++;
        return c.tail;
    }

    @Benchmark
    public long get10Sorted(SortedOps o) {
        o.stm.readOnly(o.get10);
        return advance(o.c, READS);
    }

    @Benchmark
    public long get10Hash(HashOps o) {
        o.stm.readOnly(o.get10);
        return advance(o.c, READS);
    }

    @Benchmark
    public long get10SkipList(SkipList m, Cursor c) {
        final ConcurrentSkipListMap<Long, Long> map = m.map;
        long s = 0;
        for (int i = 0; i < READS; i++) {
            s += map.get(c.at(i));
        }
        c.sum = s;
        return advance(c, READS);
    }

    @Benchmark
    public long scan100Sorted(SortedOps o) {
        o.stm.readOnly(o.scan100);
        return advance(o.c, 1);
    }

    @Benchmark
    public long scan100SkipList(SkipList m, Cursor c) {
        Long from = c.at(0);
        ConcurrentNavigableMap<Long, Long> sub = m.map.subMap(from, true, from + SCAN - 1, true);
        long s = 0;
        for (Map.Entry<Long, Long> e : sub.entrySet()) {
            s += e.getValue();
        }
        c.sum = s;
        return advance(c, 1);
    }

    @Benchmark
    public long insertMixSorted(SortedOps o) {
        o.stm.run(o.insertMix);
        return queueStep(o.c);
    }

    @Benchmark
    @Threads(2)
    public long insertMixSorted2(SortedOps o) {
        return insertMixSorted(o);
    }

    /** The skip list's queue fills up during the first {@link #WINDOW} operations of the warm-up. */
    @Benchmark
    public long insertMixSkipList(SkipList m, Cursor c) {
        m.map.put(c.tail, c.sequence[0]);
        m.map.remove(c.head);
        return queueStep(c);
    }

    @Benchmark
    @Threads(2)
    public long insertMixSkipList2(SkipList m, Cursor c) {
        return insertMixSkipList(m, c);
    }
}
