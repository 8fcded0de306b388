package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnAbortedException;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import io.jato.stm.internal.RollbackSignal;
import io.jato.stm.internal.Tunables;

import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/*
 * The transaction: access set, retry loop and commit driver in one object per (thread, store).
 *
 * Access set. A flat array of pre-allocated Entry objects with a parallel array of their items,
 * reused by every transaction of the thread. Lookups of "did this transaction already touch item
 * X" scan the item array while the set is small (a few compares beat hashing) and switch to an
 * open-addressing index of entry positions once the set passes Tunables.LINEAR_SCAN_LIMIT. Nothing
 * is allocated per transaction once the arrays have grown to the workload's largest transaction.
 *
 * Retry loop. execute() runs the body, then commit(). Conflicts found while the body runs unwind
 * it with the preallocated RollbackSignal; conflicts found by commit() come back as an AbortCause
 * return value. Either way the attempt's locks are released, the abort is counted by cause and the
 * body runs again after a randomized exponential backoff (seed paper 002 §4.1). A user exception is
 * reported only if the reads so far are still current: an exception caused by an inconsistent
 * snapshot (OCC reads are not opaque) is discarded and the transaction retried.
 *
 * Commit driver. The same phases for every protocol (see ConcurrencyControl): lock the write set
 * in access order with bounded spinning (no sort: a lock that cannot be had is treated as a
 * deadlock and the attempt aborts), take the commit timestamp, validate the read set, install every
 * value, then publish every version. The protocol is a final class per store, so each hook call is
 * monomorphic; simple cells are installed by a switch on the entry kind, not a virtual call.
 */

/**
 * The implementation of {@link Txn}, and the SPI through which transactional objects record reads
 * and writes. One instance exists per thread and store; it is created and reused by {@link Stm}.
 *
 * <p>Data types obtain it with {@link #of(Txn, Stm)}, which checks that the transaction is active,
 * on the calling thread and in the object's store. All methods must be called by the owning thread.
 */
public final class TxnContext extends Txn {
    private static final int IDLE = 0;
    private static final int ACTIVE = 1;
    private static final int DOOMED = 2;
    private static final int COMMITTING = 3;

    private static final long SPIN_BACKOFF_LIMIT_NANOS = 20_000;

    /*
     * Weak: the thread's ThreadLocalMap holds this context strongly, so a strong reference back to
     * the store would keep every store a thread ever used (and its ThreadLocal key) alive as long as
     * the thread lives. Store identity is checked through the protocol instance, unique per store.
     */
    private final WeakReference<Stm> stm;
    private final String storeName;
    private final ConcurrencyControl cc;
    private final Object ccState;
    private final Thread owner;
    private final ProtocolContext protocolContext;
    private final boolean statistics;
    private final long backoffBaseNanos;
    private final long backoffMaxNanos;
    private final int maxAttempts;
    private final int linearScanLimit;

    private Entry[] entries;
    private TxItem[] items;
    private int size;
    /** Entry position + 1 per slot, 0 for empty; valid only while {@code indexed}, all zero otherwise. */
    private int[] index;
    /** Per entry position: its slot in {@link #index}, so that clearing touches only used slots. */
    private int[] slotOf;
    private boolean indexed;
    private boolean hasWrites;
    private boolean hasInserts;
    /** Bits of the data types that buffered inserts in this attempt ({@link #markInserts}). */
    private long insertMarks;
    private boolean needsCleanup;

    /** Pooled scratch objects per {@link Scratch} id, and how many of each this attempt borrowed. */
    private Scratch.Pooled[][] scratch = new Scratch.Pooled[8][];
    private int[] scratchUsed = new int[8];
    /** Ids with a non-zero use count in this attempt. */
    private int[] scratchTouched = new int[8];
    private int scratchTouchedCount;

    private int status = IDLE;
    private boolean readOnly;
    private AbortCause doomCause;
    private int attempt;
    private long rng;
    private int commitCount;

    // Statistics: written only by the owner thread with plain stores, summed racily by Stm.
    private long starts;
    private long commits;
    private final long[] aborts = new long[AbortCause.count()];

    /**
     * Created by the store for the calling thread. Not for data types or users.
     *
     * @param settings the store's settings: {@code backoffBaseNanos, backoffMaxNanos, maxAttempts}
     */
    public TxnContext(Stm stm, ConcurrencyControl cc, ProtocolContext protocolContext, boolean statistics, long[] settings) {
        this.stm = new WeakReference<>(stm);
        this.storeName = stm.name();
        this.cc = cc;
        this.protocolContext = protocolContext;
        this.statistics = statistics;
        this.backoffBaseNanos = settings[0];
        this.backoffMaxNanos = settings[1];
        this.maxAttempts = (int) settings[2];
        this.linearScanLimit = Tunables.LINEAR_SCAN_LIMIT;
        this.owner = Thread.currentThread();
        int cap = Integer.highestOneBit(Tunables.ACCESS_SET_CAPACITY - 1) << 1;
        this.entries = new Entry[cap];
        for (int i = 0; i < cap; i++) {
            entries[i] = new Entry();
        }
        this.items = new TxItem[cap];
        this.index = new int[cap * 2];
        this.slotOf = new int[cap];
        this.rng = System.nanoTime() ^ ((long) System.identityHashCode(this) << 32) | 1L;
        this.ccState = cc.newTxnState(this);
    }

    // ------------------------------------------------------------------ user-facing Txn

    @Override
    public Stm stm() {
        // Non-null while a transaction runs: the caller of atomic() holds the store.
        return stm.get();
    }

    @Override
    public boolean isReadOnly() {
        return readOnly;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public RuntimeException abort() {
        checkActive();
        throw rollback(AbortCause.USER_ABORT);
    }

    // ------------------------------------------------------------------ SPI for data types

    /**
     * Returns the context behind {@code txn}, checking that it may be used here.
     *
     * @throws NullPointerException  if {@code txn} is null
     * @throws IllegalStateException if the transaction ended, belongs to another thread or another
     *                               store than {@code store}
     */
    public static TxnContext of(Txn txn, Stm store) {
        if (!(txn instanceof TxnContext)) {
            Objects.requireNonNull(txn, "txn");
            throw new IllegalArgumentException("not a transaction created by a Jato store: " + txn.getClass().getName());
        }
        TxnContext c = (TxnContext) txn;
        c.checkActive();
        if (c.cc != store.concurrencyControl()) {
            throw new IllegalStateException("transactional object belongs to store '" + store.name()
                    + "' but the transaction runs in store '" + c.storeName + "'");
        }
        return c;
    }

    /**
     * @throws IllegalStateException if not called on the owning thread inside an active attempt
     */
    public void checkActive() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("transaction used from thread '" + Thread.currentThread().getName()
                    + "' but it belongs to thread '" + owner.getName() + "'");
        }
        if (status != ACTIVE) {
            if (status == DOOMED) {
                // The body swallowed our signal; keep unwinding.
                throw RollbackSignal.INSTANCE;
            }
            throw new IllegalStateException("transaction used after it ended (no transaction of store '"
                    + storeName + "' is running on this thread)");
        }
    }

    /** @return the protocol's per-transaction state from {@link ConcurrencyControl#newTxnState} */
    public Object ccState() {
        return ccState;
    }

    /** @return the store's protocol instance */
    public ConcurrencyControl cc() {
        return cc;
    }

    /** @return the number of entries in the access set */
    public int size() {
        return size;
    }

    /** @return the entry at {@code i}, {@code 0 <= i < size()} */
    public Entry entryAt(int i) {
        return entries[i];
    }

    /** @return the entry for {@code item}, or null if this transaction has not touched it */
    public Entry find(TxItem item) {
        if (!indexed) {
            TxItem[] its = items;
            for (int i = 0, n = size; i < n; i++) {
                if (its[i] == item) {
                    return entries[i];
                }
            }
            return null;
        }
        int[] idx = index;
        int mask = idx.length - 1;
        for (int slot = item.itemHash() & mask;; slot = (slot + 1) & mask) {
            int p = idx[slot];
            if (p == 0) {
                return null;
            }
            if (items[p - 1] == item) {
                return entries[p - 1];
            }
        }
    }

    /** @return the entry for {@code item}, appending an empty one if there is none */
    public Entry entry(TxItem item) {
        Entry e = find(item);
        return e != null ? e : append(item);
    }

    /**
     * Appends an entry for an item this transaction just created and nobody else can see yet
     * (flag {@link Entry#INSERT}); skips the lookup.
     */
    public Entry appendInsert(TxItem item) {
        Entry e = append(item);
        e.flags = Entry.INSERT;
        hasInserts = true;
        return e;
    }

    /** @return true if this attempt created items ({@link #appendInsert}); lets data types skip own-insert lookups */
    public boolean hasInserts() {
        return hasInserts;
    }

    /**
     * Records that the data type owning {@code mark} (a bit it chose, e.g. from its identity)
     * buffered inserts in this attempt. Lets a data type skip looking for its own pending inserts
     * when only other objects inserted: the test is one AND instead of an access-set lookup.
     */
    public void markInserts(long mark) {
        insertMarks |= mark;
    }

    /** @return true if some data type whose mark shares a bit with {@code mark} called {@link #markInserts} in this attempt */
    public boolean hasInserts(long mark) {
        return (insertMarks & mark) != 0;
    }

    /** Reads a reference cell: own pending write, else the first read's value, else a protocol read. */
    public Object readRef(RefItem item) {
        Entry e = find(item);
        if (e == null) {
            e = append(item);
        } else {
            int f = e.flags;
            if ((f & Entry.WRITE) != 0 && e.kind == Entry.KIND_REF) {
                return e.pendingRef;
            }
            if ((f & Entry.READ) != 0) {
                return e.readRef;
            }
        }
        return readRef(item, e);
    }

    /** Performs the protocol read of {@code item} into {@code e} (which must not be READ yet). */
    public Object readRef(RefItem item, Entry e) {
        Object v = cc.readRef(this, item, e);
        e.readRef = v;
        e.flags |= Entry.READ;
        return v;
    }

    /** Reads a long cell, including this transaction's pending write or commit-time add. */
    public long readLong(LongItem item) {
        Entry e = find(item);
        if (e == null) {
            e = append(item);
        } else {
            int f = e.flags;
            if ((f & Entry.WRITE) != 0 && e.kind == Entry.KIND_LONG) {
                return e.pendingLong;
            }
            if ((f & Entry.READ) != 0) {
                return (f & Entry.WRITE) != 0 && e.kind == Entry.KIND_ADD_LONG ? e.readLong + e.pendingLong : e.readLong;
            }
        }
        long v = cc.readLong(this, item, e);
        e.readLong = v;
        e.flags |= Entry.READ;
        return (e.flags & Entry.WRITE) != 0 && e.kind == Entry.KIND_ADD_LONG ? v + e.pendingLong : v;
    }

    /** Records the version of {@code item} (no value) unless already recorded; returns its entry. */
    public Entry observe(TxItem item) {
        Entry e = entry(item);
        if ((e.flags & Entry.READ) == 0) {
            cc.observe(this, item, e);
            e.flags |= Entry.READ;
        }
        return e;
    }

    /**
     * Ends an in-place read: a data type that keeps values in its own fields (a record group)
     * reads them between {@link #observe} and this call. Orders the field loads before the version
     * re-check, then aborts the attempt ({@link AbortCause#READ_VALIDATION}) unless the item still
     * has the observed version, so every field read of one item in a transaction comes from the
     * same committed version.
     */
    public void checkRead(Entry e) {
        VarHandle.acquireFence();
        if (!cc.isCurrent(this, e)) {
            throw rollback(AbortCause.READ_VALIDATION);
        }
    }

    /** Records the version of {@code e}'s item (no value) unless already recorded. */
    public void observe(Entry e) {
        if ((e.flags & Entry.READ) == 0) {
            cc.observe(this, e.item, e);
            e.flags |= Entry.READ;
        }
    }

    /** Buffers a write of {@code value} to a reference cell. */
    public void writeRef(RefItem item, Object value) {
        Entry e = entry(item);
        boolean first = firstWrite(e);
        e.writeRef(value);
        if (first) {
            onFirstWrite(e);
        }
    }

    /** Buffers a write of {@code value} to a long cell (replacing any pending commit-time add). */
    public void writeLong(LongItem item, long value) {
        Entry e = entry(item);
        boolean first = firstWrite(e);
        e.writeLong(value);
        if (first) {
            onFirstWrite(e);
        }
    }

    /** Buffers a commit-time add: no read dependency unless the transaction also reads the cell. */
    public void addLong(LongItem item, long delta) {
        addLong(entry(item), delta);
    }

    /** Buffers a commit-time add on the entry of a long cell. */
    public void addLong(Entry e, long delta) {
        boolean first = firstWrite(e);
        e.addLong(delta);
        if (first) {
            onFirstWrite(e);
        }
    }

    /** Makes {@code e} a custom write of {@code value} installed by {@code participant}. */
    public void writeCustom(Entry e, TxParticipant participant, Object key, Object value) {
        boolean first = firstWrite(e);
        e.writeCustom(participant, key, value);
        if (first) {
            onFirstWrite(e);
        }
    }

    /** Makes {@code e} a version-only write (its item gets a new version at commit). */
    public void writeVersion(Entry e) {
        boolean first = firstWrite(e);
        e.writeVersionOnly();
        if (first) {
            onFirstWrite(e);
        }
    }

    /**
     * Borrows a pooled scratch object of {@code kind} for the rest of this attempt. The object is
     * recycled and returned to this context's pool when the attempt ends; allocation happens only
     * while the pool grows to the largest number of such objects one transaction uses.
     */
    @SuppressWarnings("unchecked")
    public <T extends Scratch.Pooled> T borrow(Scratch<T> kind) {
        int id = kind.id;
        if (id >= scratchUsed.length) {
            int cap = Math.max(id + 1, scratchUsed.length * 2);
            scratch = Arrays.copyOf(scratch, cap);
            scratchUsed = Arrays.copyOf(scratchUsed, cap);
        }
        int used = scratchUsed[id];
        if (used == 0) {
            if (scratchTouchedCount == scratchTouched.length) {
                scratchTouched = Arrays.copyOf(scratchTouched, scratchTouchedCount * 2);
            }
            scratchTouched[scratchTouchedCount++] = id;
        }
        Scratch.Pooled[] pool = scratch[id];
        if (pool == null) {
            pool = scratch[id] = new Scratch.Pooled[4];
        } else if (used == pool.length) {
            pool = scratch[id] = Arrays.copyOf(pool, used * 2);
        }
        Scratch.Pooled p = pool[used];
        if (p == null) {
            p = pool[used] = kind.create();
        }
        scratchUsed[id] = used + 1;
        return (T) p;
    }

    private void recycleScratch() {
        for (int t = 0, n = scratchTouchedCount; t < n; t++) {
            int id = scratchTouched[t];
            Scratch.Pooled[] pool = scratch[id];
            for (int i = 0, used = scratchUsed[id]; i < used; i++) {
                pool[i].recycle();
            }
            scratchUsed[id] = 0;
        }
        scratchTouchedCount = 0;
    }

    /** Asks for {@link TxParticipant#check} on {@code e} during commit validation. */
    public void requestCheck(Entry e, TxParticipant participant) {
        e.participant = participant;
        e.flags |= Entry.CHECK;
    }

    /** Asks for {@link TxParticipant#cleanup} on {@code e} when the transaction ends. */
    public void requestCleanup(Entry e, TxParticipant participant) {
        e.participant = participant;
        e.flags |= Entry.CLEANUP;
        needsCleanup = true;
    }

    /**
     * Ends the current attempt with {@code cause}: marks the transaction doomed and unwinds user
     * code with the preallocated signal. Never returns normally; declared to return an error so
     * callers can write {@code throw txn.rollback(cause)}.
     */
    public Error rollback(AbortCause cause) {
        if (status == ACTIVE) {
            status = DOOMED;
            doomCause = cause;
        }
        throw RollbackSignal.INSTANCE;
    }

    // ------------------------------------------------------------------ retry loop (store-facing)

    /**
     * Runs a transaction body (exactly one of {@code fn} and {@code body} is non-null) with retries.
     * Called by {@link Stm}; inside a running transaction it joins it (flat nesting).
     */
    public <T> T execute(TxnFunction<T> fn, TxnRunnable body, boolean declaredReadOnly) {
        if (status != IDLE) {
            return joinNested(fn, body);
        }
        for (int a = 0;; a++) {
            begin(declaredReadOnly, a);
            T result;
            AbortCause cause;
            try {
                if (fn != null) {
                    result = fn.apply(this);
                } else {
                    body.run(this);
                    result = null;
                }
            } catch (Throwable t) {
                if (status == DOOMED) {
                    cause = doomCause;
                } else if (isReadSetCurrent()) {
                    endAttempt(AbortCause.USER_EXCEPTION);
                    throw sneakyThrow(t);
                } else {
                    cause = AbortCause.INCONSISTENT_READ;
                }
                endAttempt(cause);
                if (cause == AbortCause.USER_ABORT) {
                    throw new TxnAbortedException("transaction aborted by the user", cause, a + 1);
                }
                giveUpOrBackoff(cause, a);
                continue;
            }
            if (status == DOOMED) {
                // The body caught the rollback signal and returned normally.
                cause = doomCause;
                endAttempt(cause);
                if (cause == AbortCause.USER_ABORT) {
                    throw new TxnAbortedException("transaction aborted by the user", cause, a + 1);
                }
            } else {
                cause = commit();
                if (cause == null) {
                    return result;
                }
            }
            giveUpOrBackoff(cause, a);
        }
    }

    private <T> T joinNested(TxnFunction<T> fn, TxnRunnable body) {
        checkActive();
        if (fn != null) {
            return fn.apply(this);
        }
        body.run(this);
        return null;
    }

    private void begin(boolean declaredReadOnly, int a) {
        status = ACTIVE;
        readOnly = declaredReadOnly;
        attempt = a;
        doomCause = null;
        if (statistics) {
            starts++;
        }
        cc.begin(this);
    }

    private void giveUpOrBackoff(AbortCause cause, int a) {
        if (a + 1 >= maxAttempts) {
            throw new TxnAbortedException("transaction gave up after " + (a + 1) + " attempts; last abort: " + cause,
                    cause, a + 1);
        }
        backoff(a);
    }

    /** Commits the current attempt; returns null on success or the cause after rolling back. */
    private AbortCause commit() {
        status = COMMITTING;
        final ConcurrencyControl cc = this.cc;
        final Entry[] es = entries;
        final int n = size;
        final boolean writes = hasWrites;
        AbortCause cause = null;
        try {
            if (writes) {
                for (int i = 0; i < n; i++) {
                    Entry e = es[i];
                    if ((e.flags & (Entry.WRITE | Entry.LOCKED)) == Entry.WRITE) {
                        cause = cc.lock(this, e);
                        if (cause != null) {
                            break;
                        }
                    }
                }
            }
            long ts = 0;
            if (cause == null) {
                ts = cc.commitTimestamp(this, !writes);
                for (int i = 0; i < n; i++) {
                    Entry e = es[i];
                    int f = e.flags;
                    if ((f & Entry.READ) != 0) {
                        cause = cc.validate(this, e, ts);
                        if (cause != null) {
                            break;
                        }
                    }
                    if ((f & Entry.CHECK) != 0 && !e.participant.check(this, e)) {
                        cause = AbortCause.READ_VALIDATION;
                        break;
                    }
                }
            }
            if (cause != null) {
                endAttempt(cause);
                return cause;
            }
            if (writes) {
                for (int i = 0; i < n; i++) {
                    Entry e = es[i];
                    if ((e.flags & Entry.WRITE) != 0) {
                        cc.install(this, e, ts);
                    }
                }
                for (int i = 0; i < n; i++) {
                    Entry e = es[i];
                    if ((e.flags & Entry.WRITE) != 0) {
                        cc.publish(this, e, ts);
                        e.flags &= ~Entry.LOCKED;
                    }
                }
            }
        } catch (RuntimeException | Error bug) {
            // A protocol or participant failed mid-commit: never leave a lock held behind.
            releaseLocks();
            finishAndClear(false);
            throw bug;
        }
        if (statistics) {
            commits++;
        }
        if ((++commitCount & Tunables.EPOCH_CHECK_MASK) == 0) {
            protocolContext.tickEpoch(System.nanoTime());
        }
        // Committed: a participant's cleanup that throws must still leave the context reusable.
        finishAndClear(true);
        return null;
    }

    /** Rolls back the current attempt: releases locks, runs cleanups, counts the cause. */
    private void endAttempt(AbortCause cause) {
        releaseLocks();
        if (statistics) {
            aborts[cause.ordinal()]++;
        }
        finishAndClear(false);
    }

    private void releaseLocks() {
        final Entry[] es = entries;
        for (int i = 0, n = size; i < n; i++) {
            Entry e = es[i];
            if ((e.flags & Entry.LOCKED) != 0) {
                cc.unlock(this, e);
                e.flags &= ~Entry.LOCKED;
            }
        }
    }

    private void finishAndClear(boolean committed) {
        try {
            cc.finish(this, committed);
            if (needsCleanup) {
                cleanup(committed);
            }
        } finally {
            clear();
        }
    }

    private void cleanup(boolean committed) {
        final Entry[] es = entries;
        for (int i = 0, n = size; i < n; i++) {
            Entry e = es[i];
            if ((e.flags & Entry.CLEANUP) != 0) {
                e.participant.cleanup(this, e, committed);
            }
        }
    }

    /** Side-effect-free check that every read is still current (used when user code throws). */
    private boolean isReadSetCurrent() {
        final Entry[] es = entries;
        for (int i = 0, n = size; i < n; i++) {
            Entry e = es[i];
            if ((e.flags & Entry.READ) != 0 && !cc.isCurrent(this, e)) {
                return false;
            }
        }
        return true;
    }

    private void clear() {
        final Entry[] es = entries;
        for (int i = 0, n = size; i < n; i++) {
            es[i].clearRefs();
            items[i] = null;
        }
        if (indexed) {
            // The index keeps the size of the largest transaction seen; a smaller one clears only
            // its own slots.
            int[] idx = index;
            if (size * 8 < idx.length) {
                int[] so = slotOf;
                for (int i = 0, n = size; i < n; i++) {
                    idx[so[i]] = 0;
                }
            } else {
                Arrays.fill(idx, 0);
            }
            indexed = false;
        }
        size = 0;
        if (scratchTouchedCount != 0) {
            recycleScratch();
        }
        hasWrites = false;
        hasInserts = false;
        insertMarks = 0;
        needsCleanup = false;
        status = IDLE;
    }

    private boolean firstWrite(Entry e) {
        if ((e.flags & Entry.WRITE) != 0) {
            return false;
        }
        if (readOnly) {
            throw new IllegalStateException("write inside a transaction declared read-only");
        }
        hasWrites = true;
        return true;
    }

    private void onFirstWrite(Entry e) {
        if ((e.flags & Entry.LOCKED) == 0) {
            AbortCause c = cc.onWrite(this, e);
            if (c != null) {
                throw rollback(c);
            }
        }
    }

    private Entry append(TxItem item) {
        int pos = size;
        if (pos == entries.length) {
            grow();
        }
        Entry e = entries[pos];
        e.reset(item);
        items[pos] = item;
        size = pos + 1;
        if (indexed) {
            indexInsert(item, pos);
        } else if (size > linearScanLimit) {
            buildIndex();
        }
        return e;
    }

    private void grow() {
        int cap = entries.length << 1;
        Entry[] ne = Arrays.copyOf(entries, cap);
        for (int i = entries.length; i < cap; i++) {
            ne[i] = new Entry();
        }
        entries = ne;
        items = Arrays.copyOf(items, cap);
        index = new int[cap * 2];
        slotOf = new int[cap];
        if (indexed) {
            buildIndex();
        }
    }

    /** Indexes every entry; the index is all zero here (new, or cleared by {@link #clear}). */
    private void buildIndex() {
        for (int i = 0; i < size; i++) {
            indexInsert(items[i], i);
        }
        indexed = true;
    }

    private void indexInsert(TxItem item, int pos) {
        int[] idx = index;
        int mask = idx.length - 1;
        int slot = item.itemHash() & mask;
        while (idx[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        idx[slot] = pos + 1;
        slotOf[pos] = slot;
    }

    private void backoff(int a) {
        long cap = Math.min(backoffMaxNanos, backoffBaseNanos << Math.min(a, 20));
        if (cap <= 0) {
            return;
        }
        long x = rng;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        rng = x;
        long delay = (x >>> 1) % cap;
        if (delay < SPIN_BACKOFF_LIMIT_NANOS) {
            long end = System.nanoTime() + delay;
            while (System.nanoTime() - end < 0) {
                Thread.onSpinWait();
            }
        } else {
            LockSupport.parkNanos(delay);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneakyThrow(Throwable t) throws E {
        throw (E) t;
    }

    // ------------------------------------------------------------------ statistics (store-facing)

    /** @return the owning thread (the store folds a dead thread's counters away) */
    public Thread owner() {
        return owner;
    }

    /** Adds this context's counters into {@code acc} = [starts, commits, aborts by cause...]. */
    public void addStatisticsTo(long[] acc) {
        // Ends before starts: the owner bumps starts first, so this order keeps a racy snapshot
        // from showing more ended attempts than started ones.
        for (int i = 0; i < aborts.length; i++) {
            acc[2 + i] += aborts[i];
        }
        acc[1] += commits;
        acc[0] += starts;
    }

    /** @return true while a transaction attempt of this context is running */
    public boolean isActive() {
        return status == ACTIVE;
    }
}
