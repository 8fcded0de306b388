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
 *  - A platform thread keeps one context per store for its life. It finds it in a table indexed by
 *    its thread id (byThread below): the id, one array element and a compare of the element's owner
 *    with the calling thread. Only a thread whose slot another live thread holds goes on to the
 *    ThreadLocal that keeps every platform context. The ThreadLocal lookup had been the transaction's
 *    largest single cost after the lock: about 6.7 ns of a 75 ns record update in the instruction
 *    profile (its map, the entry's weak referent, the value), against three dependent loads here
 *    (docs/benchmarks/2026-11-perfasm.md, "Finding the context by thread id"). One type check of
 *    the thread comes first, folded to nothing on JDK 17.
 *  - A virtual thread borrows a context from the store's pool at its outermost transaction and
 *    gives it back when that transaction ends, however it ends (StoreAccess.execute's finally).
 *    Nested blocks find the borrowed context through the thread's ThreadTransactions record (the
 *    one it already had, to refuse transactions of two stores). A virtual thread between
 *    transactions holds no context: only that small record. The pool is a lock-free bounded queue
 *    (JCTools' MpmcAtomicArrayQueue: no Unsafe, no allocation per operation); a borrow from an empty pool creates a context, a return to a full one
 *    drops it (its state leaves the protocol's registry, its counters join the retired totals).
 *
 * Why the table's elements need no fence: a reader accepts an element only if the element's owner is the
 * calling thread itself, and a platform context's owner is written once, in its constructor, by
 * the thread that creates it for itself. So an element the reader sees half-published (its owner
 * still null), another thread's, or a dead thread's is simply a miss. Elements are written under
 * this object's monitor (registration, sweeps); only the array itself is published by a volatile
 * write when it is replaced. It grows to twice the platform contexts,
 * so that threads of one pool, whose ids are mostly consecutive, rarely share a slot.
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
    private static final int MIN_BY_THREAD = 16;
    /** Largest table: past 4,096 platform threads on one store, the ones that collide use the ThreadLocal. */
    private static final int MAX_BY_THREAD = 1 << 13;

    private final Stm stm;
    private final ConcurrencyControl cc;
    private final ProtocolContext protocolContext;
    private final boolean statistics;
    private final long[] settings;
    /** Platform threads' contexts, every one of them (the fallback of {@link #byThread}). */
    private final ThreadLocal<TxnContext> platform = new ThreadLocal<>();
    /**
     * Platform contexts by their thread's id modulo the length (a power of two); null where no
     * live thread's context sits. Elements written under this object's monitor; the array replaced
     * when it grows, by a volatile write, so that a reader sees a grown array whole (its length,
     * the elements placed before it was published); read by any thread without locking (see the
     * note at the top of the file). A volatile read is a plain load on x86.
     */
    private volatile TxnContext[] byThread = new TxnContext[MIN_BY_THREAD];
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
        Thread t = Thread.currentThread();
        if (VirtualThreads.isVirtual(t)) {
            return borrow();
        }
        TxnContext c = platformContext(t);
        return c != null ? c : newPlatformContext();
    }

    /** @return platform thread {@code t}'s context of this store (t is the calling thread), or null */
    private TxnContext platformContext(Thread t) {
        TxnContext[] table = byThread;
        TxnContext c = table[(int) t.getId() & (table.length - 1)];
        return c != null && ACCESS.owner(c) == t ? c : platform.get();
    }

    /**
     * @return the calling thread's context if it has one now: a platform thread's own, or a
     *         virtual thread's borrowed one while its transaction of this store runs; else null
     */
    public TxnContext current() {
        Thread t = Thread.currentThread();
        if (VirtualThreads.isVirtual(t)) {
            return ACCESS.running(this);
        }
        return platformContext(t);
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
        // Last: the table is only a shortcut to what the ThreadLocal holds, so an OutOfMemoryError
        // while it grows leaves a context the thread still finds on its next transaction.
        synchronized (this) {
            putByThread(c);
        }
        return c;
    }

    /**
     * Puts the calling thread's new platform context {@code c} (registered in {@code all}) in its
     * slot of {@link #byThread}, unless a live thread's context sits there; grows the table instead
     * if the platform contexts outnumber half its slots. Caller holds this.
     */
    private void putByThread(TxnContext c) {
        TxnContext[] table = byThread;
        if (count * 2 > table.length && table.length < MAX_BY_THREAD) {
            // Allocated before anything changes: an OutOfMemoryError leaves the old table in use.
            TxnContext[] grown = new TxnContext[Math.min(MAX_BY_THREAD, Integer.highestOneBit(count) << 2)];
            for (int i = 0; i < count; i++) {
                TxnContext o = all[i];
                if (!ACCESS.pooled(o)) {
                    place(grown, o);
                }
            }
            byThread = grown;
            return; // c is among all[] and was placed with the others
        }
        place(table, c);
    }

    /** Puts platform context {@code c} in its thread's slot of {@code table} unless a live thread's context is there. */
    private static void place(TxnContext[] table, TxnContext c) {
        Thread owner = ACCESS.owner(c);
        int slot = (int) owner.getId() & (table.length - 1);
        TxnContext there = table[slot];
        if (there == null || !ACCESS.owner(there).isAlive()) {
            table[slot] = c;
        }
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
        if (!ACCESS.pooled(c)) {
            TxnContext[] table = byThread;
            int slot = (int) ACCESS.owner(c).getId() & (table.length - 1);
            if (table[slot] == c) {
                table[slot] = null;
            }
        }
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
