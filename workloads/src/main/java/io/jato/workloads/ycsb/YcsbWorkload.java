package io.jato.workloads.ycsb;

import io.jato.collections.TxLongHashMap;
import io.jato.durable.Codecs;
import io.jato.durable.DurabilityMode;
import io.jato.durable.DurableLongMap;
import io.jato.durable.DurableStore;
import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import io.jato.workloads.CheckResult;
import io.jato.workloads.DurabilityOptions;
import io.jato.workloads.Workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/*
 * Data model. One TxLongHashMap from record id to row. Layout "rows": a row is a long[] of `columns`
 * values that is never modified once a map holds it (copy-on-write); an update reads the row,
 * copies it with one column changed and puts the copy (one version per row; the only allocation a
 * worker makes per operation). Layouts "coarse" and "split": a row is a YcsbRow record, updated in
 * place; "coarse" gives it one version, "split" one for the even and one for the odd columns (seed
 * paper 000), so a reader of column 3 does not conflict with a writer of column 4. Writes are
 * read-modify-writes of the column, or (blind writes) a commit-time increment updater that takes no
 * read dependency at all (seed paper 002 section 6). The map's node version covers only presence,
 * so record writes never touch it. Record ids are the map's primitive keys: a lookup neither boxes
 * nor follows a key object (STO's YCSB index is keyed by the integer id too).
 *
 * Transactions. A worker draws the whole transaction first -- keys, columns, read or write -- into
 * its own arrays, then runs one preallocated body over them, so a retry repeats the same
 * operations (as the seed papers' benchmarks do) and the body allocates nothing. Keys within one
 * transaction are distinct (redrawn on a repeat, like DBx1000's YCSB). A transaction without a
 * write runs as a declared read-only transaction.
 *
 * Invariant checked after the run. Column c of record r starts at r * columns + c, and every write
 * adds exactly 1 to one column. Each worker counts, per column, the increments of the
 * transactions it committed (after atomic returns, so an aborted attempt never counts). At the end,
 * for every column, the sum over all records of (value - initial) must equal the committed
 * increments of that column, and no value may be below its initial one. A lost update, a torn or
 * duplicated install, or a write that escaped an aborted attempt breaks the equality.
 */

/** The YCSB workload: mixes A, B and txn16 over a table of rows of long columns. */
public final class YcsbWorkload implements Workload {
    /** At most this many draws look for a key not yet in the transaction before a repeat is kept. */
    private static final int DISTINCT_KEY_DRAWS = 64;

    /**
     * A validated YCSB configuration.
     *
     * @param mix        the transaction mix
     * @param records    records in the table
     * @param theta      Zipf skew in [0, 1)
     * @param writeRatio fraction of operations that write
     * @param columns    columns per row
     * @param layout     how a row is stored
     * @param blindWrites whether writes are blind commit-time increments (record layouts)
     * @param scrambledKeys whether Zipf ranks are hashed to keys (YCSB's scrambled Zipfian, the
     *                   default) or a rank is its key (rank 0, the hottest, is key 0; the C++ STO's
     *                   YCSB draws keys this way, so its hottest rows are its first-loaded ones)
     * @param seed       the run's seed
     */
    public record Config(YcsbMix mix, int records, double theta, double writeRatio, int columns, YcsbLayout layout,
                         boolean blindWrites, boolean scrambledKeys, long seed) {
        public Config {
            Objects.requireNonNull(mix, "mix");
            Objects.requireNonNull(layout, "layout");
            if (records < 1 || columns < 1 || !(theta >= 0 && theta < 1) || !(writeRatio >= 0 && writeRatio <= 1)) {
                throw new IllegalArgumentException("invalid YCSB configuration: " + records + " records, " + columns
                        + " columns, theta " + theta + ", write ratio " + writeRatio);
            }
            if (layout.isRecord() && columns != YcsbColumns.COUNT) {
                throw new IllegalArgumentException("layout " + layout.cliName() + " stores exactly " + YcsbColumns.COUNT
                        + " columns (the YcsbRow record), not " + columns);
            }
            if (blindWrites && !layout.isRecord()) {
                throw new IllegalArgumentException("blind (commit-time) writes need a record layout, not " + layout.cliName());
            }
        }

        /** A configuration with scrambled keys. */
        public Config(YcsbMix mix, int records, double theta, double writeRatio, int columns, YcsbLayout layout,
                      boolean blindWrites, long seed) {
            this(mix, records, theta, writeRatio, columns, layout, blindWrites, true, seed);
        }

        /** The historical configuration: copy-on-write rows, read-modify-write updates, scrambled keys. */
        public Config(YcsbMix mix, int records, double theta, double writeRatio, int columns, long seed) {
            this(mix, records, theta, writeRatio, columns, YcsbLayout.ROWS, false, true, seed);
        }
    }

    private final Stm stm;
    private final Config config;
    /** Rows of the {@code rows} layout; null otherwise. */
    private final TxLongHashMap<long[]> table;
    /** Rows of the record layouts; null otherwise. */
    private final TxLongHashMap<YcsbRow> records;
    private final ZipfianDistribution distribution;
    private final List<YcsbWorker> workers = new ArrayList<>();
    /**
     * Whether {@link #load} has run: the table holds record ids 0 .. records - 1. Written once by
     * the thread that loads, before the runner starts the workers; read by {@link #newWorker} on
     * each worker thread, which {@code Thread.start} orders after the write (a plain field).
     */
    private boolean loaded;
    /** With --durable: where and how the table is logged; null for an in-memory run. */
    private DurabilityOptions durable;
    /** The open durable store, from {@link #load} to the end of {@link #check}; null otherwise. */
    private DurableStore store;
    /** The write side of the rows layout's table in a durable run (record rows log themselves). */
    private DurableLongMap<long[]> rowLog;
    /** Per column, its growth summed over the records when the run started (non-zero after a recovery). */
    private long[] startGrowth;
    private String opened = "";

    public YcsbWorkload(Stm stm, Config config) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.config = Objects.requireNonNull(config, "config");
        boolean rec = config.layout().isRecord();
        this.table = rec ? null : new TxLongHashMap<>(stm, config.records());
        // Records are updated in place and never replaced or deleted: an insert-only index, whose
        // lookups cost no entry under OCC (the rows layout replaces whole rows, so not that one).
        this.records = rec ? TxLongHashMap.insertOnly(stm, config.records()) : null;
        this.distribution = new ZipfianDistribution(config.records(), config.theta());
    }

    /** Makes the run durable (before {@link #load}): the table lives in a durable store in the options' directory. */
    void durable(DurabilityOptions options) {
        this.durable = Objects.requireNonNull(options, "options");
    }

    @Override
    public String name() {
        return "ycsb";
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mix", config.mix().cliName());
        m.put("records", config.records());
        m.put("theta", config.theta());
        m.put("write_ratio", config.writeRatio());
        m.put("columns", config.columns());
        m.put("ops_per_txn", config.mix().operations());
        m.put("layout", config.layout().cliName());
        m.put("writes", config.blindWrites() ? "updater" : "rmw");
        m.put("keys", config.scrambledKeys() ? "scrambled" : "ranked");
        if (durable != null) {
            m.put("durability", durable.mode().name().toLowerCase(Locale.ROOT));
            m.put("durable_dir", durable.dir().toString());
            m.put("checkpoint_s", durable.checkpointMillis() / 1000);
        }
        return m;
    }

    /** @return the value column {@code c} of record {@code r} holds after loading */
    static long initialValue(int r, int c, int columns) {
        return (long) r * columns + c;
    }

    @Override
    public void load(Loader loader) {
        if (durable == null) {
            loadTable(loader);
        } else {
            openDurable(loader);
        }
        // A fresh table starts at its initial values; a recovered one where the last run left it.
        startGrowth = durable == null ? new long[config.columns()] : growth();
    }

    /**
     * Opens the store over the (empty) table: loads and checkpoints it if the directory is empty,
     * else recovers it and checks that it holds the table asked for.
     */
    private void openDurable(Loader loader) {
        RecordLayout layout = config.layout() == YcsbLayout.SPLIT ? RecordLayout.SPLIT : RecordLayout.COARSE;
        DurableStore.Builder b = DurableStore.builder(durable.dir(), stm).mode(durable.mode())
                .checkpointMillis(durable.checkpointMillis());
        if (table != null) {
            b.longMap("ycsb", table, Codecs.longArrays());
        } else {
            b.longMap("ycsb-records", records, Codecs.records(() -> YcsbRow.create(stm, layout)));
        }
        store = b.open();
        try {
            int found = table != null ? table.single().size() : records.single().size();
            if (found == 0) {
                loadTable(loader);
                store.adoptLoaded();
                opened = "loaded and checkpointed";
            } else {
                if (found != config.records()) {
                    throw new IllegalStateException(durable.dir() + " holds " + found + " records, --records asks for "
                            + config.records());
                }
                loaded = true;
                opened = "recovered: " + store.recoveryReport();
            }
            if (table != null) {
                rowLog = store.longMap("ycsb");
            }
        } catch (RuntimeException | Error e) {
            store.close();
            store = null;
            throw e;
        }
    }

    private void loadTable(Loader loader) {
        int n = config.records();
        int columns = config.columns();
        RecordLayout recordLayout = config.layout() == YcsbLayout.SPLIT ? RecordLayout.SPLIT : RecordLayout.COARSE;
        loader.parallelFor("records", n, (from, to) -> {
            for (int r = from; r < to; r++) {
                long key = r;
                if (records != null) {
                    YcsbRow.Image init = new YcsbRow.Image();
                    for (int c = 0; c < columns; c++) {
                        YcsbColumns.set(init, c, initialValue(r, c, columns));
                    }
                    records.single().put(key, YcsbRow.create(stm, recordLayout, init));
                } else {
                    long[] row = new long[columns];
                    for (int c = 0; c < columns; c++) {
                        row[c] = initialValue(r, c, columns);
                    }
                    table.single().put(key, row);
                }
            }
        });
        loaded = true;
    }

    @Override
    public Worker newWorker(int index) {
        if (!loaded) {
            throw new IllegalStateException("load() must run before newWorker()");
        }
        YcsbWorker w = new YcsbWorker(index);
        synchronized (workers) {
            workers.add(w);
        }
        return w;
    }

    @Override
    public CheckResult check() {
        try {
            return checkTable();
        } finally {
            if (store != null) {
                store.close(); // everything committed becomes durable
            }
        }
    }

    /** @return per column, its growth over the initial values summed over every record (null if one is missing) */
    private long[] growth() {
        int columns = config.columns();
        long[] grown = new long[columns];
        for (int r = 0, n = config.records(); r < n; r++) {
            long[] row = committedRow(r);
            if (row == null || row.length != columns) {
                return null;
            }
            for (int c = 0; c < columns; c++) {
                grown[c] += row[c] - initialValue(r, c, columns);
            }
        }
        return grown;
    }

    private CheckResult checkTable() {
        int columns = config.columns();
        long[] expected = new long[columns];
        if (startGrowth == null) {
            return CheckResult.failed("a record was missing or malformed when the run started");
        }
        for (int c = 0; c < columns; c++) {
            expected[c] = startGrowth[c];
        }
        synchronized (workers) {
            for (YcsbWorker w : workers) {
                for (int c = 0; c < columns; c++) {
                    expected[c] += w.committedIncrements[c];
                }
            }
        }
        long[] grown = new long[columns];
        int recordCount = config.records();
        for (int r = 0; r < recordCount; r++) {
            long[] row = committedRow(r);
            if (row == null) {
                return CheckResult.failed("record " + r + " is missing");
            }
            if (row.length != columns) {
                return CheckResult.failed("record " + r + " has " + row.length + " columns, expected " + columns);
            }
            for (int c = 0; c < columns; c++) {
                long delta = row[c] - initialValue(r, c, columns);
                if (delta < 0) {
                    return CheckResult.failed("record " + r + " column " + c + " is " + row[c] + ", below its initial "
                            + initialValue(r, c, columns) + " (values only grow)");
                }
                grown[c] += delta;
            }
        }
        long total = 0;
        for (int c = 0; c < columns; c++) {
            if (grown[c] != expected[c]) {
                return CheckResult.failed(String.format(Locale.ROOT,
                        "column %d grew by %,d over all records but %,d increments of it committed (%,d before the run)",
                        c, grown[c], expected[c] - startGrowth[c], startGrowth[c]));
            }
            total += expected[c] - startGrowth[c];
        }
        int size = table != null ? table.single().size() : records.single().size();
        if (size != recordCount) {
            return CheckResult.failed("the table holds " + size + " records, expected " + recordCount);
        }
        String stuck = quiescence();
        if (stuck != null) {
            return CheckResult.failed("table not quiescent after the run: " + stuck);
        }
        return CheckResult.ok(String.format(Locale.ROOT,
                (opened.isEmpty() ? "" : "store " + opened + "; ") + "%,d committed increments = growth of the %d columns summed over %,d records; no item left locked",
                total, columns, recordCount));
    }

    /** The table of the {@code rows} layout, for tests. */
    TxLongHashMap<long[]> table() {
        return table;
    }

    /** The table of the record layouts, for tests. */
    TxLongHashMap<YcsbRow> records() {
        return records;
    }

    /** @return the committed columns of the row with {@code key}, or null if it is missing */
    long[] committedRow(long key) {
        if (table != null) {
            return table.single().get(key);
        }
        YcsbRow row = records.single().get(key);
        if (row == null) {
            return null;
        }
        YcsbRow.Image im = row.single().get();
        long[] values = new long[YcsbColumns.COUNT];
        for (int c = 0; c < values.length; c++) {
            values[c] = YcsbColumns.get(im, c);
        }
        return values;
    }

    private String quiescence() {
        if (table != null) {
            return table.checkQuiescent();
        }
        String p = records.checkQuiescent();
        for (int r = 0, n = config.records(); p == null && r < n; r++) {
            p = records.single().get(r).checkQuiescent();
            if (p != null) {
                p = "record " + r + ": " + p;
            }
        }
        return p;
    }

    /** @return a seed for worker {@code index} that does not collide with the others' (SplitMix64 finaliser) */
    private static long workerSeed(long seed, int index) {
        long z = seed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** One thread's generators, transaction buffers and committed-increment counters. */
    private final class YcsbWorker implements Worker {
        private final SplittableRandom random;
        private final ZipfianGenerator keyGenerator;
        private final TxLongHashMap<long[]> map = table;
        private final TxLongHashMap<YcsbRow> rows = records;
        /** The rows layout's write side in a durable run, else null. */
        private final DurableLongMap<long[]> log = rowLog;
        /** In durable mode: the store whose disk a writing transaction waits for. */
        private final DurableStore waitFor = durable != null && durable.mode() == DurabilityMode.DURABLE ? store : null;
        private final boolean blind = config.blindWrites();
        private final int columns = config.columns();
        private final int operations = config.mix().operations();
        private final double writeRatio = config.writeRatio();
        private final boolean wholeRow = config.mix().readsWholeRow();

        /** The current transaction: key index, column and kind of each operation. */
        private final int[] opKey = new int[operations];
        private final int[] opColumn = new int[operations];
        private final boolean[] opWrite = new boolean[operations];
        /**
         * The keys again as map keys, and the records one batch lookup of them found
         * (TxLongHashMap.getAll). Only the record layouts batch: their rows are never replaced, so
         * a key drawn twice finds the same row either way, where the row-array layout's second get
         * must see the first operation's put.
         */
        private final long[] opMapKey = new long[operations];
        private final YcsbRow[] opRows = new YcsbRow[operations];

        /** Increments per column of the transactions this worker committed; read by check(). */
        final long[] committedIncrements = new long[columns];
        /** Folds what reads return so that the JIT cannot drop them. */
        private long sink;

        private final TxnRunnable updateBody = this::execute;
        private final TxnFunction<Object> readBody = txn -> {
            execute(txn);
            return null;
        };

        YcsbWorker(int index) {
            SplittableRandom root = new SplittableRandom(workerSeed(config.seed(), index));
            this.keyGenerator = new ZipfianGenerator(distribution, root.split(), config.scrambledKeys());
            this.random = root;
        }

        @Override
        public boolean runOne() {
            boolean writes = draw();
            if (writes) {
                stm.run(updateBody);
                if (waitFor != null) {
                    waitFor.awaitDurable();
                }
                for (int i = 0; i < operations; i++) {
                    if (opWrite[i]) {
                        committedIncrements[opColumn[i]]++;
                    }
                }
            } else {
                stm.readOnly(readBody);
            }
            return true;
        }

        /** Draws the next transaction's operations; returns whether any writes. */
        private boolean draw() {
            boolean writes = false;
            for (int i = 0; i < operations; i++) {
                int k = (int) keyGenerator.next();
                for (int tries = 1; tries < DISTINCT_KEY_DRAWS && contains(opKey, i, k); tries++) {
                    k = (int) keyGenerator.next();
                }
                opKey[i] = k;
                opMapKey[i] = k;
                opColumn[i] = random.nextInt(columns);
                boolean w = random.nextDouble() < writeRatio;
                opWrite[i] = w;
                writes |= w;
            }
            return writes;
        }

        private boolean contains(int[] a, int n, int k) {
            for (int i = 0; i < n; i++) {
                if (a[i] == k) {
                    return true;
                }
            }
            return false;
        }

        /** The transaction body: runs the drawn operations (possibly several times, once per attempt). */
        private void execute(Txn txn) {
            if (rows != null) {
                executeOnRecords(txn);
                return;
            }
            long s = 0;
            for (int i = 0; i < operations; i++) {
                long key = opKey[i];
                long[] row = map.get(txn, key);
                int c = opColumn[i];
                if (opWrite[i]) {
                    long[] copy = row.clone();
                    copy[c] = row[c] + 1;
                    if (log != null) {
                        log.put(txn, key, copy);
                    } else {
                        map.put(txn, key, copy);
                    }
                } else if (wholeRow) {
                    for (long v : row) {
                        s += v;
                    }
                } else {
                    s += row[c];
                }
            }
            sink += s;
        }

        private void executeOnRecords(Txn txn) {
            long s = 0;
            // Every key first, in one batch: the lookups' cache misses overlap.
            rows.getAll(txn, opMapKey, operations, opRows);
            for (int i = 0; i < operations; i++) {
                YcsbRow row = opRows[i];
                int c = opColumn[i];
                if (opWrite[i]) {
                    if (blind) {
                        row.update(txn, YcsbColumns.increment(c));
                    } else {
                        YcsbColumns.set(txn, row, c, YcsbColumns.get(txn, row, c) + 1);
                    }
                } else if (wholeRow) {
                    for (int k = 0; k < YcsbColumns.COUNT; k++) {
                        s += YcsbColumns.get(txn, row, k);
                    }
                } else {
                    s += YcsbColumns.get(txn, row, c);
                }
            }
            sink += s;
        }
    }
}
