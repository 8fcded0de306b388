package io.jato.ycsb;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.jato.collections.TxSortedMap;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.Txn;
import site.ycsb.Client;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.WorkloadException;
import site.ycsb.workloads.CoreWorkload;

/**
 * The Jato store behind YCSB's client threads: one per JVM at a time, shared by every
 * {@link JatoYcsbDb} instance (YCSB makes one per client thread) and by {@link JatoWorkload}.
 * Each of them {@link #acquire acquires} it in its {@code init} and {@link #release releases} it in
 * its {@code cleanup}; the first acquisition builds the store from the properties, the last release
 * prints its statistics and drops it, so the next acquisition starts empty.
 *
 * <p>A table is a {@link TxSortedMap} from record key to {@link Row}, created on first use: scans
 * walk keys in {@link String#compareTo} order and are phantom-safe. The operations below take the
 * caller's transaction; they never catch Jato's {@code RollbackSignal}, so they can run inside any
 * transaction of the store, one per transaction or several.
 */
final class YcsbStore {
    /** The store's name in Jato's messages and statistics. */
    static final String NAME = "ycsb";

    private static final Object REGISTRY = new Object();
    private static YcsbStore current;
    private static int users;

    private final Stm stm;
    private final Settings settings;
    private final ConcurrentHashMap<String, TxSortedMap<String, Row>> tables = new ConcurrentHashMap<>();
    private final Object loadLock = new Object();
    private boolean loadDone;
    private volatile StmStatistics baseline;

    private YcsbStore(Stm stm, Settings settings) {
        this.stm = stm;
        this.settings = settings;
        this.baseline = stm.statistics();
    }

    /**
     * Returns the JVM's store, building it from {@code settings} if none is open, and counts one more
     * user; every call must be paired with one {@link #release()}.
     *
     * @throws DBException if the store cannot be built (an unknown protocol or option: the message
     *                     names it and lists what is known), or if the open store was built with
     *                     another protocol or other options than {@code settings} ask for
     */
    static YcsbStore acquire(Settings settings) throws DBException {
        synchronized (REGISTRY) {
            if (current == null) {
                Stm.Builder b = Stm.builder().name(NAME).protocol(settings.protocol());
                settings.options().forEach(b::option);
                Stm stm;
                try {
                    stm = b.build();
                } catch (IllegalArgumentException e) {
                    throw new DBException("cannot build the Jato store (" + Settings.PROTOCOL + "=" + settings.protocol()
                            + (settings.options().isEmpty() ? "" : ", " + Settings.OPTIONS + "=" + settings.options())
                            + "): " + e.getMessage(), e);
                }
                current = new YcsbStore(stm, settings);
            } else if (!current.settings.sameStore(settings)) {
                throw new DBException("a Jato store with " + current.settings.describeStore() + " is open in this JVM ("
                        + users + " users); these properties ask for " + settings.describeStore()
                        + ": one JVM holds one store at a time");
            }
            users++;
            return current;
        }
    }

    /**
     * Gives back one use. The last prints the statistics of the transactions since the load (unless
     * {@code jato.stats=false}) to {@code out} and drops the store.
     *
     * @throws IllegalStateException if this store is no longer the open one (released too often)
     */
    void release(PrintStream out) {
        synchronized (REGISTRY) {
            if (current != this || users == 0) {
                throw new IllegalStateException("this Jato store was released more often than acquired");
            }
            if (--users == 0) {
                current = null;
                if (settings.stats()) {
                    printStatistics(out);
                }
            }
        }
    }

    /** @return the number of {@link #acquire} calls not yet released (for tests) */
    static int users() {
        synchronized (REGISTRY) {
            return users;
        }
    }

    Stm stm() {
        return stm;
    }

    Settings settings() {
        return settings;
    }

    /** @return the table named {@code name}, created empty on first use */
    TxSortedMap<String, Row> table(String name) {
        Objects.requireNonNull(name, "table");
        TxSortedMap<String, Row> t = tables.get(name);
        return t != null ? t : tables.computeIfAbsent(name, n -> new TxSortedMap<>(stm));
    }

    /** @return the statistics of the transactions since the load (or since the store was built) */
    StmStatistics statistics() {
        return stm.statistics().minus(baseline);
    }

    private void printStatistics(PrintStream out) {
        StmStatistics s = statistics();
        out.println("[JATO], Protocol, " + settings.describeStore());
        out.println("[JATO], Commits, " + s.commits());
        out.println("[JATO], Aborts, " + s.aborts());
        out.println("[JATO], AbortRate(%), " + String.format(java.util.Locale.ROOT, "%.3f", 100 * s.abortRate()));
        for (Map.Entry<AbortCause, Long> e : s.abortsByCause().entrySet()) {
            out.println("[JATO], Aborts(" + e.getKey() + "), " + e.getValue());
        }
        out.flush();
    }

    /**
     * Loads the records of YCSB's load phase, once per store, when the properties ask for a
     * transaction run ({@code -t}) of a {@link CoreWorkload}: the run phase reads records that, with
     * a store living in the client's JVM, no earlier {@code -load} run can have left behind. The
     * records are made by a {@link CoreWorkload} built from the same properties, so keys, field
     * names, lengths and (with {@code dataintegrity=true}) contents are exactly those of a
     * {@code -load} run: {@code insertcount} (default {@code recordcount}) records from
     * {@code insertstart}. Loading uses the maps' non-transactional views, not transactions, and the
     * statistics printed at the end start after it.
     *
     * @param log         where to say what was loaded (YCSB's client prints its own progress to stderr)
     * @param beforeClock whether the caller runs before YCSB starts timing (the workload's init) or
     *                    inside the timed run (a database's init), for the message
     * @return whether this call loaded (false: done before, not asked for, or nothing to load)
     * @throws DBException if the workload cannot be initialized from the properties
     */
    boolean preloadOnce(Properties props, PrintStream log, boolean beforeClock) throws DBException {
        synchronized (loadLock) {
            if (loadDone) {
                return false;
            }
            loadDone = true;
            if (!settings.preload() || !Boolean.parseBoolean(props.getProperty(Client.DO_TRANSACTIONS_PROPERTY, "true"))) {
                return false;
            }
            String workload = props.getProperty(Client.WORKLOAD_PROPERTY);
            if (!isWorkload(workload, CoreWorkload.class)) {
                if (workload == null) {
                    return false; // not run by YCSB's client, which requires the property
                }
                log.println("[JATO] no records loaded before the run: " + Client.WORKLOAD_PROPERTY + "=" + workload
                        + " is not a CoreWorkload (set " + Settings.PRELOAD + "=false to silence this)");
                return false;
            }
            long recordCount = Long.parseLong(props.getProperty(Client.RECORD_COUNT_PROPERTY, Client.DEFAULT_RECORD_COUNT));
            long count = props.containsKey(Client.INSERT_COUNT_PROPERTY)
                    ? Long.parseLong(props.getProperty(Client.INSERT_COUNT_PROPERTY)) : recordCount;
            if (count <= 0) {
                log.println("[JATO] no records loaded before the run: " + Client.RECORD_COUNT_PROPERTY + " is "
                        + recordCount + " (set it, as YCSB's workload files do)");
                return false;
            }
            long start = System.nanoTime();
            CoreWorkload loader = new CoreWorkload();
            try {
                loader.init(props);
            } catch (WorkloadException e) {
                throw new DBException("cannot build the workload that makes the records to load: " + e.getMessage(), e);
            }
            Loader db = new Loader(this);
            int threads = loadThreads(props, count);
            AtomicLong claimed = new AtomicLong();
            Runnable load = () -> {
                while (claimed.getAndIncrement() < count) {
                    loader.doInsert(db, null);
                }
            };
            runOnThreads(threads, load);
            baseline = stm.statistics();
            log.printf(java.util.Locale.ROOT, "[JATO] loaded %d records on %d threads in %.1f s (%s=%s), %s%n",
                    db.loaded.get(), threads,
                    (System.nanoTime() - start) / 1e9, Settings.PROTOCOL, settings.protocol(), beforeClock
                            ? "before the measured run"
                            : "inside YCSB's measured run time (-p " + Client.WORKLOAD_PROPERTY + "="
                                    + JatoWorkload.class.getName() + " loads before the clock starts)");
            return true;
        }
    }

    /** As many loading threads as the run has client threads, at most one per processor. */
    private static int loadThreads(Properties props, long count) {
        int clientThreads;
        try {
            clientThreads = Integer.parseInt(props.getProperty(Client.THREAD_COUNT_PROPERTY, "1").trim());
        } catch (NumberFormatException e) {
            clientThreads = 1;
        }
        long n = Math.min(Math.min(clientThreads, Runtime.getRuntime().availableProcessors()), count);
        return (int) Math.max(1, n);
    }

    /** Runs {@code task} on {@code threads} threads (this one among them) and waits for all. */
    private static void runOnThreads(int threads, Runnable task) throws DBException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable guarded = () -> {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                failure.compareAndSet(null, e);
            }
        };
        List<Thread> others = new ArrayList<>();
        for (int i = 1; i < threads; i++) {
            Thread t = new Thread(guarded, "jato-ycsb-load-" + i);
            t.setDaemon(true);
            t.start();
            others.add(t);
        }
        guarded.run();
        try {
            for (Thread t : others) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DBException("interrupted while loading the records", e);
        }
        if (failure.get() != null) {
            throw new DBException("loading the records failed: " + failure.get(), failure.get());
        }
    }

    /** @return whether {@code className} names {@code type} or a subclass of it */
    static boolean isWorkload(String className, Class<?> type) {
        if (className == null) {
            return false;
        }
        try {
            return type.isAssignableFrom(Class.forName(className.trim(), false, YcsbStore.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The load phase's target: inserts through the maps' non-transactional views. */
    private static final class Loader extends site.ycsb.DB {
        private final YcsbStore store;
        final AtomicLong loaded = new AtomicLong();

        Loader(YcsbStore store) {
            this.store = store;
        }

        @Override
        public Status insert(String table, String key, Map<String, site.ycsb.ByteIterator> values) {
            store.table(table).single().put(key, Row.create(store.stm, Fields.of(values)));
            loaded.incrementAndGet();
            return Status.OK;
        }

        @Override
        public Status read(String table, String key, Set<String> fields, Map<String, site.ycsb.ByteIterator> result) {
            return Status.NOT_IMPLEMENTED;
        }

        @Override
        public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                           java.util.Vector<java.util.HashMap<String, site.ycsb.ByteIterator>> result) {
            return Status.NOT_IMPLEMENTED;
        }

        @Override
        public Status update(String table, String key, Map<String, site.ycsb.ByteIterator> values) {
            return Status.NOT_IMPLEMENTED;
        }

        @Override
        public Status delete(String table, String key) {
            return Status.NOT_IMPLEMENTED;
        }
    }

    // ---- the operations, inside the caller's transaction ----

    /** Collects the record's requested fields (all if {@code fields} is null) into {@code out}. */
    static Status read(Txn txn, TxSortedMap<String, Row> table, String key, Set<String> fields, Fields out) {
        Row row = table.get(txn, key);
        if (row == null) {
            return Status.NOT_FOUND;
        }
        row.read(txn, fields, out);
        return Status.OK;
    }

    /**
     * Collects up to {@code count} records from {@code startKey} on, in key order, into {@code out}
     * (one {@link Fields} per record, reusing those already in the list).
     *
     * @return how many records were collected
     */
    static int scan(Txn txn, TxSortedMap<String, Row> table, String startKey, int count, Set<String> fields,
                    List<Fields> out) {
        ArrayList<Row> rows = new ArrayList<>(Math.min(count, 1024));
        table.scan(txn, startKey, true, null, false, count, false, (k, row) -> rows.add(row));
        for (int i = 0; i < rows.size(); i++) {
            if (i == out.size()) {
                out.add(new Fields());
            }
            Fields f = out.get(i);
            f.clear();
            rows.get(i).read(txn, fields, f);
        }
        return rows.size();
    }

    /** Merges {@code values} into the record: fields it names are replaced, the others kept. */
    static Status update(Txn txn, TxSortedMap<String, Row> table, String key, Fields values) {
        Row row = table.get(txn, key);
        if (row == null) {
            return Status.NOT_FOUND;
        }
        Row updated = row.update(txn, values);
        if (updated != row) {
            table.put(txn, key, updated);
        }
        return Status.OK;
    }

    /** Stores a record of exactly {@code values}, replacing any record of that key. */
    static Status insert(Txn txn, TxSortedMap<String, Row> table, String key, Fields values) {
        table.put(txn, key, Row.create(txn.stm(), values));
        return Status.OK;
    }

    static Status delete(Txn txn, TxSortedMap<String, Row> table, String key) {
        return table.remove(txn, key) == null ? Status.NOT_FOUND : Status.OK;
    }
}
