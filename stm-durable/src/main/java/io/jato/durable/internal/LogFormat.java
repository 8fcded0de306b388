package io.jato.durable.internal;

import io.jato.durable.CorruptFileException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The byte layout shared by log segments, checkpoints and the store file (docs/durability.md draws
 * it). All integers are little-endian.
 *
 * <pre>
 * file header (48 bytes)
 *   0  magic     8 bytes  "JATOLOG1" | "JATOCKP1" | "JATOSTOR"
 *   8  version   int      LOG_VERSION | STORE_VERSION | CHECKPOINT_VERSION
 *  12  storeId   long     random, fixed when the store is created
 *  20  number    long     segment number (a checkpoint: the first segment it needs)
 *  28  cutLow    long     segments: records of EARLIER segments above this epoch are void
 *  36  base      long     segments: the first epoch this segment may carry
 *  44  crc       int      CRC32C of bytes 0..43
 * record
 *   0  length    int      bytes after the crc field (type + payload), 1..MAX_RECORD
 *   4  crc       int      CRC32C of those bytes
 *   8  type      byte     TXN | EPOCH | ...
 *   9  payload
 * </pre>
 */
public final class LogFormat {
    /**
     * Log segments: 2 added the write op GROUPS (a record's column groups); a segment of version 1
     * holds only puts and removes, so this build reads both and writes 2.
     */
    public static final int LOG_VERSION = 2;
    /** The oldest log segment version this build reads. */
    public static final int LOG_VERSION_OLDEST = 1;
    /** The store file. */
    public static final int STORE_VERSION = 1;
    /** Checkpoints: 1 was a file of ENTRY records; 2 is metadata beside one Chronicle Map file per map. */
    public static final int CHECKPOINT_VERSION = 2;
    public static final long LOG_MAGIC = magic("JATOLOG1");
    public static final long CHECKPOINT_MAGIC = magic("JATOCKP1");
    public static final long STORE_MAGIC = magic("JATOSTOR");
    public static final int HEADER_BYTES = 48;
    public static final int RECORD_HEADER = 8;
    /** Upper bound of one record's length, so a corrupted length field cannot make recovery allocate gigabytes. */
    public static final int MAX_RECORD = 64 << 20;

    /** A committed transaction: epoch (long), write count (int), then the writes. */
    public static final byte TXN = 1;
    /** Every record of this epoch and below is in the file before this record: payload epoch (long). */
    public static final byte EPOCH = 2;
    /**
     * Checkpoint metadata: one map: id (int), stripe count (int), stripe sequence numbers (long
     * each), entries (long), map file length (long), block count (int), CRC32C of each block of
     * the map file (int each), name (UTF-8).
     */
    public static final byte MAP = 3;
    /** Checkpoint metadata: the last record: entry count of all maps (long). */
    public static final byte END = 5;

    /** Write ops inside a TXN record. */
    public static final byte OP_PUT = 1;
    public static final byte OP_REMOVE = 2;
    /** A write of some column groups of a stored record: the group mask, then their columns. */
    public static final byte OP_GROUPS = 3;

    /** cutLow of a segment that voids nothing (opened by a roll, not by a recovery). */
    public static final long NO_CUT = Long.MAX_VALUE;

    private LogFormat() {
    }

    private static long magic(String s) {
        long m = 0;
        for (int i = 7; i >= 0; i--) {
            m = m << 8 | (s.charAt(i) & 0xFF);
        }
        return m;
    }

    /** @return a header, positioned at 0, limit 48 */
    public static ByteBuffer header(long magic, long storeId, long number, long cutLow, long base) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(magic).putInt(version(magic)).putLong(storeId).putLong(number).putLong(cutLow).putLong(base);
        b.putInt(crc(b, 0, HEADER_BYTES - 4));
        b.flip();
        return b;
    }

    /** A checked file header. */
    public record Header(long storeId, long number, long cutLow, long base) {
    }

    /**
     * Checks a header read from {@code file} ({@code b} holds the whole file or at least its first
     * 48 bytes from position 0).
     *
     * @param storeId the store's id, or 0 to accept any (reading the store file itself)
     */
    public static Header checkHeader(Path file, ByteBuffer b, long magic, long storeId) {
        for (int i = 0, n = Math.min(8, b.limit()); i < n; i++) {
            if (b.get(i) != (byte) (magic >>> (8 * i))) {
                throw new CorruptFileException(file, 0, "not a Jato " + kind(magic) + " file (its first bytes are not "
                        + "the magic number)");
            }
        }
        if (b.limit() < HEADER_BYTES) {
            throw new CorruptFileException(file, b.limit(), "truncated header: " + b.limit() + " of "
                    + HEADER_BYTES + " bytes");
        }
        int version = b.getInt(8);
        int oldest = magic == LOG_MAGIC ? LOG_VERSION_OLDEST : version(magic);
        if (version < oldest || version > version(magic)) {
            throw new CorruptFileException(file, 8, kind(magic) + " format version " + version
                    + ", this build reads version" + (oldest == version(magic) ? " " + oldest
                    : "s " + oldest + " to " + version(magic)));
        }
        if (b.getInt(HEADER_BYTES - 4) != crc(b, 0, HEADER_BYTES - 4)) {
            throw new CorruptFileException(file, HEADER_BYTES - 4, "header checksum mismatch");
        }
        long id = b.getLong(12);
        if (storeId != 0 && id != storeId) {
            throw new CorruptFileException(file, 12, "belongs to store " + Long.toHexString(id)
                    + ", not to this store " + Long.toHexString(storeId) + " (a foreign file)");
        }
        return new Header(id, b.getLong(20), b.getLong(28), b.getLong(36));
    }

    private static int version(long magic) {
        return magic == CHECKPOINT_MAGIC ? CHECKPOINT_VERSION : magic == LOG_MAGIC ? LOG_VERSION : STORE_VERSION;
    }

    private static String kind(long magic) {
        return magic == LOG_MAGIC ? "log" : magic == CHECKPOINT_MAGIC ? "checkpoint" : "store";
    }

    /** @return CRC32C of {@code length} bytes at {@code offset} of {@code b}, leaving its position alone */
    public static int crc(ByteBuffer b, int offset, int length) {
        CRC32C c = new CRC32C();
        c.update(b.duplicate().limit(offset + length).position(offset));
        return (int) c.getValue();
    }
}
