package io.jato.durable.internal;

import io.jato.durable.Codec;
import io.jato.records.AbstractRecord;
import io.jato.records.RecordObserver;
import io.jato.stm.Txn;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.TxnContext;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.zip.CRC32C;

/**
 * One durable map's state: the transactional map holding its values ({@link Backend}), how its keys
 * and values become bytes, and the stripes that order its writes per key ({@link LogStripe}).
 * Writes go to the map and are noted in the thread's {@link ThreadLog}; the stripe's custom entry
 * makes the commit call the engine's participant.
 *
 * <p>A table whose values are records ({@link RecordCodec}) also logs the writes to the rows it
 * holds: each stored row carries a {@link RowHandle} as its observer, and a transaction's first
 * write to a group of a row notes the group; its columns are encoded at commit as the commit will
 * install them.
 */
public final class Table {
    /** Stripes per map: fixed by the format (a key's stripe must not change across restarts). */
    public static final int STRIPES = 1024;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    /** Stable id in log records: CRC32C of the name's UTF-8 bytes (collisions refused at build). */
    public final int id;
    public final String name;
    /** True for long-keyed maps: keys are logged as 8 bytes and kept unboxed in the thread logs. */
    final boolean longKeys;
    private final Codec<Object> keyCodec;
    private final Codec<Object> valueCodec;
    /** Non-null when the values are records. */
    final RecordCodec<?> records;
    final Backend backend;
    final LogStripe[] stripes = new LogStripe[STRIPES];
    private final DurableEngine engine;

    @SuppressWarnings("unchecked")
    Table(DurableEngine engine, String name, Codec<?> keyCodec, Codec<?> valueCodec, Backend backend) {
        this.engine = engine;
        this.name = name;
        this.id = idOf(name);
        this.longKeys = keyCodec == null;
        this.keyCodec = (Codec<Object>) keyCodec;
        this.valueCodec = (Codec<Object>) valueCodec;
        this.records = valueCodec instanceof RecordCodec<?> rc ? rc : null;
        this.backend = backend;
        if (longKeys) {
            this.recoveredLong = new Long2ObjectHashMap<>();
            this.rowsLong = records != null ? new Long2ObjectHashMap<>() : null;
        } else {
            this.recovered = new HashMap<>();
            this.rows = records != null ? new HashMap<>() : null;
        }
        int domain = engine.stm.protocolDomain();
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new LogStripe(domain);
        }
    }

    static int idOf(String name) {
        CRC32C c = new CRC32C();
        c.update(name.getBytes(StandardCharsets.UTF_8));
        return (int) c.getValue();
    }

    /** The stripe of a key: the top 10 bits of its mixed hash (a long key hashes as a {@code Long}). */
    static int stripeIndex(int hash) {
        return (hash * 0x9E3779B9) >>> 22; // STRIPES = 1024
    }

    int stripeOf(Object key, long longKey) {
        return stripeIndex(longKeys ? Long.hashCode(longKey) : key.hashCode());
    }

    /** @return the stripe of a key as recovery and checkpoints see it (boxed) */
    int stripeOfBoxed(Object key) {
        return stripeIndex(key.hashCode());
    }

    /** @return the transactional map holding the values */
    public Object txMap() {
        return backend.map();
    }

    /** @return true if keys are longs ({@code TxLongHashMap}, {@code TxLongSortedMap}) */
    public boolean hasLongKeys() {
        return longKeys;
    }

    // ------------------------------------------------------------------ transactions (body)

    /**
     * Before a put changes anything: checks that {@code value} may be stored under the key.
     *
     * @throws IllegalArgumentException for a record of another class, or one stored under another key
     */
    public void checkPut(Object key, long longKey, Object value) {
        if (records != null) {
            records.checkType(value);
            handleFor((AbstractRecord) value, key, longKey);
        }
    }


    /**
     * Notes a put of {@code value} (already done on the map, after {@link #checkPut}) for the
     * commit's log record. For a table of records, attaches the row's handle (not live until the
     * commit installs).
     *
     * @param old the value the put replaced, or null
     */
    public void notePut(Txn txn, Object key, long longKey, Object value, Object old) {
        TxnContext tc = TxnContext.of(txn, engine.stm);
        Object handle = null;
        Object oldHandle = null;
        if (records != null) {
            AbstractRecord r = (AbstractRecord) value;
            RowHandle h = handleFor(r, key, longKey);
            if (h == null) {
                // Not live until this commit installs: a failed attempt's handle logs nothing.
                h = new RowHandle(this, key, longKey);
                r.setObserver(h);
            }
            handle = h;
            oldHandle = old != value && old instanceof AbstractRecord o ? o.observer() : null;
        }
        note(tc, key, longKey, value, handle, oldHandle, LogFormat.OP_PUT, 0);
    }

    /** Notes a remove (already done on the map, which held {@code old}) for the commit's log record. */
    public void noteRemove(Txn txn, Object key, long longKey, Object old) {
        TxnContext tc = TxnContext.of(txn, engine.stm);
        Object oldHandle = records != null && old instanceof AbstractRecord o ? o.observer() : null;
        note(tc, key, longKey, null, null, oldHandle, LogFormat.OP_REMOVE, 0);
    }

    /**
     * Before a put of record {@code r} changes anything: refuses a record that is stored under
     * another key or in another table.
     *
     * @return {@code r}'s handle if it already has one for this key, else null
     * @throws IllegalArgumentException if {@code r} is stored elsewhere
     */
    RowHandle handleFor(AbstractRecord r, Object key, long longKey) {
        RecordObserver o = r.observer();
        if (o == null) {
            return null;
        }
        if (!(o instanceof RowHandle h)) {
            throw new IllegalArgumentException("the record is watched by " + o.getClass().getName()
                    + ", not by a durable store");
        }
        if (h.isFor(this, key, longKey)) {
            return h;
        }
        if (h.live) {
            throw new IllegalArgumentException("the record is already stored in " + h.where()
                    + "; a record is stored under one key of one durable map (copy it to store it elsewhere)");
        }
        return null; // left by an attempt that did not commit
    }

    /** Body time, first write of a row's group item: the groups go into the log if the row is still stored. */
    void noteGroups(TxnContext tc, RowHandle h, AbstractRecord r, int groupMask) {
        note(tc, h.key, h.longKey, r, h, null, LogFormat.OP_GROUPS, groupMask);
    }

    private void note(TxnContext tc, Object key, long longKey, Object value, Object handle, Object oldHandle,
                      byte op, int mask) {
        ThreadLog log = engine.threadLog(tc);
        LogStripe s = stripes[stripeOf(key, longKey)];
        log.add(this, s, key, longKey, value, handle, oldHandle, op, mask);
        Entry e = tc.entry(s);
        if ((e.flags() & Entry.WRITE) == 0) {
            tc.writeCustom(e, engine.participant, null, log);
            tc.requestCheck(e, engine.participant);
            tc.requestCleanup(e, engine.participant);
        }
    }

    // ------------------------------------------------------------------ encoding (check phase)

    /** Writes the key's length and bytes at {@code pos}; @return the position after them. */
    int encodeKey(MutableDirectBuffer b, int pos, Object key, long longKey) {
        if (longKeys) {
            b.putInt(pos, Long.BYTES, LE);
            b.putLong(pos + 4, longKey, LE);
            return pos + 4 + Long.BYTES;
        }
        int kl = keyCodec.encode(key, b, pos + 4);
        b.putInt(pos, kl, LE);
        return pos + 4 + kl;
    }

    /** Writes a put's value: a record's columns as {@code tc} installs them; @return its length. */
    int encodeValue(TxnContext tc, BufferColumns cols, Object value, MutableDirectBuffer b, int pos) {
        if (records == null) {
            return valueCodec.encode(value, b, pos);
        }
        AbstractRecord r = (AbstractRecord) value;
        r.writeCommitColumns(tc, records.allGroups(), cols.writeTo(b, pos));
        return cols.position() - pos;
    }

    /** Writes a value read outside any transaction (checkpoints); @return its length. */
    int encodeValueNonTx(Object value, MutableDirectBuffer b, int pos) {
        return valueCodec.encode(value, b, pos);
    }

    /** Writes the columns of the groups a transaction wrote in a stored row; @return their length. */
    int encodeGroups(TxnContext tc, BufferColumns cols, AbstractRecord r, int mask, MutableDirectBuffer b, int pos) {
        r.writeCommitColumns(tc, mask, cols.writeTo(b, pos));
        return cols.position() - pos;
    }

    // ------------------------------------------------------------------ recovery (one thread, before open)

    /*
     * Recovery state, per key: the sequence number of the last put or remove applied, then, for
     * records, of each group's last write; and, for records, the row being rebuilt (kept while
     * absent, for group writes that arrive before their put). Long keys live in Agrona's
     * open-addressing maps: no boxed key or node object per row, and a mixed hash (TPC-C's packed
     * keys made a HashMap<Long, ...> collide into tree bins: 56-byte nodes, 8 M of them in a
     * 20-second run's recovery). Dropped by finishRecovery.
     */
    private Long2ObjectHashMap<long[]> recoveredLong;
    private HashMap<Object, long[]> recovered;
    private Long2ObjectHashMap<AbstractRecord> rowsLong;
    private HashMap<Object, AbstractRecord> rows;
    private final BufferColumns recoveryColumns = new BufferColumns();

    Object decodeKey(DirectBuffer b, int at, int length) {
        if (longKeys) {
            if (length != Long.BYTES) {
                throw new IllegalStateException("a long key of " + length + " bytes");
            }
            return b.getLong(at, LE);
        }
        return keyCodec.decode(b, at, length);
    }

    private long[] state(Object key) {
        long[] s = longKeys ? recoveredLong.get((long) (Long) key) : recovered.get(key);
        if (s == null) {
            s = new long[records == null ? 1 : 1 + Integer.bitCount(records.allGroups())];
            Arrays.fill(s, -1); // below every sequence number: a checkpoint's entries may carry 0
            if (longKeys) {
                recoveredLong.put((long) (Long) key, s);
            } else {
                recovered.put(key, s);
            }
        }
        return s;
    }

    private AbstractRecord row(Object key) {
        return longKeys ? rowsLong.get((long) (Long) key) : rows.get(key);
    }

    /** Applies a put of {@code seq}; @return true if it changed anything. */
    boolean recoverPut(Object key, DirectBuffer b, int at, int length, long seq) {
        long[] s = state(key);
        if (records == null) {
            if (s[0] >= seq) {
                return false;
            }
            s[0] = seq;
            backend.put(key, valueCodec.decode(b, at, length));
            return true;
        }
        boolean changed = recoverGroups(key, s, records.allGroups(), b, at, length, seq);
        if (s[0] < seq) {
            s[0] = seq;
            backend.put(key, row(key));
            changed = true;
        }
        return changed;
    }

    /** Applies a remove of {@code seq}; @return true if it changed anything. */
    boolean recoverRemove(Object key, long seq) {
        long[] s = state(key);
        if (s[0] >= seq) {
            return false;
        }
        s[0] = seq;
        backend.remove(key);
        return true;
    }

    /** Applies a group write of {@code seq} to a row; @return true if it changed anything. */
    boolean recoverGroups(Object key, int mask, DirectBuffer b, int at, int length, long seq) {
        if (records == null) {
            throw new IllegalStateException("a record group write to a map whose values are not records");
        }
        if (mask == 0 || (mask & ~records.allGroups()) != 0) {
            throw new IllegalStateException("a group write of groups " + Integer.toBinaryString(mask) + " to "
                    + records.type().getSimpleName() + " rows, which have groups "
                    + Integer.toBinaryString(records.allGroups()));
        }
        return recoverGroups(key, state(key), mask, b, at, length, seq);
    }

    private boolean recoverGroups(Object key, long[] s, int mask, DirectBuffer b, int at, int length, long seq) {
        int store = 0;
        for (int g = 0; g < s.length - 1; g++) {
            if ((mask & (1 << g)) != 0 && s[1 + g] < seq) {
                store |= 1 << g;
                s[1 + g] = seq;
            }
        }
        AbstractRecord row = row(key);
        if (row == null) {
            row = records.create();
            if (longKeys) {
                rowsLong.put((long) (Long) key, row);
            } else {
                rows.put(key, row);
            }
        }
        BufferColumns c = recoveryColumns.readFrom(b, at, length);
        row.readColumnsNonTx(c, mask, store);
        if (!c.atEnd()) {
            throw new IllegalStateException("a row's value of " + length + " bytes holds bytes after its columns");
        }
        return store != 0;
    }

    /**
     * After a bulk load outside transactions: every row in the map without a live handle gets one.
     * Only while no transaction writes the map.
     *
     * @return the number of rows put under watch
     * @throws IllegalArgumentException if a loaded row is stored under two keys
     */
    long adoptLoaded() {
        if (records == null) {
            return 0;
        }
        long[] adopted = {0};
        backend.forEachKey(k -> {
            Object v = backend.get(k);
            if (!(v instanceof AbstractRecord r)) {
                return;
            }
            records.checkType(r);
            long lk = longKeys ? (Long) k : 0L;
            RowHandle h = handleFor(r, longKeys ? null : k, lk);
            if (h == null || !h.live) {
                h = new RowHandle(this, longKeys ? null : k, lk);
                h.live = true;
                r.setObserver(h);
                adopted[0]++;
            }
        });
        return adopted[0];
    }

    /** After recovery: every stored row watched by a live handle; the recovery state dropped. */
    void finishRecovery() {
        if (rowsLong != null) {
            rowsLong.forEachLong((k, r) -> watch(k, r, k));
        } else if (rows != null) {
            rows.forEach((k, r) -> watch(k, r, 0L));
        }
        recoveredLong = null;
        recovered = null;
        rowsLong = null;
        rows = null;
    }

    private void watch(Object key, AbstractRecord r, long longKey) {
        if (backend.get(key) == r) {
            RowHandle h = new RowHandle(this, longKeys ? null : key, longKey);
            h.live = true;
            r.setObserver(h);
        }
    }
}
