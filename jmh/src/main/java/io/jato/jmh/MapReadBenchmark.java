package io.jato.jmh;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongHashMap;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnFunction;

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
 * Ten point reads of random keys in one transaction, against ten {@link HashMap#get} calls.
 *
 * <ul>
 *   <li>{@code readOnly10}: {@link Stm#readOnly} — the declared read-only path (no locks, no commit
 *       timestamp). Goal: 0 B/op.</li>
 *   <li>{@code readOnly10Atomic}: the same body through {@link Stm#atomic}, i.e. a transaction that
 *       happens not to write but was not declared read-only. Under OCC both commit the same way (a
 *       transaction without writes takes no lock and no timestamp); the pair shows whether another
 *       protocol gains from the declaration.</li>
 *   <li>{@code readOnly10LongKeys}: {@code readOnly10} on a {@link TxLongHashMap}, the primitive-key
 *       map with its own index (no boxed key, no {@code ConcurrentHashMap} node per lookup).</li>
 *   <li>{@code readOnly10HashMap}: the baseline, a plain {@link HashMap} with single-threaded
 *       semantics (no locking, no versions).</li>
 * </ul>
 *
 * <p>All maps hold {@code entries} keys {@code 0 .. entries-1}; every value is the key's own
 * {@code Long}. Each thread reads keys from its own pre-generated random sequence (the same for
 * every map), ten consecutive ones per operation; a read sums the values so none can be optimised
 * away.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar MapReadBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class MapReadBenchmark {
    static final int READS = 10;
    private static final long KEY_SEED = 0x5EED_0001L;

    /** The store and its loaded map, shared by all threads. */
    @State(Scope.Benchmark)
    public static class StmMap {
        @Param("occ")
        public String protocol;
        @Param("100000")
        public int entries;

        Stm stm;
        TxHashMap<Long, Long> map;
        Long[] keys;

        @Setup(Level.Trial)
        public void load() {
            stm = Stm.builder().protocol(protocol).build();
            map = new TxHashMap<>(stm, entries);
            keys = Data.keys(entries);
            TxHashMap.Single<Long, Long> loader = map.single();
            for (Long k : keys) {
                loader.put(k, k);
            }
            Trials.report("MapReadBenchmark", "after set-up", stm);
        }

        @TearDown(Level.Trial)
        public void report() {
            Trials.report("MapReadBenchmark", "after the trial", stm);
        }
    }

    /** One thread's keys, cursor and transaction body, created once so no operation allocates them. */
    @State(Scope.Thread)
    public static class StmReader {
        Stm stm;
        TxHashMap<Long, Long> map;
        Long[] sequence;
        int cursor;
        long sum;
        final TxnFunction<Object> body = this::readTen;

        @Setup(Level.Trial)
        public void init(StmMap shared, ThreadParams thread) {
            stm = shared.stm;
            map = shared.map;
            sequence = Data.randomSequence(shared.keys, KEY_SEED, thread.getThreadIndex());
        }

        private Object readTen(Txn txn) {
            // The cursor moves only after the commit, so a retried attempt reads the same keys.
            final Long[] seq = sequence;
            final int c = cursor;
            long s = 0;
            for (int i = 0; i < READS; i++) {
                s += map.get(txn, seq[(c + i) & Data.SEQUENCE_MASK]);
            }
            sum = s;
            return null;
        }

        long advance() {
            cursor = (cursor + READS) & Data.SEQUENCE_MASK;
            return sum;
        }
    }

    /** The same keys and values in a {@link TxLongHashMap}, shared by all threads. */
    @State(Scope.Benchmark)
    public static class StmLongMap {
        @Param("occ")
        public String protocol;
        @Param("100000")
        public int entries;

        Stm stm;
        TxLongHashMap<Long> map;
        Long[] keys;

        @Setup(Level.Trial)
        public void load() {
            stm = Stm.builder().protocol(protocol).build();
            map = new TxLongHashMap<>(stm, entries);
            keys = Data.keys(entries);
            TxLongHashMap.Single<Long> loader = map.single();
            for (Long k : keys) {
                loader.put(k, k);
            }
            Trials.report("MapReadBenchmark", "after set-up", stm);
        }

        @TearDown(Level.Trial)
        public void report() {
            Trials.report("MapReadBenchmark", "after the trial", stm);
        }
    }

    /** One thread's state for {@link StmLongMap}: the same sequence as the boxed map's, unboxed once. */
    @State(Scope.Thread)
    public static class StmLongReader {
        Stm stm;
        TxLongHashMap<Long> map;
        long[] sequence;
        int cursor;
        long sum;
        final TxnFunction<Object> body = this::readTen;

        @Setup(Level.Trial)
        public void init(StmLongMap shared, ThreadParams thread) {
            stm = shared.stm;
            map = shared.map;
            Long[] boxed = Data.randomSequence(shared.keys, KEY_SEED, thread.getThreadIndex());
            sequence = new long[boxed.length];
            for (int i = 0; i < boxed.length; i++) {
                sequence[i] = boxed[i];
            }
        }

        private Object readTen(Txn txn) {
            // The cursor moves only after the commit, so a retried attempt reads the same keys.
            final long[] seq = sequence;
            final int c = cursor;
            long s = 0;
            for (int i = 0; i < READS; i++) {
                s += map.get(txn, seq[(c + i) & Data.SEQUENCE_MASK]);
            }
            sum = s;
            return null;
        }

        long advance() {
            cursor = (cursor + READS) & Data.SEQUENCE_MASK;
            return sum;
        }
    }

    /** The baseline map, loaded with the same keys and values. */
    @State(Scope.Benchmark)
    public static class PlainMap {
        @Param("100000")
        public int entries;

        HashMap<Long, Long> map;
        Long[] keys;

        @Setup(Level.Trial)
        public void load() {
            keys = Data.keys(entries);
            map = new HashMap<>(2 * entries);
            for (Long k : keys) {
                map.put(k, k);
            }
        }
    }

    /** One thread's keys and cursor for the baseline: the same sequence as the STM thread's. */
    @State(Scope.Thread)
    public static class PlainReader {
        Long[] sequence;
        int cursor;

        @Setup(Level.Trial)
        public void init(PlainMap shared, ThreadParams thread) {
            sequence = Data.randomSequence(shared.keys, KEY_SEED, thread.getThreadIndex());
        }
    }

    @Benchmark
    public long readOnly10(StmReader r) {
        r.stm.readOnly(r.body);
        return r.advance();
    }

    @Benchmark
    public long readOnly10Atomic(StmReader r) {
        r.stm.atomic(r.body);
        return r.advance();
    }

    @Benchmark
    public long readOnly10LongKeys(StmLongReader r) {
        r.stm.readOnly(r.body);
        return r.advance();
    }

    @Benchmark
    public long readOnly10HashMap(PlainMap m, PlainReader r) {
        final HashMap<Long, Long> map = m.map;
        final Long[] seq = r.sequence;
        final int c = r.cursor;
        long s = 0;
        for (int i = 0; i < READS; i++) {
            s += map.get(seq[(c + i) & Data.SEQUENCE_MASK]);
        }
        r.cursor = (c + READS) & Data.SEQUENCE_MASK;
        return s;
    }
}
