package io.jato.stm;

import io.jato.stm.internal.StmJmx;
import io.jato.stm.internal.StoreAccess;
import io.jato.stm.internal.StoreContexts;
import io.jato.stm.internal.StoreProtocol;
import io.jato.stm.internal.Tunables;
import io.jato.stm.internal.Version;
import io.jato.stm.internal.VirtualThreads;
import io.jato.stm.internal.occ.OccProtocol;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A transactional store: the transactional objects created for it and the concurrency-control
 * protocol that keeps their transactions serializable. There is no global instance; stores with
 * different protocols live side by side, and an object belongs to exactly one store. A store
 * registers nothing JVM-wide unless its builder asks for JMX ({@link Builder#jmx}).
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
 *   <li>{@code atomic} called inside a running transaction of the same store on the same thread runs as
 *       a nested block of it (closed nesting): the block commits with the outer transaction, and if it
 *       throws on a consistent state, exactly its own effects are rolled back and the exception reaches
 *       the enclosing body, whose transaction goes on. Transactions of different stores are
 *       independent: nesting one store's {@code atomic} inside another's gives no atomicity across
 *       the two.</li>
 * </ul>
 *
 * <p>Each platform thread that runs transactions gets one reusable transaction object per store, found
 * with one thread-local lookup per transaction (not per operation). A virtual thread borrows one from
 * the store's pool for each outermost transaction and gives it back when the transaction ends, so a
 * million idle virtual threads hold no transaction objects ({@code docs/user-guide.md}, "Virtual
 * threads"). The transaction object does not keep its store alive: a store nobody references is
 * collected even while threads that used it live on.
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

    /** The store's transaction contexts: per platform thread, pooled for virtual threads. */
    private final StoreContexts contexts;

    /*
     * Several protocols per store. The store object the builder returns is the root: objects
     * created on it are bound to the default protocol (domain 0). withProtocol(name) returns a
     * view: a second Stm object sharing every field above with the root (one store: the same
     * transactions, contexts, statistics), whose objects are bound to that protocol's domain.
     */
    /** The store object the builder returned; {@code this} for the root. */
    private final Stm root;
    /** The protocol domain new objects of this store object are bound to (0 on the root). */
    private final int domain;
    /** Every protocol of the store by domain (one element unless objects may be bound to others). */
    private final List<String> protocolNames;
    /** The root's views, by domain (index 0: the root itself); null in a view. */
    private final Stm[] views;
    /** Testing aid: objects created on the root take the store's domains in turn; null when off. */
    private final AtomicInteger rotation;
    /** The store's MXBean, shared by the root and its views; null unless built with {@code jmx(true)}. */
    private final StmJmx jmx;

    private Stm(Builder b, List<Protocol> protocols) {
        Protocol protocol = protocols.get(0);
        this.name = b.name;
        this.protocolName = protocol.name();
        long epochNanos = TimeUnit.MILLISECONDS.toNanos(b.epochMillis);
        if (protocols.size() == 1) {
            this.protocolContext = ProtocolContext.create(protocol, epochNanos, b.lockSpinLimit, b.readSpinLimit,
                    b.optionsOf(protocol.name(), true));
            this.cc = protocol.create(protocolContext);
        } else {
            List<Map<String, String>> options = new ArrayList<>();
            for (int d = 0; d < protocols.size(); d++) {
                options.add(b.optionsOf(protocols.get(d).name(), d == 0));
            }
            StoreProtocol sp = ACCESS.newMixedStore(mixedName(protocols), mixedCapabilities(protocols), protocols,
                    options, epochNanos, b.lockSpinLimit, b.readSpinLimit);
            this.protocolContext = sp.context();
            this.cc = sp.control();
        }
        this.capabilities = b.opacity ? withOpacity(protocolContext.capabilities()) : protocolContext.capabilities();
        this.statistics = b.statistics;
        this.settings = new long[] {b.backoffBaseNanos, b.backoffMaxNanos, b.maxAttempts, b.escalateAfter,
                b.timeoutNanos, b.opacity ? 1 : 0};
        this.contexts = new StoreContexts(this, cc, protocolContext, statistics, settings);
        this.root = this;
        this.domain = 0;
        List<String> names = new ArrayList<>();
        for (Protocol p : protocols) {
            names.add(p.name());
        }
        this.protocolNames = List.copyOf(names);
        this.views = new Stm[protocols.size()];
        this.rotation = b.rotateObjectProtocols && protocols.size() > 1 ? new AtomicInteger() : null;
        // Created here, registered by build() once the store is complete.
        this.jmx = b.jmx ? new StmJmx(this, b.statistics) : null;
        views[0] = this;
        for (int d = 1; d < views.length; d++) {
            views[d] = new Stm(this, d);
        }
    }

    /** @return {@code c} with {@link Capabilities.Feature#OPACITY} added (a store built with {@link Builder#opacity}) */
    private static Capabilities withOpacity(Capabilities c) {
        EnumSet<Capabilities.Feature> features = EnumSet.of(Capabilities.Feature.OPACITY);
        features.addAll(c.features());
        return Capabilities.of(c.isolation(), features.toArray(new Capabilities.Feature[0]));
    }

    /** A view of {@code root} whose new objects are bound to protocol domain {@code domain}. */
    private Stm(Stm root, int domain) {
        this.name = root.name;
        this.protocolName = root.protocolNames.get(domain);
        this.protocolContext = root.protocolContext;
        this.cc = root.cc;
        this.capabilities = root.capabilities;
        this.statistics = root.statistics;
        this.settings = root.settings;
        this.contexts = root.contexts;
        this.root = root;
        this.domain = domain;
        this.protocolNames = root.protocolNames;
        this.views = null;
        this.rotation = null;
        this.jmx = root.jmx;
    }

    private static String mixedName(List<Protocol> protocols) {
        StringBuilder sb = new StringBuilder();
        for (Protocol p : protocols) {
            sb.append(sb.length() == 0 ? "" : "+").append(p.name());
        }
        return sb.toString();
    }

    /**
     * What every transaction of a store mixing {@code protocols} gets: serializability (each must
     * declare it), the features all of them offer, and remote aborts if any of them uses them (the
     * commit driver then gives every transaction the point-of-no-return CAS).
     */
    private static Capabilities mixedCapabilities(List<Protocol> protocols) {
        EnumSet<Capabilities.Feature> common = EnumSet.allOf(Capabilities.Feature.class);
        boolean remote = false;
        for (Protocol p : protocols) {
            Capabilities c = Objects.requireNonNull(p.capabilities(),
                    () -> "protocol '" + p.name() + "' declared null capabilities");
            common.retainAll(c.features());
            remote |= c.has(Capabilities.Feature.REMOTE_ABORT);
        }
        if (remote) {
            common.add(Capabilities.Feature.REMOTE_ABORT);
        }
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE, common.toArray(new Capabilities.Feature[0]));
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

    /**
     * @return what this store's protocol declares it guarantees and offers; for a store of several
     *         protocols ({@link Builder#objectProtocol}), what every transaction gets: serializability,
     *         the features all of its protocols offer, and remote aborts if any of them uses them
     */
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
     * Runs {@code body} as a transaction declared read-only that accepts a snapshot up to
     * {@code maxStaleness} in the past. Under a protocol with snapshot reads
     * ({@link Capabilities.Feature#SNAPSHOT_READS}, e.g. {@code mvcc}) it reads a consistent state
     * that every transaction committed more than {@code maxStaleness} (by the store's clock,
     * which follows {@link System#nanoTime}) before it began is part of, and may miss younger
     * commits — this thread's own included; in exchange it never waits for them and commits on
     * its first attempt unless the store's stable point lags further behind than the bound (then it
     * waits briefly and, failing that, runs validated as {@link #readOnly(TxnFunction)}). Under
     * other protocols it is {@link #readOnly(TxnFunction)}: the state it reads is current, which
     * meets any bound. Still serializable: the transaction reads the state at one point of the
     * commit order; what the bound relaxes is real-time order (and this thread's session order)
     * within the bound. Inside a running transaction it joins it, as {@link #readOnly(TxnFunction)}.
     *
     * @throws IllegalArgumentException if {@code maxStaleness} is negative
     */
    public <T> T readOnly(Duration maxStaleness, TxnFunction<T> body) {
        return readOnly(TxnType.UNTYPED, maxStaleness, body);
    }

    /** {@link #readOnly(Duration, TxnFunction)} as a transaction of {@code type}. */
    public <T> T readOnly(TxnType type, Duration maxStaleness, TxnFunction<T> body) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(maxStaleness, "maxStaleness");
        Objects.requireNonNull(body, "body");
        if (maxStaleness.isNegative()) {
            throw new IllegalArgumentException("maxStaleness must not be negative, got " + maxStaleness);
        }
        long nanos;
        try {
            nanos = maxStaleness.toNanos();
        } catch (ArithmeticException tooLong) {
            nanos = Long.MAX_VALUE;
        }
        return ACCESS.executeStale(context(), type, body, nanos);
    }

    /**
     * Runs {@code body} as a transaction declared read-only, with no result: the void form of
     * {@link #readOnly(TxnFunction)}.
     */
    public void runReadOnly(TxnRunnable body) {
        Objects.requireNonNull(body, "body");
        ACCESS.execute(context(), TxnType.UNTYPED, null, body, true);
    }

    /**
     * Runs {@code body} as a transaction and returns its {@code long} result without boxing it:
     * {@link #atomic(TxnFunction)} for primitive results, allocation-free in steady state.
     */
    public long atomicLong(TxnLongFunction body) {
        return atomicLong(TxnType.UNTYPED, body);
    }

    /** {@link #atomicLong(TxnLongFunction)} as a transaction of {@code type}. */
    public long atomicLong(TxnType type, TxnLongFunction body) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(body, "body");
        return ACCESS.executeLong(context(), type, body, false);
    }

    /** {@link #atomicLong(TxnLongFunction)} declared read-only (as {@link #readOnly(TxnFunction)}). */
    public long readOnlyLong(TxnLongFunction body) {
        Objects.requireNonNull(body, "body");
        return ACCESS.executeLong(context(), TxnType.UNTYPED, body, true);
    }

    /**
     * Runs {@code body}, which may throw the checked exception {@code X}, as a transaction and
     * returns its result. Like {@link #atomic(TxnFunction)}: an exception thrown on a consistent
     * state rolls the transaction back and is rethrown unchanged (here with its checked type); one
     * thrown on a state that no longer validates is discarded and the transaction retried.
     *
     * @throws X                    what the body threw
     * @throws TxnAbortedException  if the body called {@link Txn#abort()} or the attempt limit was hit
     */
    public <T, X extends Exception> T call(TxnCallable<T, X> body) throws X {
        return call(TxnType.UNTYPED, body);
    }

    /** {@link #call(TxnCallable)} as a transaction of {@code type}. */
    @SuppressWarnings("unchecked")
    public <T, X extends Exception> T call(TxnType type, TxnCallable<T, X> body) throws X {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(body, "body");
        return (T) ACCESS.executeChecked(context(), type, body, false);
    }

    /** {@link #call(TxnCallable)} declared read-only (as {@link #readOnly(TxnFunction)}). */
    @SuppressWarnings("unchecked")
    public <T, X extends Exception> T callReadOnly(TxnCallable<T, X> body) throws X {
        Objects.requireNonNull(body, "body");
        return (T) ACCESS.executeChecked(context(), TxnType.UNTYPED, body, true);
    }

    /**
     * @return true if the calling thread is inside a transaction of this store: its body runs (even
     *         after it caught the library's rollback signal), or it commits (commit-time updaters)
     */
    public boolean inTransaction() {
        TxnContext c = contexts.current();
        return c != null && ACCESS.isInside(c);
    }

    /** @return this store's name (for messages and statistics) */
    public String name() {
        return name;
    }

    /**
     * @return the name of the protocol this store object binds new objects to: the store's
     *         default protocol, or for a view from {@link #withProtocol} that view's protocol
     */
    public String protocol() {
        return protocolName;
    }

    /**
     * @return every protocol of this store, the default first: one element unless the builder
     *         added {@link Builder#objectProtocol object protocols}
     */
    public List<String> protocols() {
        return protocolNames;
    }

    /**
     * Returns the same store seen as one whose new transactional objects are bound to
     * {@code protocolName}: pass it where an object is created ({@code new TxHashMap<>(stm.withProtocol("tictoc"))},
     * a record's constructor, ...) and every item of that object is locked, versioned and
     * validated by that protocol, while transactions, statistics and every other operation are the
     * store's, whichever object they go through. A transaction may touch objects of several
     * protocols; its commit admits only what every one of them permits (see
     * {@code docs/mixed-protocols.md}). The default protocol's name gives the store itself.
     *
     * @throws IllegalArgumentException if the store was not built with that protocol (the message
     *                                  lists the ones it has)
     */
    public Stm withProtocol(String protocolName) {
        Objects.requireNonNull(protocolName, "protocolName");
        int d = root.protocolNames.indexOf(protocolName);
        if (d < 0) {
            throw new IllegalArgumentException("store '" + name + "' has no protocol '" + protocolName
                    + "'; its protocols: " + String.join(", ", root.protocolNames)
                    + " (add one with Stm.Builder.objectProtocol)");
        }
        return root.views[d];
    }

    /**
     * SPI, for transactional-object implementations: the protocol domain to create this object's
     * items in ({@code new RefItem(v, stm.protocolDomain())}, {@code new TxItem(domain)}); call
     * once per object and use the result for every item the object ever creates. 0 in a store of
     * one protocol.
     */
    public int protocolDomain() {
        AtomicInteger r = rotation;
        return r == null ? domain : Math.floorMod(r.getAndIncrement(), views.length);
    }

    /**
     * SPI: the protocol instance, for transactional-object implementations (non-transactional
     * operations and diagnostics). Applications do not need it.
     */
    public ConcurrencyControl concurrencyControl() {
        return cc;
    }

    /**
     * @return the JMX ObjectName this store's {@link StmMXBean} is registered under,
     *         {@code io.jato:type=Stm,name=<quoted name>}; null if the store was not built with
     *         {@link Builder#jmx(boolean) jmx(true)} or its MXBean has been unregistered (by
     *         {@link #unregisterJmx()} or by a JMX client). The same for every view of the store.
     */
    public String jmxName() {
        return jmx == null ? null : jmx.registeredName();
    }

    /**
     * Removes this store's {@link StmMXBean} from the platform MBeanServer, so the server no longer
     * keeps the store reachable and another store may take its name. Call it when done with a
     * store built with {@link Builder#jmx(boolean) jmx(true)}; the store itself goes on working.
     * Idempotent, and safe after a JMX client unregistered the MXBean itself: it never removes
     * another store's MXBean that has taken the name since.
     *
     * <p>Why a method and not {@code close()}: a store has no other resource to release, and its
     * objects and transactions stay usable for as long as they are referenced; a {@code close()}
     * would promise an end of life the store does not have (and make every store built without
     * JMX look like a leaked resource to tools that check {@code AutoCloseable}).
     *
     * @return true if this call unregistered the MXBean; false if there was none registered
     */
    public boolean unregisterJmx() {
        return jmx != null && jmx.unregister();
    }

    /** @return a snapshot of the counters, or all zeros if statistics are off */
    public StmStatistics statistics() {
        long[] acc = new long[COUNTER_SLOTS];
        contexts.addStatisticsTo(acc);
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
        contexts.addTypeStatisticsTo(acc);
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
     * has never run a transaction of this store, statistics are off, or it is a virtual thread (its
     * transactions count in the pooled contexts it borrows, which {@link #statistics()} sums). For benchmark harnesses that
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
        // A virtual thread has no counters of its own between transactions: they belong to the
        // pooled contexts it borrows (statistics() includes them).
        TxnContext c = VirtualThreads.isVirtual(Thread.currentThread()) ? null : contexts.current();
        if (c != null) {
            ACCESS.addStatisticsTo(c, into);
        }
    }

    @Override
    public String toString() {
        return "Stm{" + name + ", protocol=" + protocolName
                + (protocolNames.size() > 1 ? ", protocols=" + String.join("+", protocolNames) : "") + '}';
    }

    /** The store's contexts, for the core's tests (how many exist, how many the pool created). */
    StoreContexts contexts() {
        return contexts;
    }

    /** One thread-local lookup on a platform thread; a borrow from the pool on a virtual thread (see StoreContexts). */
    private TxnContext context() {
        return contexts.context();
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
        private int escalateAfter = Tunables.ESCALATE_AFTER;
        private int lockSpinLimit = Tunables.LOCK_SPINS;
        private int readSpinLimit = Tunables.READ_SPINS;
        private int epochMillis = Tunables.EPOCH_MILLIS;
        private final Map<String, String> options = new LinkedHashMap<>();
        private final List<String> objectProtocols = new ArrayList<>();
        private boolean rotateObjectProtocols;
        private boolean jmx;
        private long timeoutNanos;
        private boolean opacity;

        private Builder() {
        }

        /**
         * Adds a protocol that objects of the store may be bound to, besides the default one
         * ({@link #protocol}): {@link Stm#withProtocol} then gives the store object that creates
         * such objects. Every protocol of a store with several must declare serializability (the
         * argument that their mix is serializable needs it); its options are set with
         * {@link #option} as {@code "protocolName.option"}. At most 16 protocols per store.
         * Checked at {@link #build()}.
         */
        public Builder objectProtocol(String protocolName) {
            Objects.requireNonNull(protocolName, "protocolName");
            if (!objectProtocols.contains(protocolName)) {
                objectProtocols.add(protocolName);
            }
            return this;
        }

        /**
         * Testing aid for stores with {@link #objectProtocol object protocols}: each object created
         * on the store itself (not on a {@link Stm#withProtocol} view) is bound to the next of the
         * store's protocols in turn, so that a test written for one protocol makes its
         * transactions span all of them. Not meant for applications. Default off.
         */
        public Builder rotateObjectProtocols(boolean enabled) {
            this.rotateObjectProtocols = enabled;
            return this;
        }

        /**
         * The options for {@code protocol}: {@code "protocol.x"} keys, and unqualified ones for
         * the default protocol. A qualified key naming no protocol of the store is refused.
         */
        private Map<String, String> optionsOf(String protocolName, boolean isDefault) {
            Map<String, String> out = new LinkedHashMap<>();
            String prefix = protocolName + ".";
            for (Map.Entry<String, String> e : options.entrySet()) {
                String k = e.getKey();
                if (k.startsWith(prefix)) {
                    out.put(k.substring(prefix.length()), e.getValue());
                } else if (isDefault && !isQualified(k)) {
                    out.put(k, e.getValue());
                }
            }
            return out;
        }

        /** @return true if {@code key} starts with the name of one of the store's protocols and a dot */
        private boolean isQualified(String key) {
            if (key.startsWith(protocol + ".")) {
                return true;
            }
            for (String p : objectProtocols) {
                if (key.startsWith(p + ".")) {
                    return true;
                }
            }
            return false;
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

        /**
         * The store's default protocol by name, which objects are bound to unless created through
         * {@link Stm#withProtocol}; see {@link Stm#availableProtocols()}. Default {@code "occ"}.
         */
        public Builder protocol(String protocolName) {
            this.protocol = Objects.requireNonNull(protocolName, "protocolName");
            return this;
        }

        /** A name used in messages, statistics and the JMX ObjectName ({@link #jmx}). Default {@code "stm"}. */
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
         * Whether {@link #build()} registers the store's {@link StmMXBean} on the platform
         * MBeanServer as {@code io.jato:type=Stm,name=<quoted store name>} (the name quoted with
         * {@code ObjectName.quote}, so any store name is valid; see {@link Stm#jmxName()}), for
         * JConsole, JDK Mission Control or any JMX client. Its attributes are read from
         * {@link Stm#statistics()} when a client asks: transactions pay nothing for it.
         *
         * <p>Default off: a library must not register JVM-wide state unasked. Once registered, the
         * MBeanServer — a JVM-wide registry — keeps the store reachable until
         * {@link Stm#unregisterJmx()}, and two registered stores need distinct names.
         */
        public Builder jmx(boolean enabled) {
            this.jmx = enabled;
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
         * The escalation policy against starvation: a transaction that aborted {@code attempts}
         * times in a row takes the store's escalation token before its next attempt and keeps it
         * until it ends. While it holds it, no other transaction of the store commits a write
         * (they abort after locking and wait, holding nothing, for the token), and the protocol
         * gives it priority: it waits for locks instead of aborting and nobody waits for it. So it
         * commits within a bounded number of further attempts on every protocol
         * ({@code docs/lock-family.md} states the bound). Starving transactions take the token in
         * turn. Costs nothing while nobody starves but one volatile load per writing commit.
         * Default 16 (system property {@code jato.escalateAfter}); 0 turns escalation off.
         */
        public Builder escalateAfter(int attempts) {
            if (attempts < 0) {
                throw new IllegalArgumentException("escalateAfter must be >= 0 (0: off), got " + attempts);
            }
            this.escalateAfter = attempts;
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

        /**
         * A deadline for every transaction of the store: {@code timeout} after {@code atomic} is
         * called, a transaction that has not committed gives up with {@link TxnTimeoutException},
         * rolled back and holding nothing. The deadline is checked before each attempt after the
         * first, while the transaction waits in {@link Txn#retry()} and by {@link Txn#validate()};
         * an attempt that reaches its commit commits. {@link Txn#timeout} sets one per transaction.
         * Costs one clock read per transaction when set. Default 0: no deadline.
         */
        public Builder timeout(long timeout, TimeUnit unit) {
            Objects.requireNonNull(unit, "unit");
            if (timeout < 0) {
                throw new IllegalArgumentException("timeout must be >= 0 (0: none), got " + timeout + " " + unit);
            }
            this.timeoutNanos = Math.min(unit.toNanos(timeout), Long.MAX_VALUE / 4);
            return this;
        }

        /**
         * Opacity for every transaction of the store, whatever its protocol: a body never observes
         * a state no serial execution could produce, even in an attempt that will abort, so a loop
         * over an invariant of the data cannot run away. Each read that goes to shared memory
         * checks a store-wide commit counter and, if a writing commit has started installing since
         * the attempt last checked, re-validates everything the attempt read (aborting it if
         * something changed), as TL2 and LSA do. Costs one volatile load per read, a re-validation
         * of the read set whenever another transaction committed a write meanwhile (so long
         * transactions under many writers pay O(reads) per such commit), and one atomic increment
         * of a shared counter per writing commit. {@link Stm#capabilities()} then declares
         * {@link Capabilities.Feature#OPACITY}. Protocols that declare it themselves (2pl, swisstm,
         * global-lock) need no option. Default off.
         */
        public Builder opacity(boolean enabled) {
            this.opacity = enabled;
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
         * @throws IllegalStateException    with {@link #jmx(boolean) jmx(true)}, if an MBean is registered
         *                                  under the store's ObjectName already (a store of the same
         *                                  name); the message names it, and nothing is registered
         */
        public Stm build() {
            List<Protocol> protocols = new ArrayList<>();
            protocols.add(find(protocol));
            for (String p : objectProtocols) {
                if (!p.equals(protocol)) {
                    protocols.add(find(p));
                }
            }
            if (protocols.size() > TxItem.MAX_DOMAINS) {
                throw new IllegalArgumentException("a store has at most " + TxItem.MAX_DOMAINS + " protocols, got "
                        + protocols.size());
            }
            if (protocols.size() > 1) {
                for (Protocol p : protocols) {
                    if (!p.capabilities().serializable()) {
                        throw new IllegalArgumentException("protocol '" + p.name() + "' declares "
                                + p.capabilities().isolation() + "; only serializable protocols can be mixed in "
                                + "one store (objectProtocol)");
                    }
                }
            }
            for (String k : options.keySet()) {
                int dot = k.indexOf('.');
                if (dot > 0 && !isQualified(k) && protocols.size() > 1) {
                    throw new IllegalArgumentException("option '" + k + "' names no protocol of the store; its "
                            + "protocols: " + protocol + (objectProtocols.isEmpty() ? "" : ", "
                            + String.join(", ", objectProtocols)));
                }
            }
            Stm stm = new Stm(this, protocols);
            if (stm.jmx != null) {
                stm.jmx.register();
            }
            return stm;
        }
    }
}
