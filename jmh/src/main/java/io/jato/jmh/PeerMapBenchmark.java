package io.jato.jmh;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.stm.Stm;

import org.multiverse.api.StmUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;
import scala.concurrent.stm.japi.STM;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A map workload on Jato and on the JVM's other STMs ({@code docs/peers.md}), each on its own
 * transactional map: one shared map from {@code long} keys to {@code long} values, loaded with
 * {@code keys} (10 000) entries, the even keys of a key space twice that size. A transaction looks
 * up {@value #LOOKUPS} keys and, with probability {@code writePercent}% (20), also puts one key
 * (insert or replace) and removes another. Puts and removes hit the whole key space uniformly, so
 * the map keeps about {@code keys} entries and about half the lookups find one. Each thread takes
 * its transactions from its own pre-generated sequence (keys, whether it writes, the value it
 * writes), the same for every system; a retried attempt replays the same transaction.
 *
 * <ul>
 *   <li>{@code jato}: a {@link TxHashMap}{@code <Long, Long>} ({@code get}, {@code put},
 *       {@code remove}) in {@link Stm#run}; a transaction that only looks up runs in
 *       {@link Stm#readOnly}, as Jato's user guide recommends. {@code jatoSorted}: the same on a
 *       {@link TxLongSortedMap} (primitive keys).</li>
 *   <li>{@code scalaStm}: the {@code java.util.Map} view of a {@code TMap} ({@link STM#newMap()}),
 *       whose {@code get}, {@code put} and {@code remove} join the transaction of
 *       {@link STM#atomic(Runnable)}.</li>
 *   <li>{@code multiverse}: Multiverse 0.7.0's only transactional map, {@code NaiveTxnHashMap}
 *       ({@code StmUtils.newTxnHashMap()}), throws {@code TodoException} from {@code remove}; so,
 *       as Multiverse's documentation builds structures, a map of {@code TxnRef<Long>}s, one per key
 *       ever written, a null value meaning absent, the refs found in a
 *       {@code ConcurrentHashMap} (created outside the transaction on a key's first put). Lookups
 *       run on a read-only {@code TxnExecutor}.</li>
 *   <li>{@code clojure}: one {@code Ref} holding a {@code PersistentHashMap}, read with
 *       {@code valAt} and written with {@code (ref-set m (-> @m (assoc k v) (dissoc r)))} in
 *       {@code dosync}: how Clojure programs keep a map, so every writing transaction conflicts with
 *       every other on the one ref, while lookups never conflict.</li>
 *   <li>{@code mvstore}: one {@code TransactionMap<Long, Long>}: {@code get}, and {@code put} and
 *       {@code remove} (each locks its row), in one MVStore transaction, retried after a write
 *       conflict ({@link MvStoreMap}).</li>
 *   <li>{@code globalLock}: a {@code HashMap<Long, Long>} under one {@link ReentrantLock}, lookups
 *       included.</li>
 * </ul>
 * Keys and the values written are pre-boxed per thread at set-up, so the benchmark boxes nothing;
 * whatever a map allocates per op is its own. Each system's states are in its class
 * ({@link JatoPeer}, {@link ScalaStmPeer}, {@link MultiversePeer}, {@link ClojurePeer},
 * {@link MvStorePeer}, {@link GlobalLockPeer}).
 *
 * <p>What is checked after set-up and after every trial: each thread counts the inserts (a put
 * that found no value) and removes (a remove that found one) of the transactions it committed;
 * the keys present, read one by one, and the map's own size must both equal the keys loaded plus
 * the inserts minus the removes; and every value present must be one written for its key: a value
 * is {@code key << 20 | tag}, tag 0 for the loaded ones and the writing thread's index + 1 for the
 * others. A map that lost or duplicated an insert or a remove, or put a value under the wrong key,
 * fails the benchmark instead of reporting a score. {@code jato*} also check that no lock is left,
 * {@code mvstore} that no transaction is left open.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar PeerMapBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar PeerMapBenchmark -prof gc -t 2
 * java -jar jmh/target/benchmarks.jar PeerMapBenchmark -p writePercent=0,20,100 -t 2
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PeerMapBenchmark {
    static final String NAME = "PeerMapBenchmark";
    /** Lookups per transaction. */
    static final int LOOKUPS = 4;
    /** A transaction's keys in its thread's sequence: the lookups, then the key put, then the key removed. */
    static final int SLOTS = LOOKUPS + 2;
    static final int PUT = LOOKUPS;
    static final int REMOVE = LOOKUPS + 1;
    /** Transactions in a thread's sequence (a power of two, so the cursor wraps with a mask). */
    static final int TRANSACTIONS = Data.SEQUENCE_LENGTH / 8;
    /** A value is {@code key << TAG_BITS | tag}. */
    static final int TAG_BITS = 20;
    static final long TAG_MASK = (1L << TAG_BITS) - 1;
    private static final long OP_SEED = 0x5EED_00A9L;
    /** The largest {@code keys}: the key space, twice that, fits an {@code int} index and a tagged value a {@code long}. */
    static final int MAX_KEYS = 1 << 24;

    /** @return the value that thread {@code tag - 1} (or the loader, tag 0) writes under {@code key}, boxed */
    static Long value(long key, long tag) {
        return key << TAG_BITS | tag;
    }

    /** @return whether {@code value} can have been written under {@code key} by the loader or one of {@code threads} */
    static boolean written(long key, long value, int threads) {
        return value >>> TAG_BITS == key && (value & TAG_MASK) <= threads;
    }

    /**
     * Base of a system's map, checked against the inserts and removes its threads committed. The key
     * space is {@code 0 .. 2 * keys - 1}; the even keys are loaded.
     */
    @State(Scope.Benchmark)
    public abstract static class MapBase extends Peers.Shared {
        @Param("10000")
        public int keys;
        @Param("20")
        public int writePercent;

        /** The key space, boxed once: {@code space[k] == k}. */
        Long[] space;
        /** The {@code keys} entries loaded: the even keys, each with its tag-0 value. */
        Long[] loadedKeys;
        Long[] loadedValues;

        /** Boxes the keys and the loaded values; then the system's {@code load} puts {@code loadedKeys[i] -> loadedValues[i]}. */
        @Override
        void prepare() {
            if (keys < 1 || keys > MAX_KEYS || writePercent < 0 || writePercent > 100) {
                throw new IllegalArgumentException("keys " + keys + " (1 .. " + MAX_KEYS + "), writePercent "
                        + writePercent + " (0 .. 100)");
            }
            space = Data.keys(2 * keys);
            loadedKeys = new Long[keys];
            loadedValues = new Long[keys];
            for (int i = 0; i < keys; i++) {
                loadedKeys[i] = space[2 * i];
                loadedValues[i] = value(2L * i, 0);
            }
        }

        /**
         * @return the committed value of every key of the space, by key, null where absent; read while
         *         no transaction runs
         * @throws IllegalStateException where the system finds itself not quiescent (a lock left)
         */
        abstract Long[] values();

        /** @return {@code committedValue} of every key of the space, by key: what {@link #values} returns */
        final Long[] each(IntFunction<Long> committedValue) {
            Long[] values = new Long[space.length];
            for (int k = 0; k < values.length; k++) {
                values[k] = committedValue.apply(k);
            }
            return values;
        }

        /** @return the number of entries as the map itself counts them, read while no transaction runs */
        abstract long size();

        @Override
        void check(String phase) {
            Long[] values = values();
            int threads = tally.size();
            long present = 0;
            String wrong = "";
            for (int k = 0; k < values.length; k++) {
                Long v = values[k];
                if (v != null) {
                    present++;
                    if (wrong.isEmpty() && !written(k, v, threads)) {
                        wrong = "; key " + k + " holds " + v + ", not a value written for it";
                    }
                }
            }
            long size = size();
            long inserted = tally.sum(w -> ((OpsBase) w).inserted);
            long removed = tally.sum(w -> ((OpsBase) w).removed);
            long expected = keys + inserted - removed;
            Peers.check(wrong.isEmpty() && present == expected && size == expected, NAME, system(), phase,
                    present + " keys present, size " + size + "; " + keys + " loaded + " + inserted + " inserted - "
                            + removed + " removed = " + expected + " (" + tally.committed()
                            + " transactions committed)" + wrong + retried());
        }
    }

    /**
     * Base of a thread's state: its transactions and cursor, and what the body of the current
     * transaction's last attempt found (the sum of the values it looked up, whether its put inserted
     * and its remove removed). Counts each committed transaction into {@link #committed} and its
     * insert and remove into {@link #inserted} and {@link #removed}.
     */
    public abstract static class OpsBase extends Peers.Worker {
        /** The key space, boxed ({@link MapBase#space}). */
        Long[] space;
        /** {@link #SLOTS} keys per transaction: lookups, put, remove. */
        int[] slots;
        /** Per transaction: the value its put writes, or null if it only looks up. */
        Long[] puts;
        int txn;
        long inserted;
        long removed;
        /** Set by every attempt of the body; the committed attempt's stay. */
        long sum;
        boolean didInsert;
        boolean didRemove;

        void initOps(MapBase shared, ThreadParams thread) {
            shared.tally.add(this);
            space = shared.space;
            SplittableRandom rnd = new SplittableRandom(OP_SEED + thread.getThreadIndex());
            long tag = thread.getThreadIndex() + 1L;
            slots = new int[TRANSACTIONS * SLOTS];
            puts = new Long[TRANSACTIONS];
            for (int t = 0; t < TRANSACTIONS; t++) {
                for (int i = 0; i < SLOTS; i++) {
                    slots[t * SLOTS + i] = rnd.nextInt(space.length);
                }
                if (rnd.nextInt(100) < shared.writePercent) {
                    puts[t] = value(slots[t * SLOTS + PUT], tag);
                }
            }
        }

        /** @return whether the current transaction puts and removes (else it only looks up) */
        final boolean writes() {
            return puts[txn] != null;
        }

        /** @return the current transaction's key in {@code slot} ({@code 0 .. LOOKUPS-1}, {@link #PUT}, {@link #REMOVE}) */
        final int key(int slot) {
            return slots[txn * SLOTS + slot];
        }

        /** @return {@link #key} boxed */
        final Long boxedKey(int slot) {
            return space[slots[txn * SLOTS + slot]];
        }

        /** @return the value the current transaction puts, null if it only looks up */
        final Long putValue() {
            return puts[txn];
        }

        /**
         * The current transaction's operations on a {@link Map}: what ScalaSTM's map view, MVStore's
         * {@code TransactionMap} and the baseline's {@code HashMap} all are, so those three systems
         * share this body (each fork runs one of them). Records what it found, for
         * {@link #afterCommit}.
         */
        void transact(Map<Long, Long> map) {
            long s = 0;
            for (int i = 0; i < LOOKUPS; i++) {
                Long v = map.get(boxedKey(i));
                s += v == null ? 0 : v;
            }
            sum = s;
            Long value = putValue();
            if (value != null) {
                didInsert = map.put(boxedKey(PUT), value) == null;
                didRemove = map.remove(boxedKey(REMOVE)) != null;
            }
        }

        /** After a commit: counts it and its insert and remove, and moves to the next transaction. */
        final long afterCommit() {
            committed++;
            if (puts[txn] != null) {
                inserted += didInsert ? 1 : 0;
                removed += didRemove ? 1 : 0;
            }
            txn = (txn + 1) & (TRANSACTIONS - 1);
            return sum;
        }
    }

    @Benchmark
    public long jato(JatoPeer.MapOps t) {
        JatoPeer.transact(t.stm, t.writes(), t.body, t.lookups);
        return t.afterCommit();
    }

    @Benchmark
    public long jatoSorted(JatoPeer.SortedMapOps t) {
        JatoPeer.transact(t.stm, t.writes(), t.body, t.lookups);
        return t.afterCommit();
    }

    @Benchmark
    public long scalaStm(ScalaStmPeer.MapOps t) {
        STM.atomic(t.body);
        return t.afterCommit();
    }

    @Benchmark
    public long multiverse(MultiversePeer.MapOps t) {
        if (t.writes()) {
            StmUtils.atomic(t.body);
        } else {
            t.readOnly.execute(t.body);
        }
        return t.afterCommit();
    }

    @Benchmark
    public long clojure(ClojurePeer.MapOps t) {
        ClojurePeer.dosync(t.body);
        return t.afterCommit();
    }

    @Benchmark
    public long mvstore(MvStorePeer.MapOps t) {
        t.retries += t.store.run(t.body);
        return t.afterCommit();
    }

    @Benchmark
    public long globalLock(GlobalLockPeer.Entries s, GlobalLockPeer.MapOps t) {
        final ReentrantLock lock = s.lock;
        lock.lock();
        try {
            t.transact(s.map);
        } finally {
            lock.unlock();
        }
        return t.afterCommit();
    }
}
