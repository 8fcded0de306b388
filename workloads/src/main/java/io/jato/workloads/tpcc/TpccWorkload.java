package io.jato.workloads.tpcc;

import io.jato.durable.DurabilityMode;
import io.jato.stm.Stm;
import io.jato.workloads.CheckResult;
import io.jato.workloads.Workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicIntegerArray;

/*
 * Terminals and deferred delivery. Worker i serves the warehouses w with (w - 1) % threads == i
 * when there are at least as many warehouses as threads, else warehouse i % W + 1; it rotates its
 * home warehouse per transaction. Delivery is deferred as clause 2.7.2 requires: drawing a delivery
 * only queues it for the home warehouse (a counter per warehouse), and the warehouse's delivery
 * owner - worker (w - 1) % threads - runs queued deliveries before it draws new work. So every
 * call of runOne runs exactly one transaction, and the executed mix stays 45/43/4/4/4 as long as
 * owners keep up (they always run the queue first).
 */

/** The TPC-C workload for the runner: the standard mix over a loaded database, and its checks. */
public final class TpccWorkload implements Workload {
    /** Number of transaction types, in {@link TpccMix.Type} order. */
    private static final int TYPES = TpccMix.Type.values().length;
    /** The types' names as reported ({@code new-order}, ...), in {@link TpccMix.Type} order. */
    private static final List<String> TYPE_NAMES = Arrays.stream(TpccMix.Type.values())
            .map(TpccMix.Type::cliName).toList();

    private final TpccDatabase db;
    private final TpccMode mode;
    private final int threads;
    private final long seed;
    private final AtomicIntegerArray queuedDeliveries;
    /** The one type every worker runs, or null for a mix (with deferred delivery). */
    private final TpccMix.Type only;
    /** The mix's weights per type when {@link #only} is null; never written after construction. */
    private final int[] mixWeights;
    private final List<TpccWorker> workers = new ArrayList<>();
    /** With {@code --durable}: where and how the tables are logged; null for an in-memory run. */
    private Path durableDir;
    private DurabilityMode durabilityMode;
    private long checkpointMillis;
    /** The open durable store, from {@link #load} to the end of {@link #check}; read by workers after their start. */
    private TpccDurability durability;

    /**
     * @param threads the number of worker threads the runner will start (decides terminal and
     *                delivery ownership)
     */
    public TpccWorkload(Stm stm, int warehouses, TpccMode mode, int threads, long seed) {
        this(stm, warehouses, mode, TpccOrderIds.Policy.STRICT, threads, seed);
    }

    /** As {@link #TpccWorkload(Stm, int, TpccMode, int, long)}, with new-order's O_ID as {@code orderIds} says. */
    TpccWorkload(Stm stm, int warehouses, TpccMode mode, TpccOrderIds.Policy orderIds, int threads, long seed) {
        this(stm, warehouses, mode, orderIds, TpccTables.DEFAULT, null, threads, seed);
    }

    /**
     * As {@link #TpccWorkload(Stm, int, TpccMode, TpccOrderIds.Policy, int, long)}, with the tables
     * bound to protocols as {@code tables} says, running only transactions of type {@code only} (null:
     * the standard mix). A single type runs without the mix's deferral: a delivery is executed by the
     * worker that draws it, for its home warehouse, as any other type is.
     *
     * @throws IllegalArgumentException if {@code stm} was not built with a protocol {@code tables} names
     */
    TpccWorkload(Stm stm, int warehouses, TpccMode mode, TpccOrderIds.Policy orderIds, TpccTables tables,
                 TpccMix.Type only, int threads, long seed) {
        this(stm, warehouses, mode, orderIds, tables, only, TpccMix.standardWeights(), threads, seed);
    }

    /**
     * As the constructor above; without {@code only}, the workers draw types with {@code mixWeights}
     * (one per {@link TpccMix.Type}, as {@link TpccMix#parseWeights} returns them), deliveries
     * deferred as in the standard mix. A mix that weighs one type only runs that type alone.
     */
    TpccWorkload(Stm stm, int warehouses, TpccMode mode, TpccOrderIds.Policy orderIds, TpccTables tables,
                 TpccMix.Type only, int[] mixWeights, int threads, long seed) {
        this.mode = Objects.requireNonNull(mode, "mode");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        this.db = new TpccDatabase(stm, warehouses, mode.layout(), seed, orderIds, tables);
        this.threads = threads;
        this.seed = seed;
        this.queuedDeliveries = new AtomicIntegerArray(warehouses + 1);
        TpccMix.Type sole = TpccMix.soleType(mixWeights);
        this.only = only != null ? only : sole;
        this.mixWeights = TpccMix.checkWeights(mixWeights.clone());
    }

    /**
     * Makes the run durable (before {@link #load}): the tables are logged into {@code dir}, which
     * is loaded if empty and recovered otherwise (see {@link TpccDurability}).
     *
     * @param checkpointMillis background checkpoint period, 0 for none
     */
    void durable(Path dir, DurabilityMode mode, long checkpointMillis) {
        this.durableDir = Objects.requireNonNull(dir, "dir");
        this.durabilityMode = Objects.requireNonNull(mode, "mode");
        this.checkpointMillis = checkpointMillis;
    }

    @Override
    public String name() {
        return "tpcc";
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("warehouses", db.warehouses());
        m.put("mode", mode.cliName());
        m.put("order_ids", db.orderIds.policy().cliName());
        m.put("mix", only == null ? TpccMix.describe(mixWeights) : only.cliName());
        if (durableDir != null) {
            m.put("durability", durabilityMode.name().toLowerCase(Locale.ROOT));
            m.put("durable_dir", durableDir.toString());
            m.put("checkpoint_s", checkpointMillis / 1000);
        }
        return m;
    }

    /** @return the tables bound to a protocol other than the store's default, e.g. {@code stock -> tictoc} */
    @Override
    public Map<String, String> objectProtocols() {
        return db.tables().besides(db.stm().protocol());
    }

    /** @return the five TPC-C transactions, in {@link TpccMix.Type} order */
    @Override
    public List<String> transactionTypes() {
        return TYPE_NAMES;
    }

    @Override
    public void load(Loader loader) {
        if (durableDir == null) {
            db.load(loader);
            return;
        }
        durability = new TpccDurability(db, durableDir, durabilityMode, checkpointMillis);
        try {
            durability.loadOrRecover(loader);
        } catch (RuntimeException | Error e) {
            durability.close();
            durability = null;
            throw e;
        }
    }

    @Override
    public Worker newWorker(int index) {
        TpccWorker w = new TpccWorker(index);
        synchronized (workers) {
            workers.add(w);
        }
        return w;
    }

    @Override
    public CheckResult check() {
        try {
            return checkTables();
        } finally {
            if (durability != null) {
                durability.close(); // everything committed becomes durable
            }
        }
    }

    private CheckResult checkTables() {
        long[] committed = new long[TYPES];
        long rollbacks = 0;
        synchronized (workers) {
            for (TpccWorker w : workers) {
                for (int t = 0; t < TYPES; t++) {
                    committed[t] += w.committed[t];
                }
                rollbacks += w.rollbacks;
            }
        }
        List<TpccConsistency.Violation> violations = TpccConsistency.check(db);
        if (!violations.isEmpty()) {
            StringBuilder sb = new StringBuilder(violations.size() + " consistency violation(s):");
            for (int i = 0; i < Math.min(10, violations.size()); i++) {
                sb.append("\n    ").append(violations.get(i));
            }
            return CheckResult.failed(sb.toString());
        }
        String stuck = db.checkQuiescent();
        if (stuck != null) {
            return CheckResult.failed("not quiescent after the run: " + stuck);
        }
        long total = 0;
        for (long c : committed) {
            total += c;
        }
        StringBuilder mix = new StringBuilder();
        for (int t = 0; t < TYPES; t++) {
            mix.append(t == 0 ? "" : ", ").append(TYPE_NAMES.get(t))
                    .append(String.format(Locale.ROOT, " %.1f%%", total == 0 ? 0.0 : 100.0 * committed[t] / total));
        }
        return CheckResult.ok(String.format(Locale.ROOT,
                "%sconsistency conditions 1-10 and 12 hold%s, nothing locked; executed mix (all phases): %s;"
                        + " %,d new-order rollbacks", durability == null ? "" : "store " + durability.opened() + "; ",
                db.orderIds.fast() ? " (2 and 3 in their fast-order-id form)" : "", mix, rollbacks));
    }

    /** The database, for tests. */
    TpccDatabase database() {
        return db;
    }

    /** One worker thread: its terminals (one per home warehouse) and its per-type counters. */
    final class TpccWorker implements Worker {
        /** Its terminals; package-private for tests (TpccKillRecoverTest reads what they committed). */
        final TpccTransactions[] terminals;
        /** Warehouses whose deferred deliveries this worker runs. */
        private final int[] owned;
        private int next;
        /** Per type, transactions this worker committed (all phases); read by check() after the run. */
        final long[] committed = new long[TYPES];
        long rollbacks;
        /** The {@link TpccMix.Type} ordinal of the transaction the last runOne ran. */
        private int lastType;

        TpccWorker(int index) {
            int warehouses = db.warehouses();
            List<Integer> homes = new ArrayList<>();
            List<Integer> mine = new ArrayList<>();
            for (int w = 1; w <= warehouses; w++) {
                if ((w - 1) % threads == index) {
                    homes.add(w);
                    mine.add(w);
                }
            }
            if (homes.isEmpty()) {
                homes.add(index % warehouses + 1);
            }
            terminals = new TpccTransactions[homes.size()];
            for (int i = 0; i < terminals.length; i++) {
                // Terminal numbers name HISTORY rows, so they must differ across the workers' terminals:
                // worker index's i-th is index + i * threads (below warehouses + threads).
                terminals[i] = new TpccTransactions(db, mode, index + i * threads, homes.get(i),
                        seed * 31 + index * 1_000_003L + i, mixWeights);
            }
            owned = mine.stream().mapToInt(Integer::intValue).toArray();
        }

        @Override
        public boolean runOne() {
            for (int w : owned) {
                if (queuedDeliveries.get(w) > 0) {
                    queuedDeliveries.decrementAndGet(w);
                    TpccTransactions t = terminalFor(w);
                    t.drawDelivery();
                    lastType = TpccMix.Type.DELIVERY.ordinal();
                    t.executeDelivery();
                    committed[lastType]++;
                    if (durability != null) {
                        durability.committed();
                    }
                    return true;
                }
            }
            TpccTransactions t = terminals[next];
            next = next + 1 == terminals.length ? 0 : next + 1;
            if (only != null) {
                lastType = only.ordinal();
                boolean ok = t.run(only);
                if (ok) {
                    committed[lastType]++;
                    afterCommit(only);
                } else {
                    rollbacks++;
                }
                return ok;
            }
            TpccMix.Type type = t.nextType();
            while (type == TpccMix.Type.DELIVERY) {
                queuedDeliveries.incrementAndGet(t.homeWarehouse());
                type = t.nextType();
            }
            lastType = type.ordinal();
            boolean ok = t.run(type);
            if (ok) {
                committed[type.ordinal()]++;
                afterCommit(type);
            } else {
                rollbacks++;
            }
            return ok;
        }

        /** A durable run in durable mode returns from a writing transaction once it is on disk. */
        private void afterCommit(TpccMix.Type type) {
            if (durability != null && type != TpccMix.Type.ORDER_STATUS && type != TpccMix.Type.STOCK_LEVEL) {
                durability.committed();
            }
        }

        /** @return the type of the last transaction run, a deferred delivery included */
        @Override
        public int lastType() {
            return lastType;
        }

        private TpccTransactions terminalFor(int w) {
            for (TpccTransactions t : terminals) {
                if (t.homeWarehouse() == w) {
                    return t;
                }
            }
            return terminals[0];
        }
    }
}
