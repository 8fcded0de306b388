package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.Capabilities;
import io.jato.stm.RollbackSignal;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnType;
import io.jato.stm.internal.StoreContexts;

import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.Objects;

/*
 * The transaction as data types and protocols see it: one object per (platform thread, store),
 * reused by every transaction of that thread in that store, or one of the store's pool, which a
 * virtual thread borrows for one outermost transaction (internal.StoreContexts). Its jobs are
 * split over package-private classes of this package, each with one job; the first five are
 * layers of this class's chain (Txn <- AccessSet <- ScratchPool <- CommitDriver <- RetryLoop <-
 * UserTxn <- TxnContext), so that the fields every access and commit touches are this object's own
 * (see CommitDriver for the measurement), the others objects it holds:
 *
 *   AccessSet     the entries, their lookup, and the write / read / check lists the commit walks
 *   ScratchPool   pooled per-attempt objects (Scratch)
 *   CommitDriver  the commit phases, the rollback and failure paths, remote aborts
 *   RetryLoop     attempts, retries, backoff (what Stm.atomic runs)
 *   UserTxn       what a body asks of its Txn besides reads and writes: abort, hooks, retry,
 *                 orElse, deadlines, validate; escalation and age for protocols
 *   TxnContext    (this class) the store's link, the attempt's state, and the SPI data types
 *                 call to read and write
 *   TxnCounters   statistics (read by other threads, so padded apart)
 *   Savepoints    nested blocks and orElse
 *   RetryWait     the wait of a blocking retry
 *   TxnHooks      before-commit, after-commit and after-rollback hooks (the retry loop runs them)
 *
 * They live in this package, not in internal, because they manage Entry's package-private state.
 * The store reaches the store-only entry points (create, execute, statistics) through
 * internal.StoreAccess, implemented here by StoreAccessImpl; nothing of them is public.
 */

/**
 * The implementation of {@link Txn}, and the SPI through which transactional objects record reads
 * and writes and protocols see a transaction's access set. One instance exists per platform thread
 * and store, and a pool of them per store serves virtual threads, one transaction at a time; the
 * store creates and reuses them.
 *
 * <p>Data types obtain it with {@link #of(Txn, Stm)}, which checks that the transaction is active,
 * on the calling thread and in the object's store. All methods must be called by the owning thread.
 */
public final class TxnContext extends UserTxn {
    static final int IDLE = 0;
    static final int ACTIVE = 1;
    static final int DOOMED = 2;
    static final int COMMITTING = 3;
    /** The attempt ended and its after-rollback hooks run: the transaction may not be used or joined. */
    static final int HOOKS = 4;

    static {
        StoreAccessImpl.install();
    }

    /*
     * Weak: the thread's ThreadLocalMap holds this context strongly, so a strong reference back to
     * the store would keep every store a thread ever used (and its ThreadLocal key) alive as long as
     * the thread lives. Store identity is checked through the protocol instance, unique per store.
     */
    private final WeakReference<Stm> stm;
    private final String storeName;
    private final Object ccState;
    /** In a store that mixes protocols: each domain's protocol state (set by MixedControl.newTxnState), else null. */
    Object[] childStates;
    /**
     * The thread that runs this context's transactions: its platform thread for life, or for a
     * pooled context the virtual thread that borrowed it (null while idle in the pool). Written by
     * that thread when it borrows and returns the context (the pool's queue orders the hand-over);
     * read by it, and by the store when it sweeps dead platform threads (a platform context's,
     * which never changes).
     */
    Thread owner;
    /** The pool this context belongs to (virtual threads borrow it), or null: a platform thread's own. */
    final StoreContexts pool;
    /** Position in the store's list of contexts; guarded by the store's {@link StoreContexts}. */
    int storeIndex;
    /** The adapters of the primitive and checked transaction forms. */
    final BodyAdapters bodies = new BodyAdapters();

    /**
     * What the owner thread runs, across all stores (to refuse a transaction inside another
     * store's). Set with {@link #owner}; null while a pooled context is idle.
     */
    ThreadTransactions thread;
    /** The protocol validates every read ({@link ConcurrencyControl#validatesEveryRead}): declared read-only attempts keep read logs. */
    final boolean readLogs;
    /** The protocol {@link ConcurrencyControl#logsReadWords logs read words}: read logs log value cells' reads as words. */
    final boolean wordLogs;

    // The attempt's state; owner thread only (the retry loop and the commit driver write it).
    int status = IDLE;
    /** The running block may not write (the transaction's or a nested block's declaration). */
    boolean readOnly;
    /** The whole transaction was declared read-only when it started (not only a nested block). */
    boolean declaredReadOnly;
    /** The protocol serves this attempt's cell reads at its snapshot, with no entry ({@link #readCellsAtSnapshot}). */
    boolean snapshotCells;
    /**
     * How old a declared read-only transaction's snapshot may be, in nanoseconds; 0 when none was
     * declared. Set around the outermost call by {@code Stm.readOnly(Duration, ...)}; owner thread only.
     */
    long maxStalenessNanos;
    /** The committing attempt installed every write (its publish phase began); set by the commit driver. */
    boolean installsComplete;
    AbortCause doomCause;
    int attempt;
    /** The running transaction's type; owner thread only (the retry loop sets it). */
    TxnType type = TxnType.UNTYPED;

    /** The wait of Txn.retry and retryFor; owner thread only. */
    final RetryWait retryWait = new RetryWait(this);

    /** Nested blocks and their undo trail (closed nesting with partial rollback). */
    final Savepoints savepoints = new Savepoints();
    /**
     * Open nested blocks; 0 when none. Kept here, not in {@link #savepoints} (which alone writes
     * it): every buffered write tests it, and a field of the context costs no load of another
     * object.
     */
    int openBlocks;


    /** Created by the store, through {@link io.jato.stm.internal.StoreAccess}. */
    TxnContext(Stm stm, ConcurrencyControl cc, ProtocolContext protocolContext, boolean statistics, long[] settings,
               StoreContexts pool) {
        super(cc, protocolContext, statistics, settings);
        this.stm = new WeakReference<>(stm);
        this.storeName = stm.name();
        this.pool = pool;
        if (pool == null) {
            this.owner = Thread.currentThread();
            this.thread = ThreadTransactions.current();
        }
        this.readLogs = cc.validatesEveryRead();
        this.wordLogs = readLogs && cc.logsReadWords();
        Object state = cc.newTxnState(this);
        try {
            protocolContext.registerTxnState(state);
        } catch (Throwable t) {
            // Out of memory copying the registry: no context will own the state, so let the
            // protocol drop whatever it registered for it (a mixed store's per-protocol states).
            try {
                cc.retireTxnState(state);
            } catch (Throwable b) {
                CommitDriver.addSuppressed(t, b);
            }
            throw t;
        }
        this.ccState = state;
    }

    /** @return the name of the store this context belongs to (for messages) */
    String storeName() {
        return storeName;
    }

    /** A virtual thread took this pooled context from the pool: it owns it until {@link #unbind}. */
    void bind() {
        Thread t = Thread.currentThread();
        retryWait.bind(t);
        owner = t;
        thread = ThreadTransactions.current();
    }

    /** The borrowing thread gives this pooled context back: nothing of the thread stays reachable from it. */
    void unbind() {
        ThreadTransactions t = thread;
        if (t != null && t.running == this) {
            t.running = null;
        }
        thread = null;
        owner = null;
    }

    /**
     * The owner thread died, or the pool was full: the store drops this context; its protocol state
     * leaves the registry.
     */
    void retire() {
        if (protocolContext.unregisterTxnState(ccState)) {
            cc.retireTxnState(ccState);
        }
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
    public TxnType type() {
        return type;
    }

    // ------------------------------------------------------------------ SPI for data types

    /**
     * For a data type about to change {@code e}'s pending state in place — through
     * {@link Entry#setPendingRef}/{@link Entry#setPendingLong}, or by mutating the object its pending
     * value is — rather than through this class's write methods (which do this themselves). Inside a
     * nested block (a nested {@code atomic}, an {@code orElse} alternative) it saves the entry's
     * pending state the first time the block changes an entry older than the block, so that a
     * rollback of the block can restore it. Costs one field check outside nested blocks.
     *
     * @return true if the state was saved now: a pending value that is a mutable object must then be
     *         replaced by a copy before it is changed (the saved reference must keep the old contents);
     *         false if no block is open, the entry is the block's own, or it was saved already
     */
    public boolean keepPending(Entry e) {
        return openBlocks != 0 && savepoints.keep(e);
    }

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
                    + (owner == null ? "' after it ended (its virtual thread gave its context back)"
                    : "' but it belongs to thread '" + owner.getName() + "'"));
        }
        if (status != ACTIVE) {
            if (status == DOOMED) {
                // The body swallowed our signal; keep unwinding.
                throw RollbackSignal.INSTANCE;
            }
            if (status == HOOKS) {
                throw new IllegalStateException("transaction of store '" + storeName + "' used from an after-rollback"
                        + " hook: the attempt has ended; a hook must not use it, register hooks or start a transaction"
                        + " (single() views may be used)");
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

    /**
     * @return the per-transaction state of the protocol whose {@link ProtocolContext#stateSlot()}
     *         is {@code slot}: {@link #ccState()} for -1 (a store of one protocol), else the state
     *         of that domain's protocol in a store that mixes protocols. A protocol that may be
     *         mixed reads its state this way.
     */
    public Object ccState(int slot) {
        return slot < 0 ? ccState : childStates[slot];
    }

    /**
     * @return true if this context is one of the store's pool, which virtual threads borrow for one
     *         outermost transaction at a time; false for a platform thread's own. With a pooled
     *         context, one thread's consecutive transactions may run in different contexts and a
     *         context serves several threads in turn: a protocol whose per-transaction state keeps
     *         an order per thread (MVCC's clock: a thread's snapshot includes its own commits) must
     *         carry that order across contexts ({@code docs/protocol-spi.md}). A final field.
     */
    public boolean isPooled() {
        return pool != null;
    }

    /** @return the store's protocol instance */
    public ConcurrencyControl cc() {
        return cc;
    }

    /** @return the entry at {@code i}, {@code 0 <= i < size()}, in the order the transaction first touched them */
    public Entry entryAt(int i) {
        return at(i);
    }

    /**
     * @return true if the whole transaction was declared read-only when it started
     *         ({@code stm.readOnly(...)}), so it can write nothing in any block; a read-only block
     *         nested in a writing transaction does not count. Only then may a protocol
     *         {@link #untrack} reads.
     */
    public boolean isDeclaredReadOnly() {
        return declaredReadOnly;
    }

    /**
     * @return for a transaction declared read-only with a staleness bound
     *         ({@code stm.readOnly(Duration, ...)}), how far in the past, in nanoseconds of the
     *         store's clock, its snapshot may be — a multi-version protocol may then serve it a
     *         snapshot that misses commits of that age or younger, this thread's own included; 0
     *         otherwise (a snapshot must include every transaction this thread committed before)
     */
    public long maxStalenessNanos() {
        return declaredReadOnly ? maxStalenessNanos : 0;
    }

    /**
     * For {@link ConcurrencyControl#unlockChanged}: true if the failed commit had installed every
     * write (it failed while publishing), so the write must become visible with the rest; false if
     * it failed while installing, when the driver puts back the old values of built-in installs
     * and a protocol that installs a write elsewhere (an MVCC delta version) drops it too.
     */
    public boolean installsComplete() {
        return installsComplete;
    }

    /**
     * Called by the protocol's {@link ConcurrencyControl#begin} for a declared read-only attempt it
     * serves from a fixed snapshot: the attempt's cell reads ({@link #readRef(RefItem)},
     * {@link #readLong(LongItem)}) then go to {@link ConcurrencyControl#readRefAtSnapshot} and
     * {@link ConcurrencyControl#readLongAtSnapshot} with no entry: no lookup, no append, nothing to
     * validate or clear. (A snapshot's cell read cost about 2.5 times an OCC word-logged read with an
     * entry.) Reads of other items (record groups, stripes, leaves) keep their entries. For the
     * attempt only: the next begin clears it.
     *
     * @throws IllegalStateException if the transaction was not declared read-only as a whole
     *                               ({@link #isDeclaredReadOnly()}); a protocol bug
     */
    public void readCellsAtSnapshot() {
        if (!declaredReadOnly) {
            throw new IllegalStateException("protocol " + cc.name() + " asked for snapshot reads in a transaction"
                    + " not declared read-only: only a read-only transaction's reads may skip validation");
        }
        snapshotCells = true;
    }

    /**
     * Called by the protocol's read hook for an entry it served from the transaction's snapshot:
     * the read needs no validation ({@link Entry#UNTRACKED}), so it joins no read list and the
     * commit never visits it. For multi-version protocols serving declared read-only
     * transactions ({@link io.jato.stm.Capabilities.Feature#SNAPSHOT_READS}).
     *
     * @throws IllegalStateException if the transaction was not declared read-only as a whole
     *                               ({@link #isDeclaredReadOnly()}): its writes would commit
     *                               on reads nobody validated; a protocol bug
     */
    public void untrack(Entry e) {
        if (!declaredReadOnly) {
            throw new IllegalStateException("protocol " + cc.name() + " untracked a read of a transaction"
                    + " not declared read-only: only a read-only transaction's snapshot reads may skip validation");
        }
        e.flags |= Entry.UNTRACKED;
    }

    /**
     * @return the number of reads this attempt logged as words instead of entries (a declared
     *         read-only attempt of a protocol that {@link ConcurrencyControl#logsReadWords logs read
     *         words}); they are in neither {@link #readCount()} nor {@link #size()}
     */
    public int loggedReadCount() {
        return logCount();
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
        if (snapshotCells) {
            return cc.readRefAtSnapshot(this, item);
        }
        if (wordLog) {
            // A declared read-only attempt: the value and the word that dates it, no entry.
            long w = cc.stableWord(item);
            if (w != ConcurrencyControl.UNSTABLE_WORD) {
                Object v = item.valueAcquire();
                if (!opaque) {
                    // The commit's validateWord is this seqlock read's second word load (see
                    // ConcurrencyControl.logsReadWords): a value newer than w fails it there.
                    logWord(item, w);
                    return v;
                }
                if (cc.stableWord(item) == w) {
                    logWord(item, w);
                    opaqueCheck();
                    return v;
                }
            }
            // Locked or changing: the protocol's read waits or aborts, with an entry.
        }
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

    /**
     * Reads, with no entry, a reference cell whose committed value no transaction will ever change
     * (an insert-only map's linked key; {@link ConcurrencyControl#readUnchangingRef}), if the
     * protocol allows it; the caller must have ruled out a pending write of its own to the item.
     *
     * @return the committed value, or null: then read the item as usual ({@link #readRef(RefItem)})
     */
    public Object readUnchangingRef(RefItem item) {
        if (snapshotCells) {
            // A snapshot reads every cell at its own timestamp.
            return null;
        }
        Object v = cc.readUnchangingRef(this, item);
        if (v != null && opaque) {
            // The value may come from a commit newer than this attempt's earlier reads.
            opaqueCheck();
        }
        return v;
    }

    /** Performs the protocol read of {@code item} into {@code e} (which must not be READ yet). */
    public Object readRef(RefItem item, Entry e) {
        Object v = cc.readRef(this, item, e);
        e.readRef = v;
        markRead(e);
        if (opaque) {
            opaqueCheck();
        }
        return v;
    }

    /** Reads a long cell, including this transaction's pending write or commit-time add. */
    public long readLong(LongItem item) {
        if (snapshotCells) {
            return cc.readLongAtSnapshot(this, item);
        }
        if (wordLog) {
            long w = cc.stableWord(item);
            if (w != ConcurrencyControl.UNSTABLE_WORD) {
                long v = item.valueAcquire();
                if (!opaque) {
                    logWord(item, w);
                    return v;
                }
                if (cc.stableWord(item) == w) {
                    logWord(item, w);
                    opaqueCheck();
                    return v;
                }
            }
        }
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
        markRead(e);
        if (opaque) {
            opaqueCheck();
        }
        return (e.flags & Entry.WRITE) != 0 && e.kind == Entry.KIND_ADD_LONG ? v + e.pendingLong : v;
    }

    /** Records the version of {@code item} (no value) unless already recorded; returns its entry. */
    public Entry observe(TxItem item) {
        Entry e = entry(item);
        if ((e.flags & Entry.READ) == 0) {
            cc.observe(this, item, e);
            markRead(e);
            if (opaque) {
                opaqueCheck();
            }
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
            markRead(e);
            if (opaque) {
                opaqueCheck();
            }
        }
    }

    /** Buffers a write of {@code value} to a reference cell. */
    public void writeRef(RefItem item, Object value) {
        Entry e = entry(item);
        if (openBlocks != 0) {
            savepoints.keep(e);
        }
        boolean first = firstWrite(e);
        e.writeRef(value);
        if (first) {
            onFirstWrite(e);
        }
    }

    /** Buffers a write of {@code value} to a long cell (replacing any pending commit-time add). */
    public void writeLong(LongItem item, long value) {
        Entry e = entry(item);
        if (openBlocks != 0) {
            savepoints.keep(e);
        }
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
        if (openBlocks != 0) {
            savepoints.keep(e);
        }
        boolean first = firstWrite(e);
        e.addLong(delta);
        if (first) {
            onFirstWrite(e);
        }
    }

    /**
     * Declares that the custom write of {@code e} consists of commit-time operations only, one more
     * of which was just added ({@link Entry#UPDATE}); {@link Entry#COMMUTATIVE} stays set only while
     * every operation added is commutative. Call after {@link #writeCustom} and after each added
     * operation, and {@link #clearUpdate} once a blind write or a materializing read replaces them.
     */
    public void markUpdate(Entry e, boolean commutative) {
        if (openBlocks != 0) {
            savepoints.keep(e);
        }
        int f = e.flags;
        if ((f & Entry.WRITE) == 0) {
            throw new IllegalStateException("markUpdate on an entry that is not a write");
        }
        if ((f & Entry.UPDATE) == 0) {
            e.flags = f | Entry.UPDATE | (commutative ? Entry.COMMUTATIVE : 0);
        } else if (!commutative) {
            e.flags = f & ~Entry.COMMUTATIVE;
        }
    }

    /** The write of {@code e} is no longer operations only (see {@link #markUpdate}). */
    public void clearUpdate(Entry e) {
        if (openBlocks != 0) {
            savepoints.keep(e);
        }
        e.flags &= ~(Entry.UPDATE | Entry.COMMUTATIVE);
    }

    /** Makes {@code e} a custom write of {@code value} installed by {@code participant}. */
    public void writeCustom(Entry e, TxParticipant participant, Object key, Object value) {
        if (openBlocks != 0) {
            savepoints.keep(e);
        }
        boolean first = firstWrite(e);
        e.writeCustom(participant, key, value);
        if (first) {
            onFirstWrite(e);
        }
    }

    /** Makes {@code e} a version-only write (its item gets a new version at commit). */
    public void writeVersion(Entry e) {
        if (openBlocks != 0) {
            savepoints.keep(e);
        }
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
    public <T extends Scratch.Pooled> T borrow(Scratch<T> kind) {
        return borrowScratch(kind);
    }

    /** Asks for {@link TxParticipant#check} on {@code e} during commit validation. */
    public void requestCheck(Entry e, TxParticipant participant) {
        e.participant = participant;
        markCheck(e);
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

    /**
     * Ends the attempt's bookkeeping: empties the access set and the scratch pool, and goes idle,
     * whatever throws (only a scratch object's recycle can; it is rethrown after).
     */
    void clear() {
        try {
            savepoints.reset(this);
            clearLocals();
            clearSet();
        } finally {
            try {
                recycleAll();
            } finally {
                status = IDLE;
            }
        }
    }

    private boolean firstWrite(Entry e) {
        if (readOnly) {
            // Checked before the WRITE flag: a read-only block nested in a writing transaction
            // must refuse a write to an item the outer part already wrote.
            throw new IllegalStateException("write inside a transaction declared read-only");
        }
        int f = e.flags;
        if ((f & Entry.WRITE) != 0) {
            return false;
        }
        if ((f & Entry.HELD) != 0) {
            // Listed and locked already (a nested block wrote it and rolled back).
            e.flags = f & ~Entry.HELD;
            return false;
        }
        addWrite(e);
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
}
