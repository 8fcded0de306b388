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
import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;

/*
 * A checkpoint while transactions run (no pause, no consistent snapshot needed):
 *   1. the logger rolls to segment S; every record in earlier segments has an epoch <= M;
 *   2. wait until the open epoch is above M: a transaction of epoch <= M read the epoch before
 *      now, so it has installed its writes or still holds its stripe locks (see 3);
 *   3. for each key: lock its stripe as a non-transactional write does (no commit to that stripe
 *      can be between its lock and unlock meanwhile), read the stripe's sequence number and the
 *      key's value, unlock. The entry carries that number: every write of the key with a higher
 *      number comes later, every write with a lower or equal one is in the value;
 *   4. wait until the epoch open after the scan is durable: a transaction the scan saw is then
 *      on disk, so recovery never shows part of one that the log lost;
 *   5. write END, sync, rename the temporary file to checkpoint-S, sync the directory; only then
 *      delete the segments before S and older checkpoints.
 * Recovery loads checkpoint-S and replays segments S on, applying writes above each key's number.
 */

/** Writes checkpoints of a store's maps and truncates the log behind them. */
final class Checkpointer {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final Path dir;
    private final long storeId;
    private final LogWriter writer;
    private final ConcurrencyControl cc;
    private final Collection<MapCore<?, ?>> maps;
    private final ExpandableArrayBuffer staging = new ExpandableArrayBuffer(4096);

    Checkpointer(Path dir, long storeId, LogWriter writer, ConcurrencyControl cc, Collection<MapCore<?, ?>> maps) {
        this.dir = dir;
        this.storeId = storeId;
        this.writer = writer;
        this.cc = cc;
        this.maps = maps;
    }

    /** @return the checkpoint written */
    synchronized Path checkpoint() throws IOException {
        long[] roll = writer.roll();
        long first = roll[0];
        writer.awaitEpochAbove(roll[1]);
        Path done = dir.resolve(Files2.checkpointName(first));
        Path tmp = dir.resolve(done.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        long entries = 0;
        try (RecordOutput out = new RecordOutput(tmp,
                LogFormat.header(LogFormat.CHECKPOINT_MAGIC, storeId, first, LogFormat.NO_CUT, 0),
                new AtomicLong(Long.MAX_VALUE))) {
            for (MapCore<?, ?> m : maps) {
                entries += writeMap(out, m);
            }
            writer.awaitDurable(writer.epoch());
            out.appendLong(LogFormat.END, entries);
            out.sync();
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, done, StandardCopyOption.ATOMIC_MOVE);
        Files2.syncDir(dir);
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                long seg = Files2.number(name, Files2.SEGMENT_PREFIX, Files2.SEGMENT_SUFFIX);
                long ck = Files2.number(name, Files2.CHECKPOINT_PREFIX, Files2.CHECKPOINT_SUFFIX);
                if ((seg >= 0 && seg < first) || (ck >= 0 && ck < first)) {
                    Files.delete(p);
                }
            }
        }
        Files2.syncDir(dir);
        return done;
    }

    private long writeMap(RecordOutput out, MapCore<?, ?> m) throws IOException {
        final ExpandableArrayBuffer b = staging;
        b.putInt(0, m.id, LE);
        b.putInt(4, MapCore.STRIPES, LE);
        for (int i = 0; i < MapCore.STRIPES; i++) {
            LogStripe s = m.stripes[i];
            long w = cc.lockNonTx(s);
            try {
                b.putLong(8 + i * 8, s.seq, LE);
            } finally {
                cc.unlockNonTx(s, w, false, false);
            }
        }
        byte[] name = m.name.getBytes(StandardCharsets.UTF_8);
        b.putBytes(8 + MapCore.STRIPES * 8, name);
        out.append(LogFormat.MAP, b, 0, 8 + MapCore.STRIPES * 8 + name.length);
        long[] count = {0};
        IOException[] failed = {null};
        forEachKey(m, key -> {
            if (failed[0] != null) {
                return;
            }
            try {
                if (writeEntry(out, m, key)) {
                    count[0]++;
                }
            } catch (IOException e) {
                failed[0] = e;
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
        return count[0];
    }

    private static <K> void forEachKey(MapCore<K, ?> m, java.util.function.Consumer<Object> action) {
        m.map.single().forEach((k, v) -> action.accept(k));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private boolean writeEntry(RecordOutput out, MapCore m, Object key) throws IOException {
        LogStripe s = m.stripe(key);
        long seq;
        Object value;
        long w = cc.lockNonTx(s);
        try {
            seq = s.seq;
            value = m.map.single().get(key);
        } finally {
            cc.unlockNonTx(s, w, false, false);
        }
        if (value == null) {
            return false; // removed since the iteration found it: the log has the remove
        }
        final ExpandableArrayBuffer b = staging;
        b.putInt(0, m.id, LE);
        b.putLong(4, seq, LE);
        int kl = m.keyCodec.encode(key, b, 16);
        b.putInt(12, kl, LE);
        int vl = m.valueCodec.encode(value, b, 20 + kl);
        b.putInt(16 + kl, vl, LE);
        out.append(LogFormat.ENTRY, b, 0, 20 + kl + vl);
        return true;
    }
}
