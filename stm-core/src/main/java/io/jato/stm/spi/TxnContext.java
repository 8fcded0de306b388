package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnAbortedException;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import io.jato.stm.internal.Backoff;
import io.jato.stm.internal.RollbackSignal;
import io.jato.stm.internal.Tunables;

import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.Objects;

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
    private final Backoff backoff;
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
        this.backoff = new Backoff(settings[0], settings[1], System.nanoTime() ^ ((long) System.identityHashCode(this) << 32));
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
            if (status == COMMITTING) {
                throw new IllegalStateException("transaction of store '" + storeName + "' used while it commits: "
                        + "a commit-time updater or participant must not start, join or use a transaction (atomic, "
                        + "transactional reads or writes); an updater computes from the value it is given");
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
            return joinNested(fn, body, declaredReadOnly);
        }
        try {
            for (int a = 0;; a++) {
                T result = null;
                AbortCause cause;
                try {
                    begin(declaredReadOnly, a);
                    if (fn != null) {
                        result = fn.apply(this);
                    } else {
                        body.run(this);
                    }
                    // DOOMED here: the body caught the rollback signal and returned normally.
                    cause = status == DOOMED ? doomCause : null;
                } catch (Throwable t) {
                    cause = bodyFailed(t);
                }
                if (cause == null) {
                    cause = commit();
                    if (cause == null) {
                        return result;
                    }
                } else {
                    endAttempt(cause, null);
                    if (cause == AbortCause.USER_ABORT) {
                        throw new TxnAbortedException("transaction aborted by the user", cause, a + 1);
                    }
                }
                if (a + 1 >= maxAttempts) {
                    throw new TxnAbortedException("transaction gave up after " + (a + 1) + " attempts; last abort: "
                            + cause, cause, a + 1);
                }
                backoff.pause(a);
            }
        } finally {
            backoff.restoreInterrupt();
        }
    }

    /**
     * The body (or the protocol's begin) threw {@code t}. Returns the cause to retry with, or ends
     * the attempt and rethrows {@code t}: a user exception on a consistent snapshot is the caller's.
     */
    private AbortCause bodyFailed(Throwable t) {
        if (status == IDLE) {
            // The protocol's begin threw: by contract it holds nothing, so there is nothing to finish.
            if (statistics) {
                aborts[AbortCause.INTERNAL_FAILURE.ordinal()]++;
            }
            clear();
            throw sneakyThrow(t);
        }
        if (status == DOOMED) {
            return doomCause;
        }
        boolean current;
        try {
            current = isReadSetCurrent();
        } catch (Throwable bug) {
            endAttempt(AbortCause.INTERNAL_FAILURE, t);
            addSuppressed(t, bug);
            throw sneakyThrow(t);
        }
        if (!current) {
            return AbortCause.INCONSISTENT_READ;
        }
        endAttempt(AbortCause.USER_EXCEPTION, t);
        throw sneakyThrow(t);
    }

    private <T> T joinNested(TxnFunction<T> fn, TxnRunnable body, boolean declaredReadOnly) {
        checkActive();
        // A read-only block inside a writing transaction makes the transaction read-only for
        // the block's duration: a write in it throws, as it would at the top level.
        boolean outer = readOnly;
        readOnly = outer | declaredReadOnly;
        try {
            if (fn != null) {
                return fn.apply(this);
            }
            body.run(this);
            return null;
        } finally {
            readOnly = outer;
        }
    }

    private void begin(boolean declaredReadOnly, int a) {
        readOnly = declaredReadOnly;
        attempt = a;
        doomCause = null;
        if (statistics) {
            starts++;
        }
        cc.begin(this);
        // Only now: a begin that threw leaves the context IDLE (see bodyFailed).
        status = ACTIVE;
    }

    /*
     * Commit. Until the first install, a failure (an abort cause, or any Throwable from the
     * protocol, a participant's check or a commit-time updater) undoes nothing but the locks:
     * their old words come back, nothing else was written. From the first install on, nothing is
     * undone and no old word is restored: every item still locked gets a new version
     * (ConcurrencyControl.unlockChanged), so each reader that overlapped the failed commit fails
     * validation, and the throwable reaches the caller (counted as INTERNAL_FAILURE).
     */

    /** Commits the current attempt; returns null on success or the cause after rolling back. */
    private AbortCause commit() {
        status = COMMITTING;
        final ConcurrencyControl cc = this.cc;
        final Entry[] es = entries;
        final int n = size;
        final boolean writes = hasWrites;
        AbortCause cause = null;
        int phase = PHASE_LOCK;
        int done = 0;
        long ts = 0;
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
            if (cause == null) {
                ts = cc.commitTimestamp(this, !writes);
                phase = PHASE_VALIDATE;
                for (int i = 0; i < n; i++) {
                    Entry e = es[i];
                    int f = e.flags;
                    if ((f & Entry.READ) != 0) {
                        cause = cc.validate(this, e, ts);
                        if (cause != null) {
                            break;
                        }
                    }
                    if ((f & Entry.CHECK) != 0) {
                        phase = PHASE_CHECK;
                        boolean ok = e.participant.check(this, e);
                        phase = PHASE_VALIDATE;
                        if (!ok) {
                            cause = AbortCause.READ_VALIDATION;
                            break;
                        }
                    }
                }
            }
            if (cause == null && writes) {
                phase = PHASE_INSTALL;
                for (int i = 0; i < n; i++) {
                    Entry e = es[i];
                    if ((e.flags & Entry.WRITE) != 0) {
                        cc.install(this, e, ts);
                    }
                }
                phase = PHASE_PUBLISH;
                for (int i = 0; i < n; i++) {
                    Entry e = es[i];
                    if ((e.flags & Entry.WRITE) != 0) {
                        done = i;
                        cc.publish(this, e, ts);
                        e.flags &= ~Entry.LOCKED;
                    }
                }
            }
        } catch (Throwable t) {
            return commitFailed(t, phase, ts, done);
        }
        if (cause != null) {
            endAttempt(cause, null);
            return cause;
        }
        if (statistics) {
            commits++;
        }
        if ((++commitCount & Tunables.EPOCH_CHECK_MASK) == 0) {
            protocolContext.tickEpoch(System.nanoTime());
        }
        // Committed: a participant's cleanup that throws must still leave the context reusable.
        finishAndClear(true, null);
        return null;
    }

    private static final int PHASE_LOCK = 0;
    private static final int PHASE_VALIDATE = 1;
    private static final int PHASE_CHECK = 2;
    private static final int PHASE_INSTALL = 3;
    private static final int PHASE_PUBLISH = 4;

    /**
     * Something threw inside {@link #commit} during {@code phase}. Before the install phase the
     * attempt is rolled back like an abort; a throw from a participant's check (a commit-time
     * updater is user code) on a snapshot that no longer validates is retried like an exception
     * from the body. From the install phase on, every write not yet published gets a new version.
     * Returns a cause to retry with, or rethrows {@code t}.
     */
    private AbortCause commitFailed(Throwable t, int phase, long ts, int firstUnpublished) {
        if (phase < PHASE_INSTALL) {
            if (t == RollbackSignal.INSTANCE) {
                // A participant's check asked to roll back (through Txn.abort or a protocol read).
                AbortCause cause = doomCause != null ? doomCause : AbortCause.READ_VALIDATION;
                endAttempt(cause, null);
                return cause;
            }
            Throwable bug = releaseLocks(null);
            AbortCause cause = AbortCause.INTERNAL_FAILURE;
            if (phase == PHASE_CHECK && bug == null) {
                try {
                    cause = isReadSetCurrent() ? AbortCause.USER_EXCEPTION : AbortCause.INCONSISTENT_READ;
                } catch (Throwable b) {
                    bug = b;
                }
            }
            if (cause == AbortCause.INCONSISTENT_READ) {
                endAttempt(cause, null);
                return cause;
            }
            addSuppressed(t, bug);
            endAttempt(cause, t);
            throw sneakyThrow(t);
        }
        // Past the point of no return: never restore an old word. A failure while installing puts
        // the old values of built-in installs back while the items are still locked (a custom
        // install is not undone). A failure while publishing undoes nothing: every value is in
        // place and some are already visible, so the rest of the publication is completed. Either
        // way every write not yet published gets a new version.
        final Entry[] es = entries;
        int from = phase == PHASE_PUBLISH ? firstUnpublished : 0;
        for (int i = 0, n = phase == PHASE_INSTALL ? size : 0; i < n; i++) {
            Entry e = es[i];
            if ((e.flags & (Entry.WRITE | Entry.UNDO)) == (Entry.WRITE | Entry.UNDO)) {
                try {
                    e.undoInstall(this);
                } catch (Throwable bug) {
                    addSuppressed(t, bug);
                }
            }
        }
        for (int i = from, n = size; i < n; i++) {
            Entry e = es[i];
            if ((e.flags & Entry.WRITE) != 0) {
                try {
                    cc.unlockChanged(this, e, ts);
                } catch (Throwable bug) {
                    addSuppressed(t, bug);
                }
                e.flags &= ~Entry.LOCKED;
            }
        }
        endAttempt(AbortCause.INTERNAL_FAILURE, t);
        throw sneakyThrow(t);
    }

    /**
     * Rolls back the current attempt: releases locks, lets the protocol finish, runs cleanups,
     * counts the cause, and always leaves the context idle. With a {@code primary} throwable, that
     * one is thrown at the end with any failure of those steps suppressed into it; without one, the
     * first such failure is thrown once every step has run.
     */
    private void endAttempt(AbortCause cause, Throwable primary) {
        if (statistics) {
            aborts[cause.ordinal()]++;
        }
        Throwable bug = releaseLocks(null);
        if (primary != null) {
            addSuppressed(primary, bug);
            bug = primary;
        }
        finishAndClear(false, bug);
    }

    /** Releases every lock the attempt holds, each in its own try; returns the first failure. */
    private Throwable releaseLocks(Throwable failure) {
        final Entry[] es = entries;
        for (int i = 0, n = size; i < n; i++) {
            Entry e = es[i];
            if ((e.flags & Entry.LOCKED) != 0) {
                try {
                    cc.unlock(this, e);
                } catch (Throwable t) {
                    failure = failure == null ? t : addSuppressed(failure, t);
                }
                e.flags &= ~Entry.LOCKED;
            }
        }
        return failure;
    }

    /**
     * Calls the protocol's finish and every participant cleanup (each in its own try), then clears
     * the context whatever happened; rethrows the first failure ({@code pending} first) at the end.
     */
    private void finishAndClear(boolean committed, Throwable pending) {
        Throwable failure = pending;
        try {
            try {
                cc.finish(this, committed);
            } catch (Throwable t) {
                failure = failure == null ? t : addSuppressed(failure, t);
            }
            if (needsCleanup) {
                final Entry[] es = entries;
                for (int i = 0, n = size; i < n; i++) {
                    Entry e = es[i];
                    if ((e.flags & Entry.CLEANUP) != 0) {
                        try {
                            e.participant.cleanup(this, e, committed);
                        } catch (Throwable t) {
                            failure = failure == null ? t : addSuppressed(failure, t);
                        }
                    }
                }
            }
        } finally {
            clear();
        }
        if (failure != null) {
            throw sneakyThrow(failure);
        }
    }

    /** Adds {@code extra} to {@code primary}'s suppressed list if it can (never throws); returns primary. */
    private static Throwable addSuppressed(Throwable primary, Throwable extra) {
        if (extra != null && extra != primary) {
            try {
                primary.addSuppressed(extra);
            } catch (Throwable ignored) {
                // Out of memory for the list, or suppression disabled: the primary still wins.
            }
        }
        return primary;
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
        try {
            if (scratchTouchedCount != 0) {
                recycleScratch();
            }
        } finally {
            scratchTouchedCount = 0;
            hasWrites = false;
            hasInserts = false;
            insertMarks = 0;
            needsCleanup = false;
            status = IDLE;
        }
    }
    private boolean firstWrite(Entry e) {
        if (readOnly) {
            // Checked before the WRITE flag: a read-only block nested in a writing transaction
            // must refuse a write to an item the outer part already wrote.
            throw new IllegalStateException("write inside a transaction declared read-only");
        }
        if ((e.flags & Entry.WRITE) != 0) {
            return false;
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
        // Allocate everything first, then assign: an OutOfMemoryError part-way leaves the context
        // as it was (the caller's append fails, the attempt rolls back, the thread stays usable).
        int cap = entries.length << 1;
        Entry[] ne = Arrays.copyOf(entries, cap);
        for (int i = entries.length; i < cap; i++) {
            ne[i] = new Entry();
        }
        TxItem[] ni = Arrays.copyOf(items, cap);
        int[] nx = new int[cap * 2];
        int[] ns = new int[cap];
        entries = ne;
        items = ni;
        index = nx;
        slotOf = ns;
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

    /**
     * @return true from the start of an attempt to its end: while the body runs, after it swallowed
     *         a rollback (doomed), and while the attempt commits (commit-time updaters run then)
     */
    public boolean isInside() {
        return status != IDLE;
    }
}
