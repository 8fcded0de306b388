package io.jato.durable.internal;

import org.agrona.DirectBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * Appends framed records (length, CRC32C, type, payload) to one file through a direct buffer.
 * One thread at a time. Every byte written is charged to the store's {@link #budget}: a store
 * opened with a log quota fails a write that would exceed it exactly as a full disk fails it.
 */
final class RecordOutput implements AutoCloseable {
    private final Path file;
    private final FileChannel channel;
    private final AtomicLong budget;
    private final CRC32C crc = new CRC32C();
    private ByteBuffer out = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private long unsynced;
    /** Bytes appended so far, header included. */
    private long size;

    RecordOutput(Path file, ByteBuffer header, AtomicLong budget) throws IOException {
        this.file = file;
        this.budget = budget;
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        boolean ok = false;
        try {
            size = header.remaining();
            out.put(header);
            ok = true;
        } finally {
            if (!ok) {
                channel.close();
            }
        }
    }

    Path file() {
        return file;
    }

    /** Appends a record whose payload is {@code length} bytes at {@code offset} of {@code src}. */
    void append(byte type, DirectBuffer src, int offset, int length) throws IOException {
        int start = reserve(length);
        src.getBytes(offset, out, start + LogFormat.RECORD_HEADER + 1, length);
        seal(start, type, length);
    }

    /** Appends a record whose payload is one long (an epoch marker, a checkpoint's end). */
    void appendLong(byte type, long value) throws IOException {
        int start = reserve(Long.BYTES);
        out.putLong(start + LogFormat.RECORD_HEADER + 1, value);
        seal(start, type, Long.BYTES);
    }

    private int reserve(int payload) throws IOException {
        int total = LogFormat.RECORD_HEADER + 1 + payload;
        if (out.remaining() < total) {
            flush();
            if (out.capacity() < total) {
                out = ByteBuffer.allocateDirect(Integer.highestOneBit(total) << 1).order(ByteOrder.LITTLE_ENDIAN);
            }
        }
        return out.position();
    }

    private void seal(int start, byte type, int payload) {
        int body = 1 + payload;
        out.putInt(start, body);
        out.put(start + LogFormat.RECORD_HEADER, type);
        int end = start + LogFormat.RECORD_HEADER + body;
        // The checksum reads the buffer itself (no duplicate: the logger allocates nothing per record).
        out.limit(end).position(start + LogFormat.RECORD_HEADER);
        crc.reset();
        crc.update(out);
        out.limit(out.capacity());
        out.putInt(start + 4, (int) crc.getValue());
        out.position(end);
        size += end - start;
    }

    /** @return bytes appended so far (flushed or not), header included */
    long size() {
        return size;
    }

    /** Writes the buffered bytes to the file (not yet synced). */
    void flush() throws IOException {
        out.flip();
        int n = out.remaining();
        if (n > 0 && budget.addAndGet(-n) < 0) {
            budget.addAndGet(n);
            out.clear();
            throw new IOException("No space left on device: the store's log quota is exhausted writing " + file);
        }
        while (out.hasRemaining()) {
            channel.write(out);
        }
        out.clear();
        unsynced += n;
    }

    /** @return true if bytes were appended since the last {@link #sync} */
    boolean dirty() {
        return unsynced != 0 || out.position() != 0;
    }

    /** Flushes and forces the file's content to the device. */
    void sync() throws IOException {
        flush();
        channel.force(false);
        unsynced = 0;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
