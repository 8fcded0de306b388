package io.jato.stm;

import io.jato.stm.internal.StoreAccess;
import io.jato.stm.internal.Tunables;
import io.jato.stm.internal.Version;
import io.jato.stm.internal.occ.OccProtocol;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;
import io.jato.stm.spi.TxnContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A transactional store: the transactional objects created for it and the concurrency-control
 * protocol that keeps their transactions serializable. There is no global instance; stores with
 * different protocols live side by side, and an object belongs to exactly one store.
 *
 * <pre>{@code
 * Stm stm = Stm.builder().protocol("occ").build();
 * TxHashMap<Long, Long> balances = new TxHashMap<>(stm);
 * long total = stm.atomic(txn -> balances.get(txn, 1L) + balances.get(txn, 2L));
 * }</pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Committed transactions are serializable, whatever protocol the store uses.</li>
 *   <li>{@link #atomic} retries a transaction that conflicts, after a randomized exponential backoff,
 *       until it commits (or {@link Builder#maxAttempts} is reached), and returns the body's result.</li>
 *   <li>An exception thrown by the body rolls the transaction back — nothing it wrote becomes visible,
 *       no lock stays held — and is rethrown unchanged; unless the body had read a state that no longer
 *       validates, in which case the exception is discarded and the transaction retried.</li>
 *   <li>{@code atomic} called inside a running transaction of the same store on the same thread joins
 *       it (flat nesting): the inner body commits or aborts with the outer transaction. Transactions of
 *       different stores are independent: nesting one store's {@code atomic} inside another's gives no
 *       atomicity across the two.</li>
 * </ul>
 *
 * <p>Each thread that runs transactions gets one reusable transaction object per store, found with one
 * thread-local lookup per transaction (not per operation). The transaction object does not keep its
 * store alive: a store nobody references is collected even while threads that used it live on.
 */
public final class Stm {
    /**
     * The length of a counter array as {@link #copyThreadCounters} fills it: attempts started,
     * transactions committed, then aborted attempts by cause in {@link AbortCause} order.
     */
    public static final int COUNTER_SLOTS = 2 + AbortCause.count();

    private final String name;
    private final String protocolName;
    private final ConcurrencyControl cc;
    private final ProtocolContext protocolContext;
    private final Capabilities capabilities;
    private final boolean statistics;
    private final long[] settings;
    /** The store-only entry points of the SPI package's transaction context. */
    private static final StoreAccess ACCESS = StoreAccess.get();

    private final ThreadLocal<TxnContext> contexts;
    private final List<TxnContext> registered = new ArrayList<>();
    /** Counters of contexts whose threads have died; guarded by {@code registered}. */
    private final long[] retired = new long[COUNTER_SLOTS];
    /** The same per transaction type (rows by type id, created when needed); guarded by {@code registered}. */
    private final long[][] retiredByType = new long[TxnType.MAX_TYPES][];

    private Stm(Builder b, Protocol protocol) {
        this.name = b.name;
        this.protocolName = protocol.name();
        this.protocolContext = ProtocolContext.create(protocol, TimeUnit.MILLISECONDS.toNanos(b.epochMillis),
                b.lockSpinLimit, b.readSpinLimit, b.options);
        this.capabilities = protocolContext.capabilities();
        this.statistics = b.statistics;
        this.settings = new long[] {b.backoffBaseNanos, b.backoffMaxNanos, b.maxAttempts};
        this.cc = protocol.create(protocolContext);
        this.contexts = new ThreadLocal<>();
    }

    /** @return a builder with the defaults: protocol {@code "occ"}, statistics on */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a store with every default (Silo-style OCC) */
    public static Stm create() {
        return builder().build();
    }

    /**
     * @return the version of Jato this library was built as, e.g. {@code "0.1.0"} (also the jars'
     *         {@code Implementation-Version}); {@code "unknown"} if the build's record of it is gone
     */
    public static String version() {
        return Version.VALUE;
    }

    /** @return the names of every protocol a builder can select, sorted */
    public static List<String> availableProtocols() {
        return new ArrayList<>(loadProtocols().keySet());
    }

    /**
     * @return what the named protocol declares it guarantees (isolation level) and offers
     * @throws IllegalArgumentException if no protocol has that name; the message lists the known ones
     */
    public static Capabilities protocolCapabilities(String protocolName) {
        return find(protocolName).capabilities();
    }

    /**
     * @return the per-store options the named protocol accepts through {@link Builder#option}, as
     *         {@code name -> "default: description"}, in the protocol's order
     * @throws IllegalArgumentException if no protocol has that name; the message lists the known ones
     */
    public static Map<String, String> protocolOptions(String protocolName) {
        Map<String, String> out = new LinkedHashMap<>();
        for (ProtocolOption o : find(protocolName).options()) {
            out.put(o.name(), o.defaultValue() + ": " + o.description());
        }
        return Collections.unmodifiableMap(out);
    }

    /** @return what this store's protocol declares it guarantees and offers */
    public Capabilities capabilities() {
        return capabilities;
    }

    /**
     * Runs {@code body} as a transaction and returns its result.
     *
     * @throws TxnAbortedException  if the body called {@link Txn#abort()} or the attempt limit was hit
     * @throws IllegalStateException if a transaction of another store runs on this thread (stores'
     *                               transactions are not joined), or this store's is committing
     */
    public <T> T atomic(TxnFunction<T> body) {
        return atomic(TxnType.UNTYPED, body);
    }

    /** {@link #atomic(TxnFunction)} as a transaction of {@code type} (statistics, protocols). */
    public <T> T atomic(TxnType type, TxnFunction<T> body) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(body, "body");
        return ACCESS.execute(context(), type, body, null, false);
    }

    /** Runs {@code body} as a transaction; the void form of {@link #atomic}. */
    public void run(TxnRunnable body) {
        run(TxnType.UNTYPED, body);
    }

    /** {@link #run(TxnRunnable)} as a transaction of {@code type}. */
    public void run(TxnType type, TxnRunnable body) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(body, "body");
        ACCESS.execute(context(), type, null, body, false);
    }

    /**
     * Runs {@code body} as a transaction declared read-only: it takes the cheaper commit path (no
     * locks, no timestamp) and any write throws {@link IllegalStateException}.
     */
    public <T> T readOnly(TxnFunction<T> body) {
        return readOnly(TxnType.UNTYPED, body);
    }

    /** {@link #readOnly(TxnFunction)} as a transaction of {@code type}. */
    public <T> T readOnly(TxnType type, TxnFunction<T> body) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(body, "body");
        return ACCESS.execute(context(), type, body, null, true);
    }

    /**
     * @return true if the calling thread is inside a transaction of this store: its body runs (even
     *         after it caught the library's rollback signal), or it commits (commit-time updaters)
     */
    public boolean inTransaction() {
        TxnContext c = contexts.get();
        return c != null && ACCESS.isInside(c);
    }

    /** @return this store's name (for messages and statistics) */
    public String name() {
        return name;
    }

    /** @return the name of the protocol this store runs */
    public String protocol() {
        return protocolName;
    }

    /**
     * SPI: the protocol instance, for transactional-object implementations (non-transactional
     * operations and diagnostics). Applications do not need it.
     */
    public ConcurrencyControl concurrencyControl() {
        return cc;
    }

    /** @return a snapshot of the counters, or all zeros if statistics are off */
    public StmStatistics statistics() {
        long[] acc;
        synchronized (registered) {
            foldDeadThreads();
            acc = retired.clone();
            for (TxnContext c : registered) {
                ACCESS.addStatisticsTo(c, acc);
            }
        }
        long[] byCause = new long[AbortCause.count()];
        System.arraycopy(acc, 2, byCause, 0, byCause.length);
        return new StmStatistics(acc[0], acc[1], byCause);
    }

    /**
     * @return a snapshot of the counters of the transactions started with {@code type} (all zeros
     *         if none ran, or statistics are off); the same consistency as {@link #statistics()}
     */
    public StmStatistics statistics(TxnType type) {
        Objects.requireNonNull(type, "type");
        long[] row = typeCounters()[type.id()];
        return row == null ? new StmStatistics(0, 0, new long[AbortCause.count()]) : toStatistics(row);
    }

    /** @return a snapshot of the counters of every type that started a transaction, by type */
    public Map<TxnType, StmStatistics> statisticsByType() {
        long[][] rows = typeCounters();
        Map<TxnType, StmStatistics> out = new LinkedHashMap<>();
        for (TxnType t : TxnType.all()) {
            long[] row = rows[t.id()];
            if (row != null && row[0] != 0) {
                out.put(t, toStatistics(row));
            }
        }
        return Collections.unmodifiableMap(out);
    }

    private long[][] typeCounters() {
        long[][] acc = new long[TxnType.MAX_TYPES][];
        synchronized (registered) {
            foldDeadThreads();
            for (int id = 0; id < retiredByType.length; id++) {
                if (retiredByType[id] != null) {
                    acc[id] = retiredByType[id].clone();
                }
            }
            for (TxnContext c : registered) {
                ACCESS.addTypeStatisticsTo(c, acc);
            }
        }
        return acc;
    }

    private static StmStatistics toStatistics(long[] row) {
        long[] byCause = new long[AbortCause.count()];
        System.arraycopy(row, 2, byCause, 0, byCause.length);
        return new StmStatistics(row[0], row[1], byCause);
    }

    /**
     * Copies the calling thread's own counters of this store into {@code into[0, COUNTER_SLOTS)}:
     * {@code [starts, commits, aborts by cause in AbortCause order...]}, all zeros if this thread
     * has never run a transaction of this store or statistics are off. For benchmark harnesses that
     * attribute aborts to what a thread just ran: take a copy before and after, and subtract. Unlike
     * {@link #statistics()} it reads one thread's counters, takes no lock and allocates nothing; the
     * counters grow monotonically over the thread's life. Applications want {@link #statistics()}.
     *
     * @param into at least {@link #COUNTER_SLOTS} long; slots beyond are left alone
     * @throws IllegalArgumentException if {@code into} is shorter than {@link #COUNTER_SLOTS}
     */
    public void copyThreadCounters(long[] into) {
        Objects.requireNonNull(into, "into");
        if (into.length < COUNTER_SLOTS) {
            throw new IllegalArgumentException("into needs " + COUNTER_SLOTS + " slots, has " + into.length);
        }
        Arrays.fill(into, 0, COUNTER_SLOTS, 0L);
        TxnContext c = contexts.get();
        if (c != null) {
            ACCESS.addStatisticsTo(c, into);
        }
    }

    @Override
    public String toString() {
        return "Stm{" + name + ", protocol=" + protocolName + '}';
    }

    private TxnContext context() {
        TxnContext c = contexts.get();
        return c != null ? c : newContext();
    }

    private TxnContext newContext() {
        TxnContext c = ACCESS.newContext(this, cc, protocolContext, statistics, settings);
        synchronized (registered) {
            // Fold away threads that died, so thread churn does not grow the registry.
            foldDeadThreads();
            registered.add(c);
        }
        contexts.set(c);
        return c;
    }

    /**
     * Drops the contexts of threads that died: their counters move into the retired totals, their
     * protocol states leave the registry of live states. Caller holds {@code registered}.
     */
    private void foldDeadThreads() {
        for (Iterator<TxnContext> it = registered.iterator(); it.hasNext(); ) {
            TxnContext c = it.next();
            if (!ACCESS.owner(c).isAlive()) {
                ACCESS.addStatisticsTo(c, retired);
                ACCESS.addTypeStatisticsTo(c, retiredByType);
                ACCESS.retire(c);
                it.remove();
            }
        }
    }

    /**
     * The default protocol is built in: a store with it never consults {@link ServiceLoader}, so it
     * works where {@code META-INF/services} files were lost (a shaded jar that does not merge
     * them). Other protocols are found by ServiceLoader, through this class's loader and the
     * context class loader; the name {@code "occ"} always means the built-in one.
     */
    private static final Protocol DEFAULT_PROTOCOL = new OccProtocol();

    /** @return the protocol of that name; the built-in one for {@code "occ"} without consulting ServiceLoader */
    private static Protocol find(String protocolName) {
        Objects.requireNonNull(protocolName, "protocolName");
        if (protocolName.equals(DEFAULT_PROTOCOL.name())) {
            return DEFAULT_PROTOCOL;
        }
        TreeMap<String, Protocol> known = loadProtocols();
        Protocol p = known.get(protocolName);
        if (p == null) {
            throw new IllegalArgumentException("unknown protocol '" + protocolName + "'; known protocols: "
                    + String.join(", ", known.keySet()));
        }
        return p;
    }

    private static TreeMap<String, Protocol> loadProtocols() {
        TreeMap<String, Protocol> byName = new TreeMap<>();
        byName.put(DEFAULT_PROTOCOL.name(), DEFAULT_PROTOCOL);
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        for (ServiceLoader<Protocol> loader : List.of(ServiceLoader.load(Protocol.class, Stm.class.getClassLoader()),
                ServiceLoader.load(Protocol.class, tccl))) {
            for (Protocol p : loader) {
                byName.putIfAbsent(p.name(), p);
            }
        }
        return byName;
    }

    /**
     * Configures a store. Every option is validated when set; an invalid one throws
     * {@link IllegalArgumentException} naming the option.
     */
    public static final class Builder {
        private String name = "stm";
        private String protocol = "occ";
        private boolean statistics = true;
        private long backoffBaseNanos = 500;
        private long backoffMaxNanos = 200_000;
        private int maxAttempts = Integer.MAX_VALUE;
        private int lockSpinLimit = Tunables.LOCK_SPINS;
        private int readSpinLimit = Tunables.READ_SPINS;
        private int epochMillis = Tunables.EPOCH_MILLIS;
        private final Map<String, String> options = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Sets one of the protocol's own options (see {@link Stm#protocolOptions(String)}; e.g.
         * TicToc's {@code history}). The value is given as text or as anything whose
         * {@code toString} the protocol parses ({@code 4}, {@code false}). Checked at
         * {@link #build()}: a name the protocol does not declare, or a value it rejects, throws
         * {@link IllegalArgumentException} naming the option; the last value set wins.
         */
        public Builder option(String name, Object value) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, () -> "value of option '" + name + "'");
            options.put(name, String.valueOf(value));
            return this;
        }

        /** The protocol by name; see {@link Stm#availableProtocols()}. Default {@code "occ"}. */
        public Builder protocol(String protocolName) {
            this.protocol = Objects.requireNonNull(protocolName, "protocolName");
            return this;
        }

        /** A name used in messages. Default {@code "stm"}. */
        public Builder name(String storeName) {
            this.name = Objects.requireNonNull(storeName, "storeName");
            return this;
        }

        /** Whether to count starts, commits and aborts by cause. Default on. */
        public Builder statistics(boolean enabled) {
            this.statistics = enabled;
            return this;
        }

        /**
         * Randomized exponential backoff between attempts: the k-th retry waits a uniformly random
         * time below {@code min(max, base * 2^k)}. {@code base == 0} disables backoff.
         */
        public Builder backoff(long baseNanos, long maxNanos) {
            if (baseNanos < 0 || maxNanos < baseNanos || baseNanos > TimeUnit.SECONDS.toNanos(1)) {
                throw new IllegalArgumentException("backoff needs 0 <= base <= max and base <= 1s, got base="
                        + baseNanos + "ns max=" + maxNanos + "ns");
            }
            this.backoffBaseNanos = baseNanos;
            this.backoffMaxNanos = maxNanos;
            return this;
        }

        /** Attempts before {@code atomic} gives up with {@link TxnAbortedException}. Default unlimited. */
        public Builder maxAttempts(int attempts) {
            if (attempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be >= 1, got " + attempts);
            }
            this.maxAttempts = attempts;
            return this;
        }

        /**
         * Lock attempts per item before a commit suspects deadlock and aborts. Default 2048
         * (system property {@code jato.lockSpins}); OCC spends them on its first write lock and
         * spins at most {@code jato.heldLockSpins} (128) for each further one.
         */
        public Builder lockSpinLimit(int spins) {
            if (spins < 1) {
                throw new IllegalArgumentException("lockSpinLimit must be >= 1, got " + spins);
            }
            this.lockSpinLimit = spins;
            return this;
        }

        /** Polls of a locked item by a read before the attempt aborts. Default 1024 ({@code jato.readSpins}). */
        public Builder readSpinLimit(int spins) {
            if (spins < 1) {
                throw new IllegalArgumentException("readSpinLimit must be >= 1, got " + spins);
            }
            this.readSpinLimit = spins;
            return this;
        }

        /** The epoch period in milliseconds. Default 40 (Silo). */
        public Builder epochMillis(int millis) {
            if (millis < 1) {
                throw new IllegalArgumentException("epochMillis must be >= 1, got " + millis);
            }
            this.epochMillis = millis;
            return this;
        }

        /**
         * @throws IllegalArgumentException if the protocol name is unknown; the message lists the known ones
         */
        public Stm build() {
            return new Stm(this, find(protocol));
        }
    }
}
