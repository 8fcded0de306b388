package io.jato.durable;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.durable.internal.DurableEngine;
import io.jato.durable.internal.Table;
import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Durable maps over a Jato {@link Stm}: their committed writes are logged by a logger thread in
 * epochs (group commit), checkpointed in the background and recovered when the store is opened.
 * See docs/durability.md for the guarantees and the file formats.
 *
 * <p>Guarantees. Recovery restores a prefix of the committed transactions that is closed under
 * dependencies: every transaction acknowledged as durable (its {@link #atomic} returned in
 * {@link DurabilityMode#DURABLE} mode, or an {@link #awaitDurable()} after it returned) is present,
 * and a transaction is present whole or not at all. Only the durable maps are logged: other
 * transactional objects of the same {@code Stm} are not, and a transaction that writes both is
 * durable only in its durable-map writes.
 *
 * <p>One store per directory at a time (a file lock refuses a second, in this or another
 * process). Needs the JVM flags of docs/durability.md ({@link #REQUIRED_JVM_FLAGS}: Agrona's
 * and Chronicle Map's).
 */
public final class DurableStore implements AutoCloseable {
    private final Stm stm;
    private final DurableEngine engine;
    private final DurabilityMode mode;
    private final Thread checkpoints;
    private volatile boolean closed;

    private DurableStore(Builder b, DurableEngine engine) {
        this.stm = b.stm;
        this.engine = engine;
        this.mode = b.mode;
        if (b.checkpointMillis > 0) {
            long period = b.checkpointMillis;
            checkpoints = new Thread(() -> checkpointLoop(period), "jato-checkpoint-" + stm.name());
            checkpoints.setDaemon(true);
            checkpoints.start();
        } else {
            checkpoints = null;
        }
    }

    /** @return a builder of a store in {@code dir} (created if absent) over {@code stm} */
    public static Builder builder(Path dir, Stm stm) {
        return new Builder(dir, stm);
    }

    /** @return the store's {@code Stm} */
    public Stm stm() {
        return stm;
    }

    /** @return the durability mode of {@link #atomic} */
    public DurabilityMode mode() {
        return mode;
    }

    /**
     * @return the declared map {@code name}, typed by the caller
     * @throws IllegalArgumentException if no map of that name was declared
     */
    public <K, V> DurableMap<K, V> map(String name) {
        Table t = engine.table(name);
        if (t.hasLongKeys()) {
            throw new IllegalArgumentException("durable map '" + name + "' has long keys: use longMap(name)");
        }
        return new DurableMap<>(t);
    }

    /**
     * @return the write side of the long-keyed map declared under {@code name}
     * @throws IllegalArgumentException if no long-keyed map of that name is declared
     */
    public <V> DurableLongMap<V> longMap(String name) {
        Table t = engine.table(name);
        if (!t.hasLongKeys()) {
            throw new IllegalArgumentException("durable map '" + name + "' has object keys: use map(name)");
        }
        return new DurableLongMap<>(t);
    }

    /**
     * Runs {@code body} as a transaction of the store's {@code Stm} ({@link Stm#atomic}); in
     * {@link DurabilityMode#DURABLE} mode, returns only once the transaction is on disk.
     *
     * @throws DurabilityException in durable mode, if the log failed before the transaction
     *                             reached the disk (it committed in memory and may be lost)
     */
    public <T> T atomic(TxnFunction<T> body) {
        T result = stm.atomic(body);
        if (mode == DurabilityMode.DURABLE) {
            awaitDurable();
        }
        return result;
    }

    /**
     * Waits until every transaction that committed before this call (on any thread) is on disk.
     *
     * @throws DurabilityException if the log failed first
     */
    public void awaitDurable() {
        engine.writer().awaitDurable(engine.writer().epoch());
    }

    /**
     * Runs {@code body} as a transaction of the store's {@code Stm}, returning once it committed in
     * memory whatever the store's mode, with a future of its result that completes when the
     * transaction is on disk: the durable mode's guarantee without waiting for it on this thread.
     * The future fails with {@link DurabilityException} if the log fails first.
     */
    public <T> CompletableFuture<T> atomicDurableFuture(TxnFunction<T> body) {
        T result = stm.atomic(body);
        return durableFuture().thenApply(epoch -> result);
    }

    /**
     * @return a future that completes (with the durable epoch) once every transaction that committed
     *         before this call is on disk, within an epoch period ({@link Builder#epochMillis});
     *         exceptionally with {@link DurabilityException} if the log fails first
     */
    public CompletableFuture<Long> durableFuture() {
        return engine.writer().durableFuture(engine.writer().epoch());
    }

    /** @return the last epoch on disk (diagnostics) */
    public long durableEpoch() {
        return engine.writer().durable();
    }

    /** @return what opening the store recovered */
    public RecoveryReport recoveryReport() {
        return engine.report();
    }

    /**
     * Makes a bulk load durable: after the application filled the declared maps outside
     * transactions (their non-transactional views, e.g. a parallel loader), puts every loaded
     * record under watch — from now on transactions that write its columns log them — and takes a
     * checkpoint, from which the load survives a crash. Call once the load is complete and before
     * transactions write the loaded maps; until it returns, nothing of the load is durable.
     *
     * @return the checkpoint's metadata file
     * @throws IllegalArgumentException if a loaded record is stored under two keys
     */
    public Path adoptLoaded() {
        return engine.adoptLoaded();
    }

    /**
     * Writes a checkpoint of every durable map while transactions go on, then deletes the log
     * segments and checkpoints it makes obsolete.
     *
     * @return the checkpoint file
     */
    public Path checkpoint() {
        return engine.checkpoint();
    }

    private void checkpointLoop(long period) {
        while (!closed) {
            try {
                Thread.sleep(period);
                if (!closed) {
                    engine.checkpoint();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                // The logger's failure reaches committing threads; a checkpoint that failed for
                // another reason leaves the log as it was, and the next period tries again.
            }
        }
    }

    /**
     * Makes everything committed so far durable, stops the logger and checkpoint threads and
     * unlocks the directory. The {@code Stm} stays usable; durable maps then refuse writes.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (checkpoints != null) {
            checkpoints.interrupt();
            try {
                checkpoints.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        engine.close();
    }

    /**
     * The JVM flags the store needs (Agrona's and Chronicle Map's; docs/durability.md says why),
     * as the {@code java} launcher takes them. {@link Builder#open()} refuses, naming the missing
     * ones, in a JVM without them.
     */
    public static final List<String> REQUIRED_JVM_FLAGS = JvmFlags.REQUIRED;

    /** Declares a store's maps and options, then recovers and opens it. */
    public static final class Builder {
        private final Path dir;
        private final Stm stm;
        private DurabilityMode mode = DurabilityMode.DURABLE;
        private long epochMillis = 10;
        private long checkpointMillis;
        private int logBufferBytes = 1 << 20;
        private long logQuotaBytes = Long.MAX_VALUE;
        private long segmentBytes = 256L << 20;
        private final List<Runnable> declarations = new ArrayList<>();
        private final List<String> names = new ArrayList<>();
        private DurableEngine engine;

        private Builder(Path dir, Stm stm) {
            this.dir = Objects.requireNonNull(dir, "dir");
            this.stm = Objects.requireNonNull(stm, "stm");
        }

        /** When {@link #atomic} returns; default {@link DurabilityMode#DURABLE}. */
        public Builder mode(DurabilityMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** How often the logger closes an epoch when nobody waits for one; default 10 ms. */
        public Builder epochMillis(long millis) {
            if (millis < 1 || millis > 10_000) {
                throw new IllegalArgumentException("epochMillis must be in [1, 10000], was " + millis);
            }
            this.epochMillis = millis;
            return this;
        }

        /** Checkpoint every {@code millis} in a background thread; 0 (default) only on {@link #checkpoint()}. */
        public Builder checkpointMillis(long millis) {
            if (millis < 0) {
                throw new IllegalArgumentException("checkpointMillis must be >= 0, was " + millis);
            }
            this.checkpointMillis = millis;
            return this;
        }

        /**
         * Bytes of each committing thread's log ring (rounded up to a power of two, at least 4096).
         * A transaction whose record is larger than an eighth of it is copied to the logger through
         * a queue instead (an allocation per such transaction). Default 1 MiB.
         */
        public Builder logBufferBytes(int bytes) {
            if (bytes < 4096 || bytes > (1 << 30)) {
                throw new IllegalArgumentException("logBufferBytes must be in [4096, 2^30], was " + bytes);
            }
            this.logBufferBytes = bytes;
            return this;
        }

        /**
         * Starts a new log segment once the current one holds this many bytes (checked once per
         * epoch); default 256 MiB. Recovery reads one segment at a time into the heap, and the log
         * is truncated by whole segments.
         */
        public Builder segmentBytes(long bytes) {
            if (bytes < 4096 || bytes > (1L << 30)) {
                throw new IllegalArgumentException("segmentBytes must be in [4096, 2^30], was " + bytes);
            }
            this.segmentBytes = bytes;
            return this;
        }

        /**
         * Fails the log, as a full disk does, once this store has written more than {@code bytes}
         * of log since it opened. For tests of the disk-full path; default unlimited.
         */
        public Builder logQuotaBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("logQuotaBytes must be >= 0, was " + bytes);
            }
            this.logQuotaBytes = bytes;
            return this;
        }

        /**
         * Declares a durable map. Every map the directory ever logged must be declared before
         * {@link #open()}, under the same name and with codecs that read what was written.
         *
         * @throws IllegalArgumentException if the name is declared twice or is blank
         */
        public <K, V> Builder map(String name, Codec<K> keys, Codec<V> values) {
            Objects.requireNonNull(keys, "keys");
            return declare(name, values, () -> engine.declare(name, keys, values));
        }

        /**
         * Declares a durable map over the application's {@code map}, which must be empty (recovery
         * fills it; {@link DurableStore#map} gives the object to write it through): as
         * {@link #map(String, Codec, Codec)}, for a map the application creates itself.
         */
        public <K, V> Builder map(String name, TxHashMap<K, V> map, Codec<K> keys, Codec<V> values) {
            Objects.requireNonNull(map, "map");
            Objects.requireNonNull(keys, "keys");
            return declare(name, values, () -> engine.declare(name, map, keys, values));
        }

        /**
         * Declares a durable long-keyed map over the application's {@code map}, which must be empty
         * (recovery fills it; {@link DurableStore#longMap} gives the object to write it through).
         * Every map the directory ever logged must be declared before {@link #open()}.
         *
         * @throws IllegalArgumentException if the name is declared twice or is blank (at once), or
         *                                  the map is not empty or declared under another name (at
         *                                  {@link #open()})
         */
        public <V> Builder longMap(String name, TxLongHashMap<V> map, Codec<V> values) {
            Objects.requireNonNull(map, "map");
            return declare(name, values, () -> engine.declareLong(name, map, values));
        }

        /** As {@link #longMap(String, TxLongHashMap, Codec)}, for a sorted map. */
        public <V> Builder longMap(String name, TxLongSortedMap<V> map, Codec<V> values) {
            Objects.requireNonNull(map, "map");
            return declare(name, values, () -> engine.declareLong(name, map, values));
        }

        private Builder declare(String name, Codec<?> values, Runnable declaration) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(values, "values");
            if (name.isBlank()) {
                throw new IllegalArgumentException("a durable map needs a non-blank name");
            }
            if (names.contains(name)) {
                throw new IllegalArgumentException("durable map '" + name + "' is declared twice");
            }
            names.add(name);
            declarations.add(declaration);
            return this;
        }

        /**
         * Recovers the directory's checkpoint and log into the declared maps, then starts logging.
         *
         * @throws CorruptFileException  if a file of the directory is corrupt, truncated or foreign
         * @throws UncheckedIOException  if the directory cannot be read or written
         * @throws IllegalStateException if the directory is open in another store
         */
        public DurableStore open() {
            JvmFlags.check();
            engine = new DurableEngine(stm, dir, logBufferBytes);
            for (Runnable d : declarations) {
                d.run();
            }
            try {
                engine.open(epochMillis, segmentBytes, logQuotaBytes, stm.name());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open durable store " + dir, e);
            }
            return new DurableStore(this, engine);
        }
    }
}
