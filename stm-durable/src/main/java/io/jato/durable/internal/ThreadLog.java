package io.jato.durable.internal;

import io.jato.durable.DurabilityException;
import io.jato.records.AbstractRecord;
import io.jato.stm.spi.Scratch;
import io.jato.stm.spi.TxnContext;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One thread's side of the log (pooled per thread and store as a {@link Scratch}, so the same
 * instance serves every transaction of its thread): the durable writes of the running attempt, the
 * encoded record of a committing one, and a single-producer ring (Agrona's
 * {@link OneToOneRingBuffer}) that the logger thread drains. The ring reaches the logger once,
 * through the logger's registration queue, when this object is created.
 *
 * <p>Commit sequence (owner thread): {@link #prepare} runs in the commit's check phase with every
 * write locked — it numbers each write from its stripe, encodes the record, announces the epoch it
 * commits in ({@link #active}) and reads the logger's epoch; {@link #finish} runs after the
 * commit is published and puts the record into the ring before retracting the announcement.
 * The logger closes epoch e only when no thread announces e or below, then drains every ring: so
 * every record of epoch e is in the file before the epoch's marker.
 */
public final class ThreadLog implements Scratch.Pooled {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    static final long IDLE = Long.MAX_VALUE;
    static final int TXN_MESSAGE = 1;
    private static final VarHandle ACTIVE;

    static {
        try {
            ACTIVE = MethodHandles.lookup().findVarHandle(ThreadLog.class, "active", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Written by the owner (volatile, a Dekker pair with the logger's epoch store), read by the logger.
    @SuppressWarnings("unused")
    private long p01, p02, p03, p04, p05, p06, p07;
    private volatile long active = IDLE;
    @SuppressWarnings("unused")
    private long p11, p12, p13, p14, p15, p16, p17;

    final OneToOneRingBuffer ring;
    private final LogWriter writer;
    private final ExpandableArrayBuffer staging = new ExpandableArrayBuffer(4096);
    private Table[] tables = new Table[16];
    private LogStripe[] stripes = new LogStripe[16];
    private Object[] keys = new Object[16];
    private long[] longKeys = new long[16];
    private Object[] values = new Object[16];
    /** Per write to a table of records: the row's handle (put, group write) or null. */
    private Object[] handles = new Object[16];
    /** Per put or remove in a table of records: the handle of the row it replaced or removed, or null. */
    private Object[] oldHandles = new Object[16];
    private byte[] ops = new byte[16];
    private int[] masks = new int[16];
    private final BufferColumns columns = new BufferColumns();
    private boolean installed;
    private int count;
    private boolean prepared;
    private int length;
    /** Bytes put into the ring since the logger was last woken for it (owner thread only). */
    private int unwoken;
    private final int wakeBytes;

    ThreadLog(LogWriter writer, int ringBytes) {
        this.writer = writer;
        int capacity = Integer.highestOneBit(Math.max(4096, ringBytes - 1)) << 1;
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(
                ByteBuffer.allocateDirect(capacity + RingBufferDescriptor.TRAILER_LENGTH)));
        this.wakeBytes = capacity / 4;
        writer.register(this);
    }

    /** Counts a record of {@code bytes}; true (and the count restarts) when the logger should be woken. */
    boolean sinceWake(int bytes) {
        int n = unwoken + bytes;
        if (n >= wakeBytes) {
            unwoken = 0;
            return true;
        }
        unwoken = n;
        return false;
    }

    long active() {
        return active;
    }

    /** Buffers one durable write of the running attempt (body time; grows the arrays at most to the largest transaction). */
    void add(Table table, LogStripe stripe, Object key, long longKey, Object value, Object handle, Object oldHandle,
             byte op, int mask) {
        int n = count;
        if (n == keys.length) {
            grow(n * 2);
        }
        tables[n] = table;
        stripes[n] = stripe;
        keys[n] = key;
        longKeys[n] = longKey;
        values[n] = value;
        handles[n] = handle;
        oldHandles[n] = oldHandle;
        ops[n] = op;
        masks[n] = mask;
        count = n + 1;
    }

    private void grow(int c) {
        tables = Arrays.copyOf(tables, c);
        stripes = Arrays.copyOf(stripes, c);
        keys = Arrays.copyOf(keys, c);
        longKeys = Arrays.copyOf(longKeys, c);
        values = Arrays.copyOf(values, c);
        handles = Arrays.copyOf(handles, c);
        oldHandles = Arrays.copyOf(oldHandles, c);
        ops = Arrays.copyOf(ops, c);
        masks = Arrays.copyOf(masks, c);
    }

    /**
     * Check phase, every write item locked: numbers and encodes the attempt's writes and joins the
     * logger's open epoch. Idempotent within an attempt (every stripe entry of it calls this).
     *
     * @throws DurabilityException if the logger failed or the record is too large; the commit then
     *                             rolls back, nothing installed
     */
    void prepare(TxnContext tc) {
        if (prepared) {
            return;
        }
        writer.checkHealthy();
        final ExpandableArrayBuffer b = staging;
        int pos = 12;
        int written = 0;
        for (int i = 0, n = count; i < n; i++) {
            if (ops[i] == LogFormat.OP_GROUPS && !stillStored((RowHandle) handles[i], (AbstractRecord) values[i])) {
                continue;
            }
            pos = encode(tc, b, pos, i);
            written++;
        }
        b.putInt(8, written, LE);
        if (pos > LogFormat.MAX_RECORD - 1) {
            throw new DurabilityException("a transaction's log record of " + pos + " bytes exceeds the log's limit of "
                    + (LogFormat.MAX_RECORD - 1) + " bytes per transaction; split the transaction");
        }
        length = pos;
        long e;
        do {
            e = writer.epoch();
            ACTIVE.setVolatile(this, e);
        } while (writer.epoch() != e);
        b.putLong(0, e, LE);
        prepared = true;
    }

    /**
     * @return whether a group write of {@code h}'s row is to be logged: the row is stored under
     *         the handle's key (a committed put made it live, no committed remove since) and still
     *         watched by it. Read with the key's stripe locked, as the commits that change it write it.
     */
    private static boolean stillStored(RowHandle h, AbstractRecord r) {
        return h.live && r.observer() == h;
    }

    private int encode(TxnContext tc, ExpandableArrayBuffer b, int pos, int i) {
        Table t = tables[i];
        long seq = ++stripes[i].seq;
        byte op = ops[i];
        b.putInt(pos, t.id, LE);
        b.putLong(pos + 4, seq, LE);
        b.putByte(pos + 12, op);
        pos = t.encodeKey(b, pos + 13, keys[i], longKeys[i]);
        if (op == LogFormat.OP_PUT) {
            int vl = t.encodeValue(tc, columns, values[i], b, pos + 4);
            b.putInt(pos, vl, LE);
            pos += 4 + vl;
        } else if (op == LogFormat.OP_GROUPS) {
            b.putInt(pos, masks[i], LE);
            int vl = t.encodeGroups(tc, columns, (AbstractRecord) values[i], masks[i], b, pos + 8);
            b.putInt(pos + 4, vl, LE);
            pos += 8 + vl;
        }
        return pos;
    }

    /**
     * Install phase (every write locked, past the point of no return): the handles of rows this
     * commit stored become live, those of rows it removed or replaced dead. Idempotent within an
     * attempt.
     */
    void installed() {
        if (installed) {
            return;
        }
        installed = true;
        for (int i = 0, n = count; i < n; i++) {
            if (oldHandles[i] instanceof RowHandle old) {
                old.live = false;
            }
            if (ops[i] == LogFormat.OP_PUT && handles[i] instanceof RowHandle h) {
                h.live = true;
            }
        }
    }

    /** After the commit is published (or the attempt rolled back): hands the record to the logger. */
    void finish(boolean committed) {
        if (!prepared) {
            return;
        }
        prepared = false;
        installed = false;
        try {
            if (committed) {
                writer.append(this, staging, length);
            }
        } finally {
            // A release store: the logger needs the record (written before) visible once it sees
            // IDLE, not a full fence on every commit.
            ACTIVE.setRelease(this, IDLE);
        }
    }

    @Override
    public void recycle() {
        Arrays.fill(keys, 0, count, null);
        Arrays.fill(values, 0, count, null);
        Arrays.fill(handles, 0, count, null);
        Arrays.fill(oldHandles, 0, count, null);
        Arrays.fill(tables, 0, count, null);
        Arrays.fill(stripes, 0, count, null);
        count = 0;
        installed = false;
        if (prepared) {
            // A commit that ended without its cleanup (cannot happen through the driver): never
            // leave the logger waiting for this thread.
            prepared = false;
            ACTIVE.setVolatile(this, IDLE);
        }
    }
}
