package io.jato.durable.internal;

import io.jato.stm.spi.ConcurrencyControl;
import org.agrona.ExpandableArrayBuffer;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/*
 * A checkpoint while transactions run (no pause, no consistent snapshot needed):
 *   1. the logger rolls to segment S; every record in earlier segments has an epoch <= M;
 *   2. wait until the open epoch is above M: a transaction of epoch <= M read the epoch before
 *      now, so it has installed its writes or still holds its stripe locks (see 3);
 *   3. for each map, into its Chronicle Map file checkpoint-S-ID.cmap, and for each key: read the
 *      stripe's sequence number under the stripe's lock (taken as a non-transactional write takes
 *      it: no commit of the stripe is then between numbering its writes and installing them), read
 *      the key's value, read the number again, and repeat until the two numbers agree. The entry
 *      carries that number: every write of the key with a higher number comes later, every write
 *      with a lower or equal one is in the value. (The value is not read under the stripe's lock:
 *      the read waits for a commit holding the key's lock, which may wait for the stripe.)
 *   4. wait until the epoch open after the scan is durable: a transaction the scan saw is then
 *      on disk, so recovery never shows part of one that the log lost;
 *   5. close and sync every map file; write the metadata (stripe numbers, entry counts, each map
 *      file's length and block checksums) to checkpoint-S.jck.tmp, sync, rename it to
 *      checkpoint-S.jck, sync the directory: that file is the completion marker. Only then delete
 *      the segments before S and older checkpoints.
 * Recovery loads checkpoint-S and replays segments S on, applying writes above each key's number;
 * map files without their metadata file are an unfinished checkpoint and deleted.
 */

/** Writes checkpoints of a store's maps (Chronicle Map files) and truncates the log behind them. */
final class Checkpointer {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final Path dir;
    private final long storeId;
    private final LogWriter writer;
    private final ConcurrencyControl cc;
    private final Collection<Table> maps;
    private final ExpandableArrayBuffer staging = new ExpandableArrayBuffer(4096);

    Checkpointer(Path dir, long storeId, LogWriter writer, ConcurrencyControl cc, Collection<Table> maps) {
        this.dir = dir;
        this.storeId = storeId;
        this.writer = writer;
        this.cc = cc;
        this.maps = maps;
    }

    /** @return the checkpoint's metadata file (its completion marker) */
    synchronized Path checkpoint() throws IOException {
        long[] roll = writer.roll();
        long first = roll[0];
        writer.awaitEpochAbove(roll[1]);
        Path done = dir.resolve(Files2.checkpointName(first));
        Path tmp = dir.resolve(done.getFileName() + ".tmp");
        List<Path> written = new ArrayList<>();
        try {
            Files.deleteIfExists(tmp);
            List<MapPart> parts = new ArrayList<>();
            for (Table m : maps) {
                Path file = dir.resolve(Files2.mapFileName(first, m.id));
                Files.deleteIfExists(file);
                written.add(file);
                parts.add(writeMap(m, file));
            }
            writer.awaitDurable(writer.epoch());
            long entries = 0;
            try (RecordOutput out = new RecordOutput(tmp,
                    LogFormat.header(LogFormat.CHECKPOINT_MAGIC, storeId, first, LogFormat.NO_CUT, 0),
                    new AtomicLong(Long.MAX_VALUE))) {
                for (MapPart p : parts) {
                    writeMetadata(out, p);
                    entries += p.entries;
                }
                out.appendLong(LogFormat.END, entries);
                out.sync();
            }
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(tmp);
            for (Path p : written) {
                Files.deleteIfExists(p);
            }
            throw e;
        }
        Files.move(tmp, done, StandardCopyOption.ATOMIC_MOVE);
        Files2.syncDir(dir);
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                long seg = Files2.number(name, Files2.SEGMENT_PREFIX, Files2.SEGMENT_SUFFIX);
                long ck = Files2.number(name, Files2.CHECKPOINT_PREFIX, Files2.CHECKPOINT_SUFFIX);
                long mf = Files2.mapFileNumber(name);
                if ((seg >= 0 && seg < first) || (ck >= 0 && ck < first) || (mf >= 0 && mf < first)) {
                    Files.delete(p);
                }
            }
        }
        Files2.syncDir(dir);
        return done;
    }

    /** What the metadata file records of one map. */
    private record MapPart(Table map, long[] stripeSeqs, long entries, CheckpointMapFile.Checksums sums) {
    }

    private MapPart writeMap(Table m, Path file) throws IOException {
        long[] seqs = new long[Table.STRIPES];
        for (int i = 0; i < Table.STRIPES; i++) {
            LogStripe s = m.stripes[i];
            long w = cc.lockNonTx(s);
            try {
                seqs[i] = s.seq;
            } finally {
                cc.unlockNonTx(s, w, false, false);
            }
        }
        try (CheckpointMapFile out = CheckpointMapFile.create(file, m.name, m.backend.size())) {
            IOException[] failed = {null};
            forEachKey(m, key -> {
                if (failed[0] == null) {
                    try {
                        writeEntry(out, m, key);
                    } catch (IOException e) {
                        failed[0] = e;
                    }
                }
            });
            if (failed[0] != null) {
                throw failed[0];
            }
            CheckpointMapFile.Checksums sums = out.finish();
            return new MapPart(m, seqs, out.entries(), sums);
        }
    }

    private void writeMetadata(RecordOutput out, MapPart p) throws IOException {
        final ExpandableArrayBuffer b = staging;
        int at = 0;
        b.putInt(at, p.map.id, LE);
        b.putInt(at + 4, Table.STRIPES, LE);
        at += 8;
        for (long seq : p.stripeSeqs) {
            b.putLong(at, seq, LE);
            at += 8;
        }
        b.putLong(at, p.entries, LE);
        b.putLong(at + 8, p.sums.length(), LE);
        b.putInt(at + 16, p.sums.blocks().length, LE);
        at += 20;
        for (int crc : p.sums.blocks()) {
            b.putInt(at, crc, LE);
            at += 4;
        }
        byte[] name = p.map.name.getBytes(StandardCharsets.UTF_8);
        b.putBytes(at, name);
        out.append(LogFormat.MAP, b, 0, at + name.length);
    }

    /** @return the stripe's number, read under its lock (so no commit of the stripe is between numbering and installing) */
    private long stripeSeq(LogStripe s) {
        long w = cc.lockNonTx(s);
        try {
            return s.seq;
        } finally {
            cc.unlockNonTx(s, w, false, false);
        }
    }

    private static void forEachKey(Table m, java.util.function.Consumer<Object> action) {
        m.backend.forEachKey(action);
    }

    private void writeEntry(CheckpointMapFile out, Table m, Object key) throws IOException {
        final ExpandableArrayBuffer b = staging;
        int kl = m.encodeKey(b, 0, key, m.longKeys ? (Long) key : 0L) - 4;
        byte[] k = new byte[kl];
        b.getBytes(4, k);
        LogStripe s = m.stripes[m.stripeOfBoxed(key)];
        long seq = stripeSeq(s);
        int vl;
        while (true) {
            // Not read under the stripe's lock: the read waits while a commit holds the key's lock,
            // and that commit may be waiting for the stripe (a deadlock). Every commit writing the
            // key (or, for a row, one of its columns) takes a number of this stripe before
            // installing, and holds the stripe until it has installed, so an unchanged number
            // around the read means the value holds exactly the writes numbered up to it. A row's
            // columns are encoded inside the window: they are the value.
            Object value = m.backend.get(key);
            vl = value == null ? -1 : m.encodeValueNonTx(value, b, Long.BYTES);
            long again = stripeSeq(s);
            if (again == seq) {
                break;
            }
            seq = again;
        }
        if (vl < 0) {
            return; // removed since the iteration found it: the log has the remove
        }
        b.putLong(0, seq, LE);
        byte[] v = new byte[Long.BYTES + vl];
        b.getBytes(0, v);
        out.put(k, v);
    }
}
