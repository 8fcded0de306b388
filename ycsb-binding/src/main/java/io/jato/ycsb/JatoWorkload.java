package io.jato.ycsb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import io.jato.collections.TxSortedMap;
import site.ycsb.Client;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.RandomByteIterator;
import site.ycsb.Status;
import site.ycsb.WorkloadException;
import site.ycsb.generator.ExponentialGenerator;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's core workload for a Jato store ({@code -p workload=io.jato.ycsb.JatoWorkload}, with
 * {@code -db io.jato.ycsb.JatoYcsbDb}): the same properties, operation mix and distributions as
 * {@link CoreWorkload}, plus two things an in-process store needs.
 *
 * <ul>
 *   <li><b>Loading before the clock.</b> For a transaction run ({@code -t}) it loads the records a
 *       {@code -load} run would insert while YCSB initializes the workload, before YCSB starts
 *       timing, so the report measures the run alone ({@code jato.preload=false} skips it).</li>
 *   <li><b>Several operations per transaction.</b> With {@code jato.opspertxn=N} (default 1),
 *       each of YCSB's operations becomes a transaction of N operations: it draws all N first, each
 *       as {@code CoreWorkload} would (operation from the mix, key from the request distribution,
 *       fields, values as bytes, insert keys from the insert sequence), then runs them in one Jato
 *       transaction. A retried transaction runs the same N operations again, never new draws; it
 *       commits all N or none, and other transactions see all of its writes or none. Results are
 *       reported after the commit: {@code [TXN]} is the latency of the whole transaction, retries
 *       included; {@code [READ]}, {@code [UPDATE]}, ... count the operations, with the time each
 *       took inside the attempt that committed (an operation that returned an error is measured as
 *       {@code READ-FAILED}, ... as YCSB does); the report's operation count and throughput count
 *       transactions. Inserted keys become visible to the key chooser only after their transaction
 *       committed. {@code dataintegrity=true} is refused here: its check needs CoreWorkload's own
 *       value generator.</li>
 * </ul>
 *
 * <p>With {@code jato.opspertxn=1} every operation is exactly CoreWorkload's, one Jato
 * transaction per call of {@link JatoYcsbDb}. A malformed {@code jato.*} property, a database
 * other than {@link JatoYcsbDb}, or {@code dataintegrity} with several operations per transaction
 * make {@link #init} throw {@link WorkloadException} naming the property.
 */
public class JatoWorkload extends CoreWorkload {
    private static final String TXN = "TXN";

    private Settings settings;
    private YcsbStore store;
    private TxSortedMap<String, Row> rows;
    private List<String> fieldNames;
    private Measurements measurements;

    /** Creates the workload; YCSB's client does, then calls {@link #init}. */
    public JatoWorkload() {
    }

    @Override
    public void init(Properties p) throws WorkloadException {
        super.init(p);
        try {
            settings = Settings.from(p);
        } catch (IllegalArgumentException e) {
            throw new WorkloadException(e.getMessage(), e);
        }
        String db = p.getProperty(Client.DB_PROPERTY);
        if (!YcsbStore.isWorkload(db, JatoYcsbDb.class)) {
            throw new WorkloadException(getClass().getName() + " runs against -db " + JatoYcsbDb.class.getName()
                    + ", got " + (db == null ? "none (YCSB's default, site.ycsb.BasicDB)" : db));
        }
        if (settings.opsPerTxn() > 1
                && Boolean.parseBoolean(p.getProperty(DATA_INTEGRITY_PROPERTY, DATA_INTEGRITY_PROPERTY_DEFAULT))) {
            throw new WorkloadException(Settings.OPS_PER_TXN + "=" + settings.opsPerTxn() + " cannot be combined with "
                    + DATA_INTEGRITY_PROPERTY + "=true: the check needs CoreWorkload's own values; use "
                    + Settings.OPS_PER_TXN + "=1");
        }
        String prefix = p.getProperty(FIELD_NAME_PREFIX, FIELD_NAME_PREFIX_DEFAULT);
        List<String> names = new ArrayList<>();
        for (long i = 0; i < fieldcount; i++) {
            names.add(prefix + i);
        }
        fieldNames = Collections.unmodifiableList(names);
        measurements = Measurements.getMeasurements();
        YcsbStore s;
        try {
            s = YcsbStore.acquire(settings);
        } catch (DBException e) {
            throw new WorkloadException(e.getMessage(), e);
        }
        try {
            s.preloadOnce(p, System.err, true);
        } catch (DBException | RuntimeException e) {
            s.release(System.out);
            throw new WorkloadException(e.getMessage(), e);
        }
        store = s;
        rows = s.table(table);
    }

    /** Releases the store; the last of its users prints its statistics. Idempotent. */
    @Override
    public void cleanup() throws WorkloadException {
        super.cleanup();
        YcsbStore s = store;
        if (s != null) {
            store = null;
            s.release(System.out);
        }
    }

    /**
     * One operation as {@link CoreWorkload} runs it, or with {@code jato.opspertxn=N > 1} one
     * transaction of N operations (see the class comment).
     *
     * @return false if the operation mix is empty (no operation to draw), as CoreWorkload does
     */
    @Override
    public boolean doTransaction(DB db, Object threadState) {
        if (settings.opsPerTxn() == 1) {
            return super.doTransaction(db, threadState);
        }
        List<Op> ops = new ArrayList<>(settings.opsPerTxn());
        for (int i = 0; i < settings.opsPerTxn(); i++) {
            Op op = nextOperation();
            if (op == null) {
                break;
            }
            ops.add(op);
        }
        if (ops.isEmpty()) {
            return false;
        }
        runTransaction(ops);
        return true;
    }

    /**
     * Draws one operation, every choice made, or null if the mix is empty. Tests override it to
     * draw operations of their own.
     */
    Op nextOperation() {
        String kind = operationchooser.nextString();
        if (kind == null) {
            return null;
        }
        switch (kind) {
            case "READ":
                return Op.read(buildKeyName(nextKeyNumber()), fieldsToRead());
            case "UPDATE":
                return Op.update(buildKeyName(nextKeyNumber()), valuesToWrite());
            case "INSERT": {
                long n = transactioninsertkeysequence.nextValue();
                return Op.insert(buildKeyName(n), allValues(), n);
            }
            case "SCAN": {
                String start = buildKeyName(nextKeyNumber());
                return Op.scan(start, scanlength.nextValue().intValue(), fieldsToRead());
            }
            default:
                return Op.readModifyWrite(buildKeyName(nextKeyNumber()), fieldsToRead(), valuesToWrite());
        }
    }

    /**
     * A key number from the request distribution among the records inserted so far (those whose
     * insert has been acknowledged): an exponential chooser counts back from the latest record,
     * every other one is drawn again while it lies past it.
     */
    private long nextKeyNumber() {
        long key;
        if (keychooser instanceof ExponentialGenerator) {
            do {
                key = transactioninsertkeysequence.lastValue() - keychooser.nextValue().longValue();
            } while (key < 0);
        } else {
            do {
                key = keychooser.nextValue().longValue();
            } while (key > transactioninsertkeysequence.lastValue());
        }
        return key;
    }

    private Set<String> fieldsToRead() {
        return readallfields ? null : Set.of(fieldNames.get(fieldchooser.nextValue().intValue()));
    }

    private Fields valuesToWrite() {
        if (writeallfields) {
            return allValues();
        }
        Fields f = new Fields();
        f.add(fieldNames.get(fieldchooser.nextValue().intValue()), randomValue());
        return f;
    }

    private Fields allValues() {
        Fields f = new Fields();
        for (String name : fieldNames) {
            f.add(name, randomValue());
        }
        return f;
    }

    private byte[] randomValue() {
        return new RandomByteIterator(fieldlengthgenerator.nextValue().longValue()).toArray();
    }

    /**
     * Runs {@code ops} as one transaction, retried with the same operations until it commits, then
     * reports it and its operations to YCSB's measurements and acknowledges its inserts.
     */
    final void runTransaction(List<Op> ops) {
        long intendedStart = measurements.getIntendedtartTimeNs();
        long start = System.nanoTime();
        boolean committed = false;
        try {
            store.stm().run(txn -> {
                for (Op op : ops) {
                    op.execute(txn, rows);
                }
            });
            committed = true;
        } catch (RuntimeException e) {
            System.err.println("[JATO] a transaction of " + ops.size() + " operations failed: " + e);
            e.printStackTrace();
        } finally {
            for (Op op : ops) {
                if (op.kind == Op.Kind.INSERT && op.insertNumber >= 0) {
                    transactioninsertkeysequence.acknowledge(op.insertNumber);
                }
            }
        }
        long end = System.nanoTime();
        String name = committed ? TXN : TXN + "-FAILED";
        measurements.measure(name, micros(end - start));
        measurements.measureIntended(name, micros(end - intendedStart));
        measurements.reportStatus(TXN, committed ? Status.OK : Status.ERROR);
        if (committed) {
            for (Op op : ops) {
                String opName = op.kind.measurement;
                measurements.measure(op.status.isOk() ? opName : opName + "-FAILED", micros(op.nanos));
                measurements.reportStatus(opName, op.status);
            }
        }
    }

    private static int micros(long nanos) {
        return (int) Math.min(Integer.MAX_VALUE, nanos / 1000);
    }

    /** @return the store joined by {@link #init} (for tests) */
    YcsbStore store() {
        return store;
    }
}
