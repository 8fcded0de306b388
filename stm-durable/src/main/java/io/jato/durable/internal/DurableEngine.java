package io.jato.durable.internal;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.durable.Codec;
import io.jato.durable.CorruptFileException;
import io.jato.durable.RecoveryReport;
import io.jato.stm.Stm;
import io.jato.stm.TxnLocal;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Scratch;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The machinery behind one {@code DurableStore}: its maps, the logger, the checkpointer and the
 * commit participant that connects transactions to the log. Not thread-confined; built and
 * recovered by {@link #open} before any transaction can reach it.
 */
public final class DurableEngine {
    final Stm stm;
    final TxParticipant participant = new LogParticipant();
    private final Path dir;
    private final Map<Integer, Table> maps = new LinkedHashMap<>();
    private final Map<String, Table> byName = new LinkedHashMap<>();
    private final TxnLocal<ThreadLog> local = TxnLocal.withInitial(() -> null);
    private final Scratch<ThreadLog> kind;
    private final int ringBytes;
    private LogWriter writer;
    private Checkpointer checkpointer;
    private RecoveryReport report;
    private FileChannel lockChannel;
    private FileLock lock;

    /** Commit hooks of the stripe entries: the record is prepared under the locks, handed over after publication. */
    private static final class LogParticipant implements TxParticipant {
        @Override
        public boolean check(TxnContext txn, Entry entry) {
            ((ThreadLog) entry.pendingRef()).prepare(txn);
            return true;
        }

        @Override
        public void install(TxnContext txn, Entry entry, long commitTimestamp) {
            // Nothing in place: the stripe's new version (given by the protocol) is the whole
            // write. The rows this commit stored or removed change their handles' liveness here,
            // with the stripes locked.
            ((ThreadLog) entry.pendingRef()).installed();
        }

        @Override
        public void cleanup(TxnContext txn, Entry entry, boolean committed) {
            ((ThreadLog) entry.pendingRef()).finish(committed);
        }
    }

    public DurableEngine(Stm stm, Path dir, int ringBytes) {
        this.stm = stm;
        this.dir = dir;
        this.ringBytes = ringBytes;
        this.kind = Scratch.of(() -> new ThreadLog(writer, this.ringBytes));
    }

    /** Declares a map of object keys, backed by a new {@code TxHashMap} (before {@link #open}). */
    public Table declare(String name, Codec<?> keys, Codec<?> values) {
        return declare(name, keys, values, new Backend.Hash(new TxHashMap<>(stm)));
    }

    /** Declares a map of object keys over {@code map}, which must be empty (before {@link #open}). */
    public Table declare(String name, TxHashMap<?, ?> map, Codec<?> keys, Codec<?> values) {
        return declare(name, keys, values, new Backend.Hash(map));
    }

    /** Declares a long-keyed map over {@code map}, which must be empty (before {@link #open}). */
    public Table declareLong(String name, TxLongHashMap<?> map, Codec<?> values) {
        return declare(name, null, values, new Backend.LongHash(map));
    }

    /** Declares a sorted long-keyed map over {@code map}, which must be empty (before {@link #open}). */
    public Table declareLong(String name, TxLongSortedMap<?> map, Codec<?> values) {
        return declare(name, null, values, new Backend.LongSorted(map));
    }

    private Table declare(String name, Codec<?> keys, Codec<?> values, Backend backend) {
        if (byName.containsKey(name)) {
            throw new IllegalArgumentException("durable map '" + name + "' is declared twice");
        }
        if (backend.size() != 0) {
            throw new IllegalArgumentException("durable map '" + name + "': its " + backend.kind() + " holds "
                    + backend.size() + " keys; a durable map starts empty and is filled by recovery and logged writes");
        }
        for (Table t : maps.values()) {
            if (t.txMap() == backend.map()) {
                throw new IllegalArgumentException("durable maps '" + t.name + "' and '" + name + "' are one "
                        + backend.kind() + "; declare each map once");
            }
        }
        Table m = new Table(this, name, keys, values, backend);
        Table clash = maps.get(m.id);
        if (clash != null) {
            throw new IllegalArgumentException("durable maps '" + clash.name + "' and '" + name
                    + "' have the same id (CRC32C of the name); rename one");
        }
        maps.put(m.id, m);
        byName.put(name, m);
        return m;
    }

    /** Locks the directory, recovers the maps and starts the logger (and, if asked, the checkpointer). */
    public RecoveryReport open(long epochMillis, long segmentBytes, long logQuotaBytes, String storeName) throws IOException {
        Files.createDirectories(dir);
        lockChannel = FileChannel.open(dir.resolve(Files2.LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            lock = lockChannel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            lockChannel.close();
            throw new IllegalStateException("durable store " + dir + " is open in another store or process");
        }
        try {
            long storeId = storeId();
            Recovery r = new Recovery(dir, storeId, Collections.unmodifiableMap(maps));
            report = r.run();
            writer = new LogWriter(dir, storeId, epochMillis, segmentBytes, new AtomicLong(logQuotaBytes));
            writer.start(r.nextSegment, r.cutLow, r.nextEpoch, storeName);
            checkpointer = new Checkpointer(dir, storeId, writer, stm.concurrencyControl(), maps.values());
            return report;
        } catch (IOException | RuntimeException | Error e) {
            releaseLock();
            throw e;
        }
    }

    private long storeId() throws IOException {
        Path f = dir.resolve(Files2.STORE_FILE);
        if (Files.exists(f)) {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
            return LogFormat.checkHeader(f, b, LogFormat.STORE_MAGIC, 0).storeId();
        }
        try (var ds = Files.newDirectoryStream(dir, "*.j*")) {
            for (Path p : ds) {
                throw new CorruptFileException(f, 0, "missing, but the directory holds " + p.getFileName()
                        + ": these files belong to a store whose identity is lost");
            }
        }
        long id;
        do {
            id = new SecureRandom().nextLong();
        } while (id == 0);
        Path tmp = dir.resolve(Files2.STORE_FILE + ".tmp");
        ByteBuffer h = LogFormat.header(LogFormat.STORE_MAGIC, id, 0, 0, 0);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            while (h.hasRemaining()) {
                ch.write(h);
            }
            ch.force(true);
        }
        Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
        Files2.syncDir(dir);
        return id;
    }

    ThreadLog threadLog(TxnContext tc) {
        ThreadLog log = local.get(tc);
        if (log == null) {
            log = tc.borrow(kind);
            local.set(tc, log);
        }
        return log;
    }

    public Table table(String name) {
        Table m = byName.get(name);
        if (m == null) {
            throw new IllegalArgumentException("no durable map '" + name + "' is declared; declared: " + byName.keySet());
        }
        return m;
    }

    public LogWriter writer() {
        return writer;
    }

    public RecoveryReport report() {
        return report;
    }

    /** Puts the rows of a bulk load under watch, then checkpoints; see {@code DurableStore.adoptLoaded}. */
    public Path adoptLoaded() {
        for (Table t : maps.values()) {
            t.adoptLoaded();
        }
        return checkpoint();
    }

    public Path checkpoint() {
        try {
            return checkpointer.checkpoint();
        } catch (IOException e) {
            throw new UncheckedIOException("checkpoint of " + dir + " failed", e);
        }
    }

    /** Stops the logger after a last round (everything committed so far durable) and unlocks the directory. */
    public void close() {
        try {
            writer.close();
        } finally {
            releaseLock();
        }
    }

    private void releaseLock() {
        try {
            if (lock != null) {
                lock.release();
            }
            lockChannel.close();
        } catch (IOException ignored) {
            // Closing the channel releases the lock in any case.
        }
    }
}
