package io.jato.stm.internal;

import io.jato.stm.Stm;
import io.jato.stm.TxnType;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.TxnContext;
import org.jctools.queues.atomic.MpmcAtomicArrayQueue;

import java.util.Arrays;

/*
 * Where a store's transactions get their context (TxnContext: the access set, counters, protocol
 * state, about 7 KB). Two sources, chosen per call by the kind of the calling thread:
 *
 *  - A platform thread keeps one context per store for its life, found with one ThreadLocal lookup
 *    per transaction, as before virtual threads: the hot path is unchanged (one type check of the
 *    thread added in front, folded to nothing on JDK 17).
 *  - A virtual thread borrows a context from the store's pool at its outermost transaction and
 *    gives it back when that transaction ends, however it ends (StoreAccess.execute's finally).
 *    Nested blocks find the borrowed context through the thread's ThreadTransactions record (the
 *    one it already had, to refuse transactions of two stores). A virtual thread between
 *    transactions holds no context: only that small record. The pool is a lock-free bounded queue
 *    (JCTools' MpmcAtomicArrayQueue: no Unsafe, no allocation per operation); a borrow from an empty pool creates a context, a return to a full one
 *    drops it (its state leaves the protocol's registry, its counters join the retired totals).
 *
 * Registration is O(1): the protocol's registry takes a vacant slot (TxnStateRegistry), and the
 * statistics list below appends, removes by swapping the last element in, and sweeps the contexts
 * of dead platform threads only when it has doubled since the last sweep (amortized O(1); the
 * scan of every context on every registration made 50,000 live virtual threads take 20-77 s).
 */

/**
 * A store's transaction contexts: per platform thread, or pooled for virtual threads (see the
 * design note at the top of this file). Thread-safe; the statistics list is guarded by this
 * object's monitor, the pool is lock-free. Not for use outside the store.
 */
public final class StoreContexts {
    private static final StoreAccess ACCESS = StoreAccess.get();
    private static final int SLOTS = Stm.COUNTER_SLOTS;

    private final Stm stm;
    private final ConcurrencyControl cc;
    private final ProtocolContext protocolContext;
    private final boolean statistics;
    private final long[] settings;
    /** Platform threads' contexts. */
    private final ThreadLocal<TxnContext> platform = new ThreadLocal<>();
    /** Idle pooled contexts. */
    private final MpmcAtomicArrayQueue<TxnContext> idle;

    // Guarded by this: every context that exists (for statistics), and the counters of those gone.
    private TxnContext[] all = new TxnContext[16];
    private int count;
    /** The size at which the next registration sweeps dead platform threads first. */
    private int sweepAt = 16;
    private final long[] retired = new long[SLOTS];
    private final long[][] retiredByType = new long[TxnType.MAX_TYPES][];
    /** Contexts ever created for the pool (tests and diagnostics). */
    private long pooledCreated;

    /**
     * @param settings the store's settings as {@link StoreAccess#newContext} takes them
     */
    public StoreContexts(Stm stm, ConcurrencyControl cc, ProtocolContext protocolContext, boolean statistics,
                         long[] settings) {
        this.stm = stm;
        this.cc = cc;
        this.protocolContext = protocolContext;
        this.statistics = statistics;
        this.settings = settings;
        this.idle = new MpmcAtomicArrayQueue<>(Tunables.CONTEXT_POOL);
    }

    /**
     * The context a transaction of the calling thread runs in: a platform thread's own (created on
     * its first transaction), or for a virtual thread the context of its running transaction of
     * this store if one runs (a nested block), else one borrowed from the pool, which
     * {@link StoreAccess#execute} returns when the transaction ends.
     */
    public TxnContext context() {
        if (VirtualThreads.isVirtual(Thread.currentThread())) {
            return borrow();
        }
        TxnContext c = platform.get();
        return c != null ? c : newPlatformContext();
    }

    /**
     * @return the calling thread's context if it has one now: a platform thread's own, or a
     *         virtual thread's borrowed one while its transaction of this store runs; else null
     */
    public TxnContext current() {
        if (VirtualThreads.isVirtual(Thread.currentThread())) {
            return ACCESS.running(this);
        }
        return platform.get();
    }

    private TxnContext borrow() {
        TxnContext c = ACCESS.running(this);
        if (c != null) {
            return c; // a block nested in this thread's running transaction joins it
        }
        c = idle.poll();
        if (c == null) {
            c = ACCESS.newContext(stm, cc, protocolContext, statistics, settings, this);
            synchronized (this) {
                pooledCreated++;
                add(c);
            }
        }
        ACCESS.bind(c);
        return c;
    }

    /**
     * Gives back a context borrowed by {@link #context()} when its outermost transaction ended
     * (called by {@link StoreAccess#execute}'s finally, on the borrowing thread).
     */
    public void release(TxnContext c) {
        ACCESS.unbind(c);
        if (!idle.offer(c)) {
            synchronized (this) {
                remove(c);
            }
        }
    }

    private TxnContext newPlatformContext() {
        TxnContext c = ACCESS.newContext(stm, cc, protocolContext, statistics, settings, null);
        synchronized (this) {
            if (count >= sweepAt) {
                // Fold away threads that died, so thread churn does not grow the list; only when it
                // has doubled since the last sweep, so each registration costs O(1) on average.
                sweepDeadThreads();
                sweepAt = Math.max(16, count * 2);
            }
            add(c);
        }
        platform.set(c);
        return c;
    }

    /** Caller holds this. */
    private void add(TxnContext c) {
        if (count == all.length) {
            all = Arrays.copyOf(all, count * 2);
        }
        ACCESS.setStoreIndex(c, count);
        all[count++] = c;
    }

    /** Drops {@code c}: its counters join the retired totals, its state leaves the registry. Caller holds this. */
    private void remove(TxnContext c) {
        ACCESS.addStatisticsTo(c, retired);
        ACCESS.addTypeStatisticsTo(c, retiredByType);
        int i = ACCESS.storeIndex(c);
        TxnContext last = all[--count];
        all[i] = last;
        ACCESS.setStoreIndex(last, i);
        all[count] = null;
        ACCESS.retire(c);
    }

    /** Drops the contexts of platform threads that died. Caller holds this. */
    private void sweepDeadThreads() {
        for (int i = count - 1; i >= 0; i--) {
            TxnContext c = all[i];
            if (!ACCESS.pooled(c) && !ACCESS.owner(c).isAlive()) {
                remove(c);
            }
        }
    }

    /** Adds every context's counters (and those of the contexts gone) into {@code acc}. */
    public synchronized void addStatisticsTo(long[] acc) {
        sweepDeadThreads();
        for (int i = 0; i < SLOTS; i++) {
            acc[i] += retired[i];
        }
        for (int i = 0; i < count; i++) {
            ACCESS.addStatisticsTo(all[i], acc);
        }
    }

    /** Adds every context's per-type counters (and those of the contexts gone) into {@code acc[type id]}. */
    public synchronized void addTypeStatisticsTo(long[][] acc) {
        sweepDeadThreads();
        for (int id = 0; id < retiredByType.length; id++) {
            if (retiredByType[id] != null) {
                acc[id] = retiredByType[id].clone();
            }
        }
        for (int i = 0; i < count; i++) {
            ACCESS.addTypeStatisticsTo(all[i], acc);
        }
    }

    /** @return how many contexts the store has now (platform threads' and pooled ones, idle or running) */
    public synchronized int contextCount() {
        return count;
    }

    /** @return how many contexts the pool ever created (a borrow found it empty) */
    public synchronized long pooledCreated() {
        return pooledCreated;
    }
}
