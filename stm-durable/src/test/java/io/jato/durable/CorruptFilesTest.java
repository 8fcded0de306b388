package io.jato.durable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Damaged, truncated and foreign files are refused with their name and offset, or cut as a torn tail. */
class CorruptFilesTest {
    @TempDir
    Path dir;
    @TempDir
    Path other;

    /** Three durable transactions in one segment; returns the segment. */
    private Path writeLog(Path d) throws IOException {
        try (DurableStore s = DurableStoreTest.open(d, DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            for (long i = 1; i <= 3; i++) {
                long k = i;
                s.atomic(tx -> a.put(tx, k, k * 100));
            }
        }
        return only(d, ".jlog");
    }

    private static Path only(Path d, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(d)) {
            List<Path> l = files.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
            return l.get(l.size() - 1);
        }
    }

    private static void flip(Path f, long offset) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(offset);
            int b = raf.read();
            raf.seek(offset);
            raf.write(b ^ 0x5A);
        }
    }

    private static void truncate(Path f, long size) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(size);
        }
    }

    @Test
    void aBadChecksumInsideTheLogIsCorruptionNamingFileAndOffset() throws IOException {
        Path seg = writeLog(dir);
        flip(seg, 48 + 8 + 1 + 3); // inside the first record's payload; markers follow it
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertEquals(seg, e.file());
        assertEquals(48, e.offset());
        assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
        assertTrue(e.getMessage().contains(seg.getFileName().toString()), e.getMessage());
    }

    @Test
    void aTornTailIsCutAndReportedAndNotApplied() throws IOException {
        Path seg = writeLog(dir);
        long size = Files.size(seg);
        truncate(seg, size - 3); // inside the last record (the last epoch marker)
        try (DurableStore s = DurableStoreTest.open(dir, DurabilityMode.DURABLE)) {
            RecoveryReport r = s.recoveryReport();
            assertNotNull(r.tornTail(), r.toString());
            assertTrue(r.tornTail().contains(seg.getFileName().toString()), r.tornTail());
            DurableMap<Long, Long> a = s.map("accounts");
            // The last transaction's marker was torn: it was not durable and is not applied.
            assertEquals(100L, a.getNonTx(1L));
            assertEquals(200L, a.getNonTx(2L));
            assertEquals(null, a.getNonTx(3L));
            assertEquals(1, r.transactionsDiscarded(), r.toString());
            s.atomic(tx -> a.put(tx, 4L, 400L));
        }
        // The cut segment is no longer the last one, and stays readable: the discarded
        // transaction is void for good (the next segment's header says so).
        try (DurableStore s = DurableStoreTest.open(dir, DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            assertEquals(null, a.getNonTx(3L));
            assertEquals(400L, a.getNonTx(4L));
            assertEquals(null, s.recoveryReport().tornTail());
        }
    }

    @Test
    void aDamagedHeaderIsRefused() throws IOException {
        Path seg = writeLog(dir);
        flip(seg, 30);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertEquals(seg, e.file());
        assertTrue(e.getMessage().contains("header checksum"), e.getMessage());
    }

    /** Rewrites a file header's version field and its checksum. */
    private static void setVersion(Path f, int version) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            byte[] h = new byte[48];
            raf.readFully(h);
            ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(8, version);
            CRC32C c = new CRC32C();
            c.update(h, 0, 44);
            b.putInt(44, (int) c.getValue());
            raf.seek(0);
            raf.write(h);
        }
    }

    @Test
    void aSegmentOfTheOlderVersionIsReadAndANewerOneRefused() throws IOException {
        Path seg = writeLog(dir);
        setVersion(seg, 1); // puts and removes only: the version before record column groups
        try (DurableStore s = DurableStoreTest.open(dir, DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            assertEquals(300L, a.getNonTx(3L), s.recoveryReport().toString());
        }
        setVersion(seg, 3);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertEquals(seg, e.file());
        assertEquals(8, e.offset());
        assertTrue(e.getMessage().contains("log format version 3, this build reads versions 1 to 2"), e.getMessage());
    }

    @Test
    void aTruncatedSegmentThatIsNotTheLastIsRefused() throws IOException {
        Path first = writeLog(dir);
        writeLog(dir); // a second run: a second segment
        truncate(first, Files.size(first) - 5);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertEquals(first, e.file());
        assertTrue(e.getMessage().contains("not the last"), e.getMessage());
    }

    @Test
    void aForeignSegmentIsRefused() throws IOException {
        writeLog(dir);
        Path foreign = writeLog(other);
        Files.copy(foreign, dir.resolve("log-0000000000000099.jlog"));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertTrue(e.getMessage().contains("foreign"), e.getMessage());
        assertEquals(12, e.offset());
    }

    @Test
    void aFileThatIsNotALogIsRefused() throws IOException {
        writeLog(dir);
        Files.writeString(dir.resolve("log-0000000000000099.jlog"), "hello, this is not a Jato log at all, no no no");
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertTrue(e.getMessage().contains("not a Jato log file"), e.getMessage());
        assertEquals(0, e.offset());
    }

    @Test
    void aCorruptOrTruncatedCheckpointIsRefused() throws IOException {
        checkpointMapFile();
        Path ck = only(dir, ".jck");
        Path copy = other.resolve("saved.jck");
        Files.copy(ck, copy);
        flip(ck, Files.size(ck) - 40);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertEquals(ck, e.file());
        assertTrue(e.getMessage().contains("checksum mismatch in a checkpoint"), e.getMessage());

        Files.copy(copy, ck, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        truncate(ck, Files.size(ck) - 17); // the end record is gone
        e = assertThrows(CorruptFileException.class, () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());

        Files.copy(copy, ck, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (DurableStore s = DurableStoreTest.open(dir, DurabilityMode.DURABLE)) {
            assertEquals(50, s.recoveryReport().checkpointEntries());
            assertEquals(49L, s.<Long, Long>map("accounts").getNonTx(49L));
        }
    }

    /** Fifty entries in a checkpoint; returns its Chronicle Map file, with a copy in {@code other}. */
    private Path checkpointMapFile() throws IOException {
        try (DurableStore s = DurableStoreTest.open(dir, DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            s.atomic(tx -> {
                for (long i = 0; i < 50; i++) {
                    a.put(tx, i, i);
                }
                return null;
            });
            s.checkpoint();
        }
        Path cmap = only(dir, ".cmap");
        Files.copy(cmap, other.resolve("saved.cmap"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return cmap;
    }

    @Test
    void aDamagedCheckpointMapFileIsRefusedWithItsBlockOffset() throws IOException {
        Path cmap = checkpointMapFile();
        long at = Files.size(cmap) / 2;
        flip(cmap, at);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertEquals(cmap, e.file());
        assertEquals(at / (1 << 20) * (1 << 20), e.offset());
        assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
    }

    @Test
    void aTruncatedOrMissingCheckpointMapFileIsRefused() throws IOException {
        Path cmap = checkpointMapFile();
        long size = Files.size(cmap);
        truncate(cmap, size - 4096);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertEquals(cmap, e.file());
        assertEquals(size - 4096, e.offset());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());

        Files.delete(cmap);
        e = assertThrows(CorruptFileException.class, () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertTrue(e.getMessage().contains("is missing"), e.getMessage());
    }

    @Test
    void aCheckpointMapFileOfAnotherStoreIsRefused() throws IOException {
        Path cmap = checkpointMapFile();
        Path mine = other.resolve("saved.cmap");
        try (DurableStore s = DurableStoreTest.open(other.resolve("b"), DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            s.atomic(tx -> {
                for (long i = 0; i < 50; i++) {
                    a.put(tx, i, i + 1);
                }
                return null;
            });
            s.checkpoint();
        }
        Files.copy(only(other.resolve("b"), ".cmap"), cmap, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> DurableStoreTest.open(dir, DurabilityMode.DURABLE));
        assertEquals(cmap, e.file());

        Files.copy(mine, cmap, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (DurableStore s = DurableStoreTest.open(dir, DurabilityMode.DURABLE)) {
            assertEquals(50, s.recoveryReport().checkpointEntries());
            assertEquals(49L, s.<Long, Long>map("accounts").getNonTx(49L));
        }
    }

    @Test
    void mapFilesOfAnUnfinishedCheckpointAreIgnoredAndDeleted() throws IOException {
        Path cmap = checkpointMapFile();
        String later = cmap.getFileName().toString().replace("checkpoint-0", "checkpoint-9");
        Files.copy(cmap, dir.resolve(later)); // its metadata file was never written
        try (DurableStore s = DurableStoreTest.open(dir, DurabilityMode.DURABLE)) {
            assertEquals(50, s.recoveryReport().checkpointEntries());
        }
        assertTrue(Files.exists(cmap));
        assertTrue(!Files.exists(dir.resolve(later)), later + " was not deleted");
    }
}
