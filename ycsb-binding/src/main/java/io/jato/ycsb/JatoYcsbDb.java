package io.jato.ycsb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.Vector;

import io.jato.collections.TxSortedMap;
import io.jato.stm.Txn;
import site.ycsb.ByteIterator;
import site.ycsb.Client;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB's {@link DB} over a Jato store in the client's own JVM: run YCSB's client with
 * {@code -db io.jato.ycsb.JatoYcsbDb}. Every call is one serializable Jato transaction (reads and
 * scans are declared read-only), retried on conflict until it commits, so a call returns only
 * committed results and its write is visible to every later call of any thread. To group several
 * operations into one transaction, run {@link JatoWorkload} with {@code jato.opspertxn}.
 *
 * <p><b>The store.</b> All instances in a JVM share one store: the first {@link #init()} builds it
 * with the protocol of {@code jato.protocol} (default {@code occ}; options in {@code jato.options}),
 * the last {@link #cleanup()} prints its commit and abort counts on standard output (lines
 * starting {@code [JATO]}; {@code jato.stats=false} silences them) and drops it. A transaction run
 * ({@code -t}) of a YCSB core workload first loads the records a {@code -load} run would insert
 * ({@code jato.preload=false} skips it), since no earlier process can have loaded a store that
 * lives in this one; {@link JatoWorkload} does that before YCSB starts its clock, a plain
 * {@code CoreWorkload} in the first {@code init}, inside the measured time.
 *
 * <p><b>Semantics.</b> A table is an ordered map from key to record, created on first use; a
 * record is a set of named fields. {@code read} with {@code fields == null} returns every field,
 * otherwise those of the named fields the record has; {@code update} merges (it replaces the fields
 * it names and keeps the others) and may add fields; {@code insert} stores exactly the given fields,
 * replacing any record of that key; {@code scan} returns up to {@code recordcount} records from
 * {@code startkey} on, in {@link String#compareTo} order of their keys, and is phantom-safe.
 * {@code read}, {@code update} and {@code delete} of an absent key return {@link Status#NOT_FOUND}.
 * Values are copied in on write, and a read hands out iterators over the stored bytes that cannot
 * change them. Updates of different fields of one record do not conflict with each other.
 *
 * <p><b>Bad input</b> (a null table, key, field name or value, a negative scan length, a call
 * before {@link #init()}) throws an exception naming it; YCSB's workloads never pass any.
 * {@link #init()} throws {@link DBException} naming the property at fault for a malformed
 * {@code jato.*} property or an unknown protocol (the message lists the known ones).
 *
 * <p>An instance is used by one thread at a time, as YCSB's client does.
 */
public class JatoYcsbDb extends DB {
    private YcsbStore store;
    private final Fields readScratch = new Fields();
    private final List<Fields> scanScratch = new ArrayList<>();

    /** Creates an instance; YCSB's client does, one per client thread, and then calls {@link #init()}. */
    public JatoYcsbDb() {
    }

    /**
     * Joins the JVM's store (building it if this is its first user) and, for a transaction run,
     * loads the records first if no one has.
     *
     * @throws DBException naming the malformed property, or the unknown protocol, or a store of
     *                     another protocol open in this JVM; or if already initialized
     */
    @Override
    public void init() throws DBException {
        if (store != null) {
            throw new DBException("init() called twice on one JatoYcsbDb; call cleanup() first");
        }
        Settings settings;
        try {
            settings = Settings.from(getProperties());
        } catch (IllegalArgumentException e) {
            throw new DBException(e.getMessage(), e);
        }
        String workload = getProperties().getProperty(Client.WORKLOAD_PROPERTY);
        if (settings.opsPerTxn() > 1 && !YcsbStore.isWorkload(workload, JatoWorkload.class)) {
            throw new DBException(Settings.OPS_PER_TXN + "=" + settings.opsPerTxn() + " needs -p "
                    + Client.WORKLOAD_PROPERTY + "=" + JatoWorkload.class.getName() + " (got " + workload
                    + "): YCSB's DB interface runs one operation per call");
        }
        YcsbStore s = YcsbStore.acquire(settings);
        try {
            s.preloadOnce(getProperties(), System.err, false);
        } catch (DBException | RuntimeException e) {
            s.release(System.out);
            throw e;
        }
        store = s;
    }

    /** Leaves the store; the last user prints its statistics and drops it. Idempotent. */
    @Override
    public void cleanup() {
        YcsbStore s = store;
        if (s != null) {
            store = null;
            s.release(System.out);
        }
    }

    private YcsbStore store() {
        YcsbStore s = store;
        if (s == null) {
            throw new IllegalStateException("JatoYcsbDb used before init() or after cleanup()");
        }
        return s;
    }

    private static void checkFields(Set<String> fields) {
        if (fields != null) {
            for (String f : fields) {
                Objects.requireNonNull(f, "a field name in fields");
            }
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        YcsbStore s = store();
        TxSortedMap<String, Row> t = s.table(table);
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(result, "result");
        checkFields(fields);
        Fields out = readScratch;
        Status status = s.stm().readOnly(txn -> {
            out.clear();
            return YcsbStore.read(txn, t, key, fields, out);
        });
        out.copyTo(result);
        out.clear();
        return status;
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                       Vector<HashMap<String, ByteIterator>> result) {
        YcsbStore s = store();
        TxSortedMap<String, Row> t = s.table(table);
        Objects.requireNonNull(startkey, "startkey");
        Objects.requireNonNull(result, "result");
        if (recordcount < 0) {
            throw new IllegalArgumentException("scan of a negative number of records: recordcount=" + recordcount);
        }
        checkFields(fields);
        List<Fields> out = scanScratch;
        int n = s.stm().readOnly(txn -> YcsbStore.scan(txn, t, startkey, recordcount, fields, out));
        for (int i = 0; i < n; i++) {
            HashMap<String, ByteIterator> record = new HashMap<>();
            out.get(i).copyTo(record);
            out.get(i).clear();
            result.add(record);
        }
        return Status.OK;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        return write(table, key, values, YcsbStore::update);
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        return write(table, key, values, YcsbStore::insert);
    }

    /** A write of one record's fields inside a transaction: {@link YcsbStore#update} or {@link YcsbStore#insert}. */
    @FunctionalInterface
    private interface RecordWrite {
        Status apply(Txn txn, TxSortedMap<String, Row> table, String key, Fields values);
    }

    private Status write(String table, String key, Map<String, ByteIterator> values, RecordWrite op) {
        YcsbStore s = store();
        TxSortedMap<String, Row> t = s.table(table);
        Objects.requireNonNull(key, "key");
        Fields f = Fields.of(values);
        return s.stm().atomic(txn -> op.apply(txn, t, key, f));
    }

    @Override
    public Status delete(String table, String key) {
        YcsbStore s = store();
        TxSortedMap<String, Row> t = s.table(table);
        Objects.requireNonNull(key, "key");
        return s.stm().atomic(txn -> YcsbStore.delete(txn, t, key));
    }
}
