package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.Capabilities;
import io.jato.stm.RollbackSignal;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import io.jato.stm.TxnTimeoutException;
import io.jato.stm.TxnType;
import io.jato.stm.internal.StoreContexts;

import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/*
 * The transaction as data types and protocols see it: one object per (platform thread, store),
 * reused by every transaction of that thread in that store, or one of the store's pool, which a
 * virtual thread borrows for one outermost transaction (internal.StoreContexts). Its jobs are
 * split over package-private classes of this package, each with one job; the first four are
 * layers of this class's chain (Txn <- AccessSet <- ScratchPool <- CommitDriver <- RetryLoop <-
 * TxnContext), so that the fields every access and commit touches are this object's own (see
 * CommitDriver for the measurement), the others objects it holds:
 *
 *   AccessSet     the entries, their lookup, and the write / read / check lists the commit walks
 *   ScratchPool   pooled per-attempt objects (Scratch)
 *   CommitDriver  the commit phases and the rollback and failure paths
 *   RetryLoop     attempts, retries, backoff (what Stm.atomic runs)
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
public final class TxnContext extends RetryLoop {
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
    /** Serial number of the current attempt, counted per context; owner thread only. */
    long attemptId;
    /** The running transaction's type; owner thread only (the retry loop sets it). */
    TxnType type = TxnType.UNTYPED;
    /** The running transaction holds the store's escalation token; owner thread only (the retry loop sets it). */
    boolean escalated;
    /** The running transaction's age ({@link #age}); 0 until drawn. Owner thread only; reset by the retry loop. */
    long age;
    /** The polls argument of the last {@link #escalatedWaits} call; owner thread. */
    private int escalatedWaitPolls;
    /** When the wait {@link #escalatedWaits} is timing began ({@code System.nanoTime}); owner thread. */
    private long escalatedWaitStart;
    /**
     * Hooks registered in this attempt ({@link #beforeCommit}, {@link #afterCommit},
     * {@link #afterRollback}); 0 when none, which is all the retry loop checks.
     */
    int pendingHooks;
    /** The hook lists, created on first registration and reused by later transactions. */
    TxnHooks hooks;
    /** Why the last attempt rolled back (set by the commit driver; read by after-rollback hooks). */
    AbortCause endCause;

    // Blocking retry and orElse. Owner thread only.
    /** The wait of Txn.retry and retryFor. */
    final RetryWait retryWait = new RetryWait(this);
    /** Nesting depth of orElse alternatives that may still be skipped (Savepoints.orElse sets it). */
    int altDepth;
    /** Set by a retry that skips to the next alternative of the innermost orElse. */
    boolean altRetry;

    /** Nested blocks and their undo trail (closed nesting with partial rollback). */
    final Savepoints savepoints = new Savepoints();
    /**
     * Open nested blocks; 0 when none. Kept here, not in {@link #savepoints} (which alone writes
     * it): every buffered write tests it, and a field of the context costs no load of another
     * object.
     */
    int openBlocks;

    /** The running transaction's deadline in System.nanoTime() terms, valid while {@link #hasDeadline}. */
    long deadline;
    boolean hasDeadline;
    /** Opaque stores: the commit count at which this attempt's reads were last found current. */
    long validAt;

    /*
     * Remote aborts (only with a protocol that declares REMOTE_ABORT). (attemptId << 2) | state,
     * state RUNNING, ABORT_REQUESTED or COMMIT_POINT. The owner stores attemptId << 2 with release
     * when an attempt begins and CASes RUNNING -> COMMIT_POINT at its point of no return; another
     * thread CASes RUNNING -> ABORT_REQUESTED for the attempt it names. Whoever's CAS wins decides
     * whether the attempt commits: a requester never aborts an attempt past its point of no return,
     * nor a later attempt than the one it saw.
     */
    private static final VarHandle REMOTE;
    private static final long RUNNING = 0;
    private static final long ABORT_REQUESTED = 1;
    private static final long COMMIT_POINT = 2;
    @SuppressWarnings("unused") // accessed through REMOTE
    private volatile long remote;

    static {
        try {
            REMOTE = java.lang.invoke.MethodHandles.lookup().findVarHandle(TxnContext.class, "remote", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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

    /**
     * @return true if the running attempt holds the store's escalation token: its transaction
     *         aborted {@link Stm.Builder#escalateAfter} times, and no other transaction of the store
     *         commits a write until it ends. Protocols give it priority: it waits for locks instead
     *         of aborting, and nobody waits for it ({@code docs/lock-family.md}). Owner thread; a
     *         plain field read.
     */
    public boolean isEscalated() {
        return escalated;
    }

    /**
     * @return true if the store runs with opacity ({@code Stm.Builder.opacity}): a read must never
     *         hand the body a value that, with the others it read, no commit order explains. A
     *         protocol that may return a version still being replaced (and leave the rest to
     *         commit-time validation) must not do so here: the store-wide commit counter the
     *         opacity checks read moves before the installs, so it cannot tell. Owner thread.
     */
    public boolean isOpaque() {
        return opaque;
    }

    /**
     * The running transaction's age, for protocols that order conflicting transactions by when they
     * started (wait-die, wound-wait): drawn from the store's age sequence at the transaction's first
     * call, then the same for all of its attempts, and reset when the thread's next transaction
     * begins. Smaller is older. One sequence serves every protocol of a store, so that a store whose
     * objects are bound to several lock-taking protocols orders any two transactions the same way in
     * each of them (separate sequences let two transactions each be the older one in a different
     * protocol and wait for each other). Owner thread; a plain field read after the first call, one
     * atomic add on the store's padded sequence at the first.
     *
     * @return the age, at least 1
     */
    public long age() {
        long a = age;
        if (a == 0) {
            a = protocolContext.ages.next();
            age = a;
        }
        return a;
    }

    /** How long an escalated transaction waits for one holder before it gives up ({@link #escalatedWaits}). */
    public static final long ESCALATED_WAIT_NANOS = 250_000_000L;

    /**
     * Whether an escalated transaction goes on waiting for the holder of an item, at the
     * {@code polls}-th poll of one wait (a wait's polls are consecutive numbers, pausing with
     * {@link LockBitWords#pause}, which yields after a short spin; any other number starts a new
     * wait). It waits up to {@link #ESCALATED_WAIT_NANOS}: long enough to wait out a committer
     * descheduled while it holds the item, but bounded, because a non-transactional operation that
     * locks several items (a record's groups) waits for each while holding the ones before it, so
     * an escalated transaction that waited for it without a bound while holding one of those items
     * would deadlock with it. Past the bound the protocol aborts as it would without escalation;
     * the transaction stays escalated. Reads the clock on every call: escalated waits only.
     *
     * @return true if this attempt is escalated and its current wait is younger than the bound;
     *         owner thread
     */
    public boolean escalatedWaits(int polls) {
        if (!escalated) {
            return false;
        }
        long now = System.nanoTime();
        if (polls != escalatedWaitPolls + 1) {
            escalatedWaitStart = now;
        }
        escalatedWaitPolls = polls;
        return now - escalatedWaitStart < ESCALATED_WAIT_NANOS;
    }

    @Override
    public RuntimeException abort() {
        checkActive();
        throw rollback(AbortCause.USER_ABORT);
    }

    @Override
    public void beforeCommit(TxnRunnable hook) {
        hooksToRegister(hook).addBefore(hook);
    }

    @Override
    public void afterCommit(Runnable hook) {
        hooksToRegister(hook).addAfter(hook);
    }

    @Override
    public void afterRollback(Consumer<? super AbortCause> hook) {
        hooksToRegister(hook).addRollback(hook);
    }

    @Override
    public RuntimeException retry() {
        checkActive();
        throw retryNow();
    }

    @Override
    public void retryFor(long timeout, TimeUnit unit) {
        checkActive();
        Objects.requireNonNull(unit, "unit");
        if (timeout < 0) {
            throw new IllegalArgumentException("retryFor timeout must be >= 0, got " + timeout + " " + unit);
        }
        if (retryWait.beforeDeadline(timeout, unit)) {
            throw retryNow();
        }
    }

    @Override
    public void timeout(long timeout, TimeUnit unit) {
        checkActive();
        Objects.requireNonNull(unit, "unit");
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout must be >= 0, got " + timeout + " " + unit);
        }
        long d = System.nanoTime() + Math.min(unit.toNanos(timeout), Long.MAX_VALUE / 4);
        if (!hasDeadline || d - deadline < 0) {
            deadline = d;
            hasDeadline = true;
        }
    }

    @Override
    public void validate() {
        checkActive();
        if (hasDeadline && System.nanoTime() - deadline >= 0) {
            throw timedOut(null);
        }
        if (!isReadSetCurrent()) {
            throw rollback(AbortCause.READ_VALIDATION);
        }
    }

    /** The exception of a transaction whose deadline passed; {@code cause}: why its last attempt ended, if it did. */
    TxnTimeoutException timedOut(AbortCause cause) {
        return new TxnTimeoutException("transaction of store '" + storeName + "' passed its deadline after "
                + (attempt + 1) + " attempt(s)" + (cause == null ? "" : "; last abort: " + cause)
                + "; it was rolled back", cause, attempt + 1);
    }

    /**
     * Opaque stores, after a read that went to shared memory: if a writing commit started since
     * the reads were last found current, checks them all again and rolls back if one changed.
     * The counter is loaded after the read, so a value installed by a commit is never seen without
     * that commit's increment (see {@link io.jato.stm.internal.CommitCounter}).
     */
    private void opaqueCheck() {
        long c = protocolContext.commits.current();
        if (c != validAt) {
            if (!isReadSetCurrent()) {
                throw rollback(AbortCause.READ_VALIDATION);
            }
            validAt = c;
        }
    }

    /** Starts an attempt's opacity bookkeeping (the retry loop, opaque stores only). */
    void beginOpaque() {
        validAt = protocolContext.commits.current();
    }

    /** Skips to the next orElse alternative if one is open; else arms the wait and rolls back. */
    private RuntimeException retryNow() {
        if (altDepth != 0) {
            altRetry = true;
            throw RollbackSignal.INSTANCE;
        }
        if (readCount() == 0 && !retryWait.hasDeadline()) {
            throw new IllegalStateException("retry() in a transaction of store '" + storeName + "' that has read"
                    + " nothing: no commit could ever wake it (retry after reading the state you wait for)");
        }
        retryWait.arm();
        throw rollback(AbortCause.RETRY);
    }

    @Override
    public <T> T orElse(TxnFunction<T> first, TxnFunction<T> second) {
        checkActive();
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        return savepoints.orElse(this, first, second);
    }

    /** Runs a block nested in this running transaction (closed nesting; see {@link Savepoints#runNested}). */
    <T> T runNested(TxnFunction<T> fn, TxnRunnable body) {
        return savepoints.runNested(this, fn, body);
    }

    /** @return the hook lists, or null if no hook was ever registered on this context */
    TxnHooks hooks() {
        return hooks;
    }

    /** Transaction-local values for {@link Savepoints} (the protected methods of {@link Txn}). */
    int localsOpen() {
        return openLocals();
    }

    void localsRollback(int mark) {
        rollbackLocals(mark);
    }

    void localsClose() {
        closeLocals();
    }

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

    private TxnHooks hooksToRegister(Object hook) {
        checkActive();
        Objects.requireNonNull(hook, "hook");
        TxnHooks h = hooks;
        if (h == null) {
            hooks = h = new TxnHooks();
        }
        pendingHooks++;
        return h;
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
                if (cc.stableWord(item) == w) {
                    logWord(item, w);
                    if (opaque) {
                        opaqueCheck();
                    }
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
                if (cc.stableWord(item) == w) {
                    logWord(item, w);
                    if (opaque) {
                        opaqueCheck();
                    }
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

    // ------------------------------------------------------------------ remote aborts (SPI)

    /**
     * @return the serial number of the current attempt of this context (owner thread; a protocol
     *         records it in its state so that another thread can name the attempt to
     *         {@link #requestAbort})
     */
    public long attemptId() {
        return attemptId;
    }

    /**
     * Asks that attempt {@code attemptId} of this context not commit; callable from any thread, by
     * a protocol that declared {@link Capabilities.Feature#REMOTE_ABORT} (a contention manager).
     * The owner notices at its next poll ({@link #abortRequested()}, which the protocol's hooks
     * call where it wants the abort to take effect, and the commit driver calls before locking),
     * or at the latest at its point of no return, and ends the attempt with
     * {@link AbortCause#REMOTE_ABORT}, releasing its locks. Lock-free; never blocks.
     *
     * @return true if the attempt will not commit; false if it already passed its point of no
     *         return, already ended, or a later attempt runs (nothing is then changed)
     * @throws IllegalStateException if the store's protocol did not declare REMOTE_ABORT
     */
    public boolean requestAbort(long attemptId) {
        if (!remoteAborts) {
            throw new IllegalStateException("protocol '" + cc.name() + "' did not declare REMOTE_ABORT in its capabilities");
        }
        long attempt = attemptId << 2;
        for (;;) {
            long w = (long) REMOTE.getVolatile(this);
            if (w == (attempt | ABORT_REQUESTED)) {
                return true;
            }
            if (w != (attempt | RUNNING)) {
                return false;
            }
            if (REMOTE.compareAndSet(this, w, attempt | ABORT_REQUESTED)) {
                return true;
            }
        }
    }

    /** @return true if another thread asked that the current attempt not commit (owner thread; a volatile load) */
    public boolean abortRequested() {
        return ((long) REMOTE.getVolatile(this) & 3) == ABORT_REQUESTED;
    }

    /** Begins an attempt's remote-abort word (owner; only with remote aborts). */
    void publishAttempt() {
        REMOTE.setRelease(this, attemptId << 2 | RUNNING);
    }

    /**
     * Passes the point of no return (owner; only with remote aborts): false if a remote abort won,
     * and the attempt must end with {@link AbortCause#REMOTE_ABORT}.
     */
    boolean passCommitPoint() {
        long running = attemptId << 2 | RUNNING;
        return REMOTE.compareAndSet(this, running, attemptId << 2 | COMMIT_POINT);
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
