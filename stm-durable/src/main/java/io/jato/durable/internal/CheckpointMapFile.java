package io.jato.durable.internal;

import io.jato.durable.CorruptFileException;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One durable map's part of a checkpoint: a Chronicle Map file from the key's bytes to the
 * entry's sequence number (8 bytes, little-endian) followed by the value's bytes (both as the
 * map's codecs write them).
 *
 * <p>Writing: {@link #put} the entries, then {@link #finish}, which closes and syncs the file and
 * returns its length and the CRC32C of each {@link #BLOCK}-byte block. The checkpoint's metadata
 * file records both, and is written after every map file is synced: it is the completion marker.
 *
 * <p>Reading: {@link #open} first checks the file's length and block checksums against the
 * metadata. Chronicle Map trusts its file's internal offsets (it reads them through a memory
 * mapping), so a damaged file must never reach it: a bad block is reported with its offset. What
 * Chronicle Map itself throws while opening or iterating a file that passed is wrapped into
 * {@link CorruptFileException} naming the file.
 *
 * <p>One thread at a time (the checkpointer, or recovery).
 */
final class CheckpointMapFile implements AutoCloseable {
    /** Bytes per checksummed block of a map file. */
    static final int BLOCK = 1 << 20;
    /** Entries buffered to estimate the average key and value size before the map is created. */
    private static final int SAMPLE = 256;

    static {
        // Chronicle's libraries may report usage over the network unless this is set; never from a store.
        if (System.getProperty("chronicle.analytics.disable") == null) {
            System.setProperty("chronicle.analytics.disable", "true");
        }
    }

    private final Path file;
    private final String name;
    private final long expectedEntries;
    private final List<byte[]> pending = new ArrayList<>();
    private ChronicleMap<byte[], byte[]> map;
    private long entries;

    private CheckpointMapFile(Path file, String name, long expectedEntries, ChronicleMap<byte[], byte[]> map) {
        this.file = file;
        this.name = name;
        this.expectedEntries = expectedEntries;
        this.map = map;
    }

    /** A new map file at {@code file} (which must not exist), sized for about {@code expectedEntries}. */
    static CheckpointMapFile create(Path file, String name, long expectedEntries) {
        return new CheckpointMapFile(file, name, expectedEntries, null);
    }

    /** Adds an entry (the arrays are kept until the map exists: pass fresh ones). */
    void put(byte[] key, byte[] value) throws IOException {
        entries++;
        if (map == null) {
            pending.add(key);
            pending.add(value);
            if (pending.size() < 2 * SAMPLE) {
                return;
            }
            createMap();
            return;
        }
        map.put(key, value);
    }

    private void createMap() throws IOException {
        long keyBytes = 0;
        long valueBytes = 0;
        int n = pending.size() / 2;
        for (int i = 0; i < pending.size(); i += 2) {
            keyBytes += pending.get(i).length;
            valueBytes += pending.get(i + 1).length;
        }
        // Room for the keys inserted while the checkpoint scans, and bloat for more than that.
        long size = Math.max(expectedEntries, entries);
        long capacity = Math.max(64, size + size / 8);
        map = ChronicleMapBuilder.of(byte[].class, byte[].class)
                .name(name)
                .entries(capacity)
                .averageKeySize(Math.max(1.0, n == 0 ? 8 : (double) keyBytes / n))
                .averageValueSize(Math.max(9.0, n == 0 ? 16 : (double) valueBytes / n))
                .maxBloatFactor(4.0)
                .createPersistedTo(file.toFile());
        for (int i = 0; i < pending.size(); i += 2) {
            map.put(pending.get(i), pending.get(i + 1));
        }
        pending.clear();
    }

    /** Closes the map, syncs the file and returns its checksums; the file is complete. */
    Checksums finish() throws IOException {
        if (map == null) {
            createMap();
        }
        map.close();
        map = null;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        return checksums(file);
    }

    /** @return the entries put */
    long entries() {
        return entries;
    }

    /** A map file's length and the CRC32C of each {@link #BLOCK} bytes (the last block may be shorter). */
    record Checksums(long length, int[] blocks) {
    }

    static Checksums checksums(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long length = ch.size();
            int[] blocks = new int[(int) ((length + BLOCK - 1) / BLOCK)];
            ByteBuffer b = ByteBuffer.allocateDirect(BLOCK);
            CRC32C crc = new CRC32C();
            for (int i = 0; i < blocks.length; i++) {
                b.clear();
                long at = (long) i * BLOCK;
                b.limit((int) Math.min(BLOCK, length - at));
                while (b.hasRemaining()) {
                    if (ch.read(b, at + b.position()) < 0) {
                        throw new IOException(file + " shrank while being read");
                    }
                }
                b.flip();
                crc.reset();
                crc.update(b);
                blocks[i] = (int) crc.getValue();
            }
            return new Checksums(length, blocks);
        }
    }

    /** An entry of a map file being read: the key's bytes, the sequence number and the value's bytes. */
    interface EntryVisitor {
        void visit(byte[] key, long seq, byte[] value, int valueOffset);
    }

    /**
     * Checks {@code file} against {@code expected}, then reads every entry.
     *
     * @return the number of entries
     * @throws CorruptFileException if the file differs from what the metadata recorded, or Chronicle
     *                              Map refuses it
     */
    static long read(Path file, String name, Checksums expected, EntryVisitor visitor) throws IOException {
        Checksums actual = checksums(file);
        if (actual.length() != expected.length()) {
            throw new CorruptFileException(file, Math.min(actual.length(), expected.length()),
                    "checkpoint map file is " + actual.length() + " bytes, its checkpoint recorded "
                            + expected.length() + (actual.length() < expected.length() ? " (truncated)" : ""));
        }
        for (int i = 0; i < expected.blocks().length; i++) {
            if (actual.blocks()[i] != expected.blocks()[i]) {
                throw new CorruptFileException(file, (long) i * BLOCK,
                        "checksum mismatch in the checkpoint map file's block of " + BLOCK + " bytes here");
            }
        }
        long[] count = {0};
        try (ChronicleMap<byte[], byte[]> m = ChronicleMapBuilder.of(byte[].class, byte[].class)
                .name(name).entries(64).averageKeySize(8).averageValueSize(16)
                .createPersistedTo(file.toFile())) {
            m.forEachEntry(e -> {
                byte[] key = e.key().get();
                byte[] value = e.value().get();
                if (value.length < Long.BYTES) {
                    throw new CorruptFileException(file, 0, "an entry of " + value.length
                            + " value bytes, shorter than its sequence number");
                }
                visitor.visit(key, ByteBuffer.wrap(value).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(0),
                        value, Long.BYTES);
                count[0]++;
            });
        } catch (CorruptFileException e) {
            throw e;
        } catch (RuntimeException | InternalError | AssertionError e) {
            throw new CorruptFileException(file, 0, "Chronicle Map cannot read this checkpoint map file: " + e);
        }
        return count[0];
    }

    /** Closes an unfinished file (a failed checkpoint; the caller deletes it). */
    @Override
    public void close() {
        if (map != null) {
            map.close();
            map = null;
        }
    }
}
