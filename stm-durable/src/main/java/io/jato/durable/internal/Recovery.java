package io.jato.durable.internal;

import io.jato.durable.CorruptFileException;
import io.jato.durable.RecoveryReport;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/*
 * Recovery, run once when a store opens, before any transaction of it:
 *   1. load the newest checkpoint (it names the first log segment it needs): its metadata file,
 *      written to a temporary name and renamed once every map file is synced, then each map's
 *      Chronicle Map file, checked against the length and block checksums the metadata records.
 *      A checkpoint is visible only complete, so a bad one is corruption; map files without a
 *      metadata file are an unfinished checkpoint and deleted;
 *   2. scan every segment from there: check the header (magic, version, store id, number) and
 *      every record's length and CRC32C. A bad record in the last segment with no valid epoch
 *      marker after it is the torn tail of the write a crash interrupted: the segment is cut there.
 *      Anywhere else it is corruption, reported with file and offset, and nothing is opened;
 *   3. D = the largest epoch marker found: every record of epoch <= D was synced before the
 *      marker was. Replay, in segment order, each transaction record of epoch <= D that no later
 *      segment's header voids (a segment opened by a recovery voids the earlier records above the
 *      D that recovery found: they were never durable, and their epochs are reused no more, but a
 *      later marker must not revive them);
 *   4. a write is applied only if its sequence number is above the key's (checkpoint or earlier
 *      record): records of different threads reach the log in any order, numbers follow commit order.
 */

/** Loads a store directory's checkpoint and log into its maps. */
final class Recovery {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final Path dir;
    private final long storeId;
    private final Map<Integer, Table> maps;
    private final Map<Integer, long[]> stripeSeqs = new HashMap<>();

    // Results.
    long nextSegment = 1;
    long cutLow = LogFormat.NO_CUT;
    long nextEpoch = 1;
    private Path checkpointFile;
    private long checkpointEntries;
    private long firstSegment = 0;
    private int segmentsReplayed;
    private long transactionsApplied;
    private long transactionsDiscarded;
    private long writesApplied;
    private long logBytes;
    private String tornTail;
    private final List<Path> obsolete = new ArrayList<>();
    private final TreeMap<Long, List<Path>> mapFiles = new TreeMap<>();

    Recovery(Path dir, long storeId, Map<Integer, Table> maps) {
        this.dir = dir;
        this.storeId = storeId;
        this.maps = maps;
        for (Integer id : maps.keySet()) {
            stripeSeqs.put(id, new long[Table.STRIPES]);
        }
    }

    RecoveryReport run() throws IOException {
        long start = System.nanoTime();
        TreeMap<Long, Path> segments = new TreeMap<>();
        TreeMap<Long, Path> checkpoints = new TreeMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                long n;
                if ((n = Files2.number(name, Files2.SEGMENT_PREFIX, Files2.SEGMENT_SUFFIX)) >= 0) {
                    segments.put(n, p);
                } else if ((n = Files2.number(name, Files2.CHECKPOINT_PREFIX, Files2.CHECKPOINT_SUFFIX)) >= 0) {
                    checkpoints.put(n, p);
                } else if ((n = Files2.mapFileNumber(name)) >= 0) {
                    mapFiles.computeIfAbsent(n, k -> new ArrayList<>()).add(p);
                } else if (name.endsWith(".tmp")) {
                    obsolete.add(p); // an unfinished checkpoint
                }
            }
        }
        if (!checkpoints.isEmpty()) {
            Map.Entry<Long, Path> newest = checkpoints.lastEntry();
            loadCheckpoint(newest.getValue());
            for (Path older : checkpoints.headMap(newest.getKey()).values()) {
                obsolete.add(older);
            }
        }
        for (Map.Entry<Long, List<Path>> e : mapFiles.entrySet()) {
            if (checkpointFile == null || e.getKey() != firstSegment) {
                obsolete.addAll(e.getValue()); // of an older checkpoint, or of one never completed
            }
        }
        List<Segment> scanned = new ArrayList<>();
        long maxSeen = 0;
        for (Map.Entry<Long, Path> s : segments.entrySet()) {
            nextSegment = Math.max(nextSegment, s.getKey() + 1);
            if (s.getKey() < firstSegment) {
                obsolete.add(s.getValue()); // covered by the checkpoint; its deletion was interrupted
                continue;
            }
            Segment seg = scan(s.getValue(), s.getKey(), s.getKey().equals(segments.lastKey()));
            if (seg != null) {
                seg.length = Files.size(seg.file);
                seg.bytes = null;
                scanned.add(seg);
                maxSeen = Math.max(maxSeen, Math.max(seg.maxEpoch, seg.header.base()));
            }
        }
        long durable = Long.MIN_VALUE;
        for (Segment seg : scanned) {
            durable = Math.max(durable, seg.maxMarker);
        }
        long cut = LogFormat.NO_CUT;
        for (int i = scanned.size() - 1; i >= 0; i--) {
            Segment seg = scanned.get(i);
            replay(seg, Math.min(durable, cut));
            cut = Math.min(cut, seg.header.cutLow());
            segmentsReplayed++;
        }
        for (Table t : maps.values()) {
            t.finishRecovery();
        }
        for (Map.Entry<Integer, long[]> e : stripeSeqs.entrySet()) {
            LogStripe[] stripes = maps.get(e.getKey()).stripes;
            long[] seqs = e.getValue();
            for (int i = 0; i < stripes.length; i++) {
                stripes[i].seq = seqs[i];
            }
        }
        for (Path p : obsolete) {
            Files.deleteIfExists(p);
        }
        nextEpoch = Math.max(maxSeen, durable) + 1;
        cutLow = durable == Long.MIN_VALUE ? 0 : durable;
        return new RecoveryReport(checkpointFile, checkpointEntries, segmentsReplayed, logBytes,
                transactionsApplied, transactionsDiscarded, writesApplied,
                durable == Long.MIN_VALUE ? -1 : durable, tornTail, (System.nanoTime() - start) / 1_000_000L);
    }

    // ------------------------------------------------------------------ checkpoint

    private void loadCheckpoint(Path f) throws IOException {
        ByteBuffer b = read(f);
        LogFormat.Header h = LogFormat.checkHeader(f, b, LogFormat.CHECKPOINT_MAGIC, storeId);
        firstSegment = h.number();
        UnsafeBuffer u = new UnsafeBuffer(b);
        int pos = LogFormat.HEADER_BYTES;
        long entries = 0;
        boolean ended = false;
        while (pos < b.limit() && !ended) {
            String problem = checkRecord(b, pos);
            if (problem != null) {
                throw new CorruptFileException(f, pos, problem + " in a checkpoint");
            }
            int len = b.getInt(pos);
            int end = pos + LogFormat.RECORD_HEADER + len;
            int p = pos + LogFormat.RECORD_HEADER + 1;
            byte type = b.get(pos + LogFormat.RECORD_HEADER);
            if (type == LogFormat.MAP) {
                entries += loadMap(f, pos, b, u, p, end);
            } else if (type == LogFormat.END) {
                long expected = b.getLong(p);
                if (expected != entries) {
                    throw new CorruptFileException(f, pos, "checkpoint holds " + entries + " entries, its end record says "
                            + expected);
                }
                ended = true;
            } else {
                throw new CorruptFileException(f, pos, "unknown record type " + type + " in a checkpoint");
            }
            pos = end;
        }
        if (!ended) {
            throw new CorruptFileException(f, pos, "checkpoint ends without its end record (truncated)");
        }
        checkpointFile = f;
        checkpointEntries = entries;
    }

    /** Loads the map file a checkpoint's MAP record at {@code pos} describes; @return its entries. */
    private long loadMap(Path f, int pos, ByteBuffer b, UnsafeBuffer u, int p, int end) throws IOException {
        int id = b.getInt(p);
        int n = b.getInt(p + 4);
        int at = p + 8 + n * 8;
        int blocks = n == Table.STRIPES && at + 20 <= end ? b.getInt(at + 16) : -1;
        int nameAt = at + 20 + 4 * blocks;
        if (blocks < 0 || nameAt > end) {
            throw new CorruptFileException(f, pos, "a map record of " + n + " stripes and " + blocks
                    + " blocks does not fit its length");
        }
        String name = u.getStringWithoutLengthUtf8(nameAt, end - nameAt);
        Table m = maps.get(id);
        if (m == null || !m.name.equals(name)) {
            throw new CorruptFileException(f, pos, "checkpoint of map '" + name + "', which this store does not declare");
        }
        long[] seqs = stripeSeqs.get(id);
        for (int i = 0; i < n; i++) {
            seqs[i] = Math.max(seqs[i], b.getLong(p + 8 + i * 8));
        }
        long entries = b.getLong(at);
        int[] crcs = new int[blocks];
        for (int i = 0; i < blocks; i++) {
            crcs[i] = b.getInt(at + 20 + 4 * i);
        }
        Path file = dir.resolve(Files2.mapFileName(firstSegment, id));
        if (!Files.exists(file)) {
            throw new CorruptFileException(f, pos, "its map file " + file.getFileName() + " is missing");
        }
        long read = CheckpointMapFile.read(file, name, new CheckpointMapFile.Checksums(b.getLong(at + 8), crcs),
                (key, seq, value, offset) -> {
                    try {
                        Object k = m.decodeKey(new UnsafeBuffer(key), 0, key.length);
                        noteSeq(m, k, seq);
                        if (m.recoverPut(k, new UnsafeBuffer(value), offset, value.length - offset, seq)) {
                            writesApplied++;
                        }
                    } catch (IllegalStateException e) {
                        throw new CorruptFileException(file, 0, "an entry of map '" + name + "' cannot be read: "
                                + e.getMessage());
                    }
                });
        if (read != entries) {
            throw new CorruptFileException(file, 0, "checkpoint map file holds " + read + " entries, its checkpoint "
                    + f.getFileName() + " says " + entries);
        }
        return entries;
    }

    // ------------------------------------------------------------------ log segments

    /**
     * What the scan learned of one segment. Its bytes are dropped after the scan and read again to
     * replay it, so that recovery holds one segment in the heap at a time, not the whole log.
     */
    private static final class Segment {
        final Path file;
        ByteBuffer bytes;
        final LogFormat.Header header;
        /** Offsets of its TXN records. */
        final IntArrayList txns = new IntArrayList();
        /** Its length after the scan (a torn tail cut off). */
        long length;
        long maxMarker = Long.MIN_VALUE;
        long maxEpoch;

        Segment(Path file, ByteBuffer bytes, LogFormat.Header header) {
            this.file = file;
            this.bytes = bytes;
            this.header = header;
            this.maxEpoch = header.base() - 1;
        }
    }

    private Segment scan(Path f, long number, boolean last) throws IOException {
        ByteBuffer b = read(f);
        if (last && b.limit() < LogFormat.HEADER_BYTES && startsWithMagic(b)) {
            // A crash between creating the segment and syncing its header: it holds nothing.
            tornTail = f.getFileName() + ": header torn at " + b.limit() + " bytes; the empty segment was removed";
            obsolete.add(f);
            return null;
        }
        LogFormat.Header h = LogFormat.checkHeader(f, b, LogFormat.LOG_MAGIC, storeId);
        if (h.number() != number) {
            throw new CorruptFileException(f, 20, "header says segment " + h.number() + ", the file name says " + number);
        }
        logBytes += b.limit();
        Segment seg = new Segment(f, b, h);
        int pos = LogFormat.HEADER_BYTES;
        while (pos < b.limit()) {
            String problem = checkRecord(b, pos);
            if (problem != null) {
                if (last && !markerAfter(b, pos + 1)) {
                    tornTail = f.getFileName() + ": torn tail at offset " + pos + " (" + problem + "); "
                            + (b.limit() - pos) + " bytes dropped";
                    truncate(f, pos);
                    break;
                }
                throw new CorruptFileException(f, pos, problem + (last ? ", and a valid epoch marker follows it"
                        : " in a segment that is not the last"));
            }
            byte type = b.get(pos + LogFormat.RECORD_HEADER);
            long value = b.getLong(pos + LogFormat.RECORD_HEADER + 1);
            if (type == LogFormat.TXN) {
                seg.txns.addInt(pos);
                seg.maxEpoch = Math.max(seg.maxEpoch, value);
            } else if (type == LogFormat.EPOCH) {
                seg.maxMarker = Math.max(seg.maxMarker, value);
            } else {
                throw new CorruptFileException(f, pos, "unknown record type " + type + " in a log segment");
            }
            pos += LogFormat.RECORD_HEADER + b.getInt(pos);
        }
        return seg;
    }

    /** @return true if the bytes there are (a prefix of) a log segment's magic: a header cut short, not a foreign file */
    private static boolean startsWithMagic(ByteBuffer b) {
        try {
            LogFormat.checkHeader(null, b, LogFormat.LOG_MAGIC, 0);
            return true;
        } catch (CorruptFileException e) {
            return e.offset() != 0;
        }
    }

    /** @return null if a well-formed record starts at {@code pos}, else what is wrong with it */
    private static String checkRecord(ByteBuffer b, int pos) {
        int left = b.limit() - pos;
        if (left < LogFormat.RECORD_HEADER + 1) {
            return "truncated record header (" + left + " bytes left)";
        }
        int len = b.getInt(pos);
        if (len < 1 || len > LogFormat.MAX_RECORD) {
            return "bad record length " + len;
        }
        if (len > left - LogFormat.RECORD_HEADER) {
            return "record of " + len + " bytes runs past the end of the file (" + left + " bytes left)";
        }
        if (len < 9 && b.get(pos + LogFormat.RECORD_HEADER) != LogFormat.MAP) {
            return "record of " + len + " bytes is too short";
        }
        if (b.getInt(pos + 4) != LogFormat.crc(b, pos + LogFormat.RECORD_HEADER, len)) {
            return "checksum mismatch";
        }
        return null;
    }

    /** @return true if a valid epoch marker starts anywhere at or after {@code from} */
    private static boolean markerAfter(ByteBuffer b, int from) {
        for (int p = from, end = b.limit() - (LogFormat.RECORD_HEADER + 9); p <= end; p++) {
            if (b.getInt(p) == 9 && b.get(p + LogFormat.RECORD_HEADER) == LogFormat.EPOCH
                    && b.getInt(p + 4) == LogFormat.crc(b, p + LogFormat.RECORD_HEADER, 9)) {
                return true;
            }
        }
        return false;
    }

    private void replay(Segment seg, long bound) throws IOException {
        // Read again (the scan may have cut a torn tail off: the offsets below stay valid).
        ByteBuffer b = read(seg.file);
        if (b.limit() != seg.length) {
            throw new CorruptFileException(seg.file, Math.min(b.limit(), seg.length), "changed while it was recovered: "
                    + seg.length + " bytes when scanned, " + b.limit() + " now");
        }
        UnsafeBuffer u = new UnsafeBuffer(b);
        for (int i = 0, n = seg.txns.size(); i < n; i++) {
            int pos = seg.txns.getInt(i);
            int p = pos + LogFormat.RECORD_HEADER + 1;
            long epoch = b.getLong(p);
            if (epoch > bound) {
                transactionsDiscarded++;
                continue;
            }
            int count = b.getInt(p + 8);
            p += 12;
            for (int w = 0; w < count; w++) {
                int id = b.getInt(p);
                long seq = b.getLong(p + 4);
                byte op = b.get(p + 12);
                Table m = map(seg.file, pos, id);
                int kl = b.getInt(p + 13);
                try {
                    Object key = m.decodeKey(u, p + 17, kl);
                    p += 17 + kl;
                    noteSeq(m, key, seq);
                    boolean changed;
                    if (op == LogFormat.OP_PUT) {
                        int vl = b.getInt(p);
                        changed = m.recoverPut(key, u, p + 4, vl, seq);
                        p += 4 + vl;
                    } else if (op == LogFormat.OP_REMOVE) {
                        changed = m.recoverRemove(key, seq);
                    } else if (op == LogFormat.OP_GROUPS) {
                        int mask = b.getInt(p);
                        int vl = b.getInt(p + 4);
                        changed = m.recoverGroups(key, mask, u, p + 8, vl, seq);
                        p += 8 + vl;
                    } else {
                        throw new CorruptFileException(seg.file, pos, "unknown write op " + op
                                + " in a transaction record");
                    }
                    if (changed) {
                        writesApplied++;
                    }
                } catch (IllegalStateException e) {
                    throw new CorruptFileException(seg.file, pos, "a write to map '" + m.name
                            + "' in a transaction record cannot be read: " + e.getMessage());
                }
            }
            transactionsApplied++;
        }
    }

    private Table map(Path f, long pos, int id) {
        Table m = maps.get(id);
        if (m == null) {
            throw new CorruptFileException(f, pos, "a record of map id " + Integer.toHexString(id)
                    + ", which this store does not declare (declare every map the store ever logged)");
        }
        return m;
    }

    /** Keeps the stripe's number at least {@code seq}, so new commits number above every recovered write. */
    private void noteSeq(Table m, Object key, long seq) {
        long[] stripes = stripeSeqs.get(m.id);
        int s = m.stripeOfBoxed(key);
        stripes[s] = Math.max(stripes[s], seq);
    }

    private static ByteBuffer read(Path f) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(f)).order(LE);
    }

    private static void truncate(Path f, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(size);
            ch.force(true);
        }
    }
}
