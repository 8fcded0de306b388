package io.jato.protocols.mvcc;

import io.jato.protocols.tictoc.TicTocWord;
import io.jato.stm.AbortCause;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LockBitWords;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static io.jato.protocols.tictoc.TicTocWord.LOCKED;
import static io.jato.protocols.tictoc.TicTocWord.RETIRED;
import static io.jato.protocols.tictoc.TicTocWord.wts;

/*
 * MVCC in the style of Cicada and MSTO (seed 002 §2.2); the design and the correctness argument
 * are in docs/mvcc.md. In short:
 *
 * Item. The primary word is TicToc's (wts of the newest committed version, lock and retired
 * bits), the secondary word that version's rts, and the value in place (a cell's value, a
 * record's columns) is that version: Cicada's inlined version. Older versions hang off the ext
 * slot, newest first (Version: wts, end, value or a record's column copy).
 *
 * Execution. A tracked attempt reads at its execution timestamp from MvccClock; a declared
 * read-only attempt reads at a stable snapshot, untracked. A read takes the newest version whose
 * wts is at or below the read timestamp: the one in place if it is old enough, else one from the
 * chain. A tracked reader that meets a version whose replacement is being committed (its item
 * locked) waits a bounded time; a snapshot reader never waits (nothing can commit at or below it).
 * That read path is VersionReads; delta versions are DeltaWrites; the clock is MvccClock; the
 * collector of kept deletes is DeleteCollector.
 *
 * Commit, on the driver's hooks:
 *  phase 1  lock      lock the word, push the version in place onto the chain as PENDING (a new
 *                     version per write: inherent), cut versions no snapshot can read;
 *           commitTimestamp = max(execution timestamp, floor, rts + 1 of every written item,
 *                     wts of every read version); for a write-free attempt max(wts of every
 *                     read version, min(floor, execution timestamp));
 *  phase 2  validate  each read version must still be the item's version at the commit
 *                     timestamp: valid until its end (an old version), or still in place with its
 *                     rts extended to the timestamp (TicToc's extension, the rts update of MSTO's
 *                     phase 2); prepare fixes the timestamp (a spanning commit's agreed one);
 *  phase 3  install   in place, then publish: the pushed version's end := commit timestamp
 *                     (COMMITTED), rts, then the word (release stores); unlock on abort pops the
 *                     pushed version (ABORTED: it is never seen again).
 *  finish             ends the attempt's published timestamps; committed deletes are unlinked
 *                     once the horizon passes them (keepsDeleted).
 */

/**
 * One store's MVCC instance (protocol {@value MvccProtocol#NAME}): serializable, multi-version,
 * with declared read-only transactions reading a stable snapshot in the recent past without
 * validation. Thread-safe; one instance serves every thread of the store.
 */
public final class MvccControl extends ConcurrencyControl {
    private static final VarHandle FLOOR;
    /** Entry flag: this commit (or the abort path) owns the version on top of the item's chain. */
    private static final int PUSHED = Entry.PROTOCOL_FLAG_0;
    /** Entry flag (write entries that are not read): a member of a delta group ({@link DeltaWrites}). */
    private static final int DELTA = DeltaWrites.MEMBER;
    /** A chain longer than this after trimming makes the locking thread recompute the horizon. */
    private static final int LONG_CHAIN = 8;

    static {
        try {
            FLOOR = MethodHandles.lookup().findVarHandle(MvccControl.class, "floor", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ProtocolContext context;
    private final int stateSlot;
    /** The store binds objects to several protocols: no snapshot reads (a transaction may span them). */
    private final boolean mixed;
    private final int lockSpins;
    private final int readSpins;
    private final MvccClock clock;
    /** Commutative adds as delta versions. */
    private final DeltaWrites deltas;
    /** The execution-time read path: which version an attempt reads, and what it records. */
    private final VersionReads reads;
    /** Unlinks committed deletes once no snapshot can read below them. */
    private final DeleteCollector deletes;

    /**
     * The least commit timestamp of any commit from now on: raised by non-transactional locks
     * (structure changes) and by {@link #retire}, as TicToc's floor (docs/tictoc.md). Written by
     * CAS, read with volatile loads by every commit.
     */
    @SuppressWarnings("unused") // through FLOOR
    private volatile long floor;

    MvccControl(ProtocolContext context) {
        this.context = context;
        this.stateSlot = context.stateSlot();
        this.mixed = context.isMixed();
        this.lockSpins = context.lockSpinLimit();
        this.readSpins = context.readSpinLimit();
        this.clock = new MvccClock(context);
        this.deltas = new DeltaWrites(this, context, mixed, lockSpins);
        this.reads = new VersionReads(readSpins);
        this.deletes = new DeleteCollector(context, clock);
    }

    @Override
    public String name() {
        return MvccProtocol.NAME;
    }

    /** Orders by commit timestamps: a spanning commit validates and installs at the agreed one. */
    @Override
    public boolean ordersByTimestamp() {
        return true;
    }

    /**
     * True: a declared read-only attempt keeps its reads as a log, with no lookup before each read.
     * A snapshot reads every item at one timestamp and validates nothing, so two entries of one
     * item see the same version; a tracked attempt validates every entry at its commit timestamp,
     * where the versions of an item cover disjoint intervals, so two entries that saw different
     * versions cannot both pass. Neither serves a repeat from its entry. (A snapshot's stock-level
     * spent a fifth of its time in the access set's lookups before.)
     */
    @Override
    public boolean validatesEveryRead() {
        return true;
    }

    @Override
    public Object newTxnState(TxnContext txn) {
        return new MvccTxnState();
    }

    @Override
    public void retireTxnState(Object state) {
        // The dead thread's kept deletes are no longer reachable through the registry: the
        // store's list inherits them, and the next collection unlinks them.
        deletes.adopt(((MvccTxnState) state).kept);
        // Its pushed versions the horizon has passed go now; the rest stay until their items'
        // next writes trim them (nobody finishes for a dead thread).
        ((MvccTxnState) state).pushed.cutUpTo(clock.horizon());
        // Its last commit must stay below every later snapshot (TxDequeContractTest saw 8
        // elements a joined consumer had taken, read by a snapshot after the join).
        clock.retired((MvccTxnState) state);
    }

    private MvccTxnState state(TxnContext txn) {
        return (MvccTxnState) txn.ccState(stateSlot);
    }

    @Override
    public void begin(TxnContext txn) {
        MvccTxnState s = state(txn);
        if (s.readTs != 0) {
            // The previous attempt's finish did not run (a hook threw before it): end what it
            // published, and count the timestamp it may have installed at.
            clock.closeTracked(s, s.commitTs);
            clock.closeSnapshot(s);
        }
        s.seen = 0;
        s.commitTs = 0;
        s.unchangingWts = 0;
        s.operationDeltas = false;
        if (txn.isPooled()) {
            // A virtual thread's previous transaction may have committed in another context.
            clock.takeOver(s);
        }
        // A snapshot is this protocol's alone: in a store of several protocols a read-only
        // transaction may span them, and the others validate at commit (docs/mvcc.md).
        if (txn.isDeclaredReadOnly() && !mixed) {
            long snapshot = clock.openSnapshot(s, txn.maxStalenessNanos());
            if (snapshot >= 0) {
                s.snapshotMode = true;
                txn.readCellsAtSnapshot();
                s.readTs = snapshot;
                return;
            }
        }
        s.snapshotMode = false;
        s.readTs = clock.openTracked(s);
    }

    // ------------------------------------------------------------------ execution-time reads (VersionReads)

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        return reads.refAt(txn, state(txn), item, e);
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        return reads.longAt(txn, state(txn), item, e);
    }

    /**
     * A tracked attempt's read of an item nobody will give a newer version (an insert-only map's
     * key): if the version in place is visible at the read timestamp it stays the visible one at
     * every later timestamp, so the read needs no entry, no validation and no rts extension; a
     * write-free commit only keeps its timestamp at or above the version's wts. A version above
     * the read timestamp (an insert after this attempt began), a lock or a retired item: read as
     * usual. Snapshots read their cells without entries already.
     */
    @Override
    public Object readUnchangingRef(TxnContext txn, RefItem item) {
        MvccTxnState s = state(txn);
        if (s.snapshotMode) {
            return null;
        }
        long w = Items.wordVolatile(item);
        if ((w & (LOCKED | RETIRED)) != 0 || wts(w) > s.readTs) {
            return null;
        }
        Object v = item.valueAcquire();
        if (Items.wordVolatile(item) != w) {
            // An insert into a placeholder the node held (its value changes once, under the lock).
            return null;
        }
        s.unchangingWts = Math.max(s.unchangingWts, wts(w));
        return v;
    }

    /** A snapshot's cell read, with no entry: the version at the snapshot ({@link TxnContext#readCellsAtSnapshot}). */
    @Override
    public Object readRefAtSnapshot(TxnContext txn, RefItem item) {
        return reads.refAt(txn, state(txn), item, null);
    }

    /** As {@link #readRefAtSnapshot}, for a long cell. */
    @Override
    public long readLongAtSnapshot(TxnContext txn, LongItem item) {
        return reads.longAt(txn, state(txn), item, null);
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        reads.observe(txn, state(txn), item, e);
    }

    /**
     * True if the version {@code e} observed is the one in place and the item is not locked by
     * another transaction: what makes an in-place read (a record's fields) consistent, and a
     * conservative answer for a read served from the chain (false once the item moved on).
     */
    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        if (e.has(VersionReads.NEWER_IN_PLACE)) {
            return false;
        }
        if (e.has(Entry.LOCKED)) {
            return wts(e.lockedWord()) == e.observed();
        }
        long w = Items.wordVolatile(e.item());
        return (w & LOCKED) == 0 && wts(w) == e.observed();
    }

    // ------------------------------------------------------------------ commit

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        if (deltas.isDelta(txn, e)) {
            if (e.kind() == Entry.KIND_CUSTOM) {
                state(txn).operationDeltas = true;
            }
            return deltas.join(txn, e);
        }
        TxItem item = e.item();
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0) {
                return AbortCause.DELETED;
            }
            if ((w & LOCKED) == 0) {
                if (Items.casWord(item, w, w | LOCKED)) {
                    e.setLockedWord(w);
                    e.addFlags(Entry.LOCKED);
                    pushOnLock(txn, e, w);
                    return null;
                }
            } else if (++spins > lockSpins) {
                return AbortCause.LOCK_BUSY;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Keeps the version in place as the chain's newest old version, PENDING until publish (Cicada's
     * phase 1 inserts the new version as pending instead; here the new one goes in place, so the
     * old one moves out). Allocates: a version per write is what multi-versioning costs.
     */
    private void pushOnLock(TxnContext txn, Entry e, long lockedWord) {
        TxItem item = e.item();
        Object ref = null;
        long value = 0;
        if (item instanceof RefItem) {
            ref = e.has(Entry.INSERT) ? NO_VERSION : ((RefItem) item).valueAcquire();
        } else if (item instanceof LongItem) {
            value = ((LongItem) item).valueAcquire();
        } else if (e.participant() != null) {
            ref = e.participant().captureVersion(txn, e);
        }
        push(item, wts(lockedWord), ref, value);
        e.addFlags(PUSHED);
    }

    private void push(TxItem item, long wts, Object ref, long value) {
        push(item, new Version(wts, ref, value, (Version) Items.extAcquire(item)));
    }

    /** Pushes {@code v} (whose next is the chain's head) onto a locked item's chain and cuts what no snapshot can read. */
    void push(TxItem item, Version v) {
        Items.setExtRelease(item, v);
        int kept = Version.trim(v, clock.horizon());
        if (kept > LONG_CHAIN && (kept == LONG_CHAIN + 1 || (kept & (MvccClock.ADVANCE_PERIOD - 1)) == 0)) {
            // The horizon may be stale: recompute it, now and then while a snapshot holds it.
            clock.advance();
            Version.trim(v, clock.horizon());
        }
    }

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        MvccTxnState s = state(txn);
        if (s.snapshotMode) {
            return s.readTs;
        }
        long ts = s.readTs;
        int writes = 0;
        for (int k = 0, n = txn.writeCount(); k < n; k++) {
            Entry e = txn.writeAt(k);
            if (context.owns(e)) {
                // Locked by us: rts only grows by extensions that will fail; volatile: the Dekker
                // pair with extendRts.
                ts = Math.max(ts, Items.word2Volatile(e.item()) + 1);
                writes++;
            }
        }
        long read = s.unchangingWts;
        for (int k = 0, n = txn.readCount(); k < n; k++) {
            Entry e = txn.readAt(k);
            if (context.owns(e) && !e.has(Entry.WRITE)) {
                read = Math.max(read, e.observed());
            }
        }
        if (writes == 0) {
            if (!mixed && txn.writeCount() == 0) {
                // Write-free: it installs no version, so neither the stable point nor a snapshot
                // depends on its timestamp, and it commits at the least one its reads allow: the
                // newest version it read, and above every delete it may have seen only as an
                // absence, which both the floor and the execution timestamp are (the lower of the
                // two suffices). Its reads then extend rts only up to there, where most already
                // reach, instead of up to the execution timestamp, which follows the clock and is
                // above nearly every rts (docs/mvcc.md, "Write-free commits").
                long deletes = Math.min((long) FLOOR.getVolatile(this), ts);
                return Math.max(Math.max(read, deletes), 1);
            }
            return Math.max(ts, read);
        }
        ts = Math.max(ts, read);
        // The floor orders writers after structure changes (a split hands a range to a fresh
        // leaf whose rts reserves nothing). Readers need not rise to it: a reader's timestamp is
        // above every delete the collector unlinked (docs/mvcc.md).
        ts = Math.max(ts, (long) FLOOR.getVolatile(this));
        // Room for the deletes the install may keep and the versions it pushed (publish must not allocate).
        s.kept.reserve(writes);
        s.pushed.reserve(writes);
        return ts;
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        if (e.has(Entry.LOCKED)) {
            // Read and written: the version read must be the one we locked.
            long lw = e.lockedWord();
            return wts(lw) == e.observed() ? null
                    : (lw & RETIRED) != 0 ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
        }
        if (e.observed2() >= commitTimestamp) {
            return null;
        }
        TxItem item = e.item();
        long observed = e.observed();
        for (int spins = 0;; ) {
            int r = TicTocWord.extendRts(item, observed, commitTimestamp);
            if (r == TicTocWord.VALID) {
                return null;
            }
            if (r == TicTocWord.CHANGED) {
                long w = Items.wordVolatile(item);
                if (wts(w) != observed) {
                    Version v = Version.written((Version) Items.extAcquire(item), observed);
                    if (v == null) {
                        return (w & RETIRED) != 0 ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
                    }
                    long end = v.end();
                    if (end != Version.PENDING) {
                        if (v instanceof DeltaGroup) {
                            // The base value alone (observed2 was exact for a read of a sum).
                            end = ((DeltaGroup) v).baseEnd();
                        }
                        return end > commitTimestamp ? null : AbortCause.READ_VALIDATION;
                    }
                }
            }
            // Locked by a writer that may commit at or below our timestamp: wait, boundedly
            // unless escalated (the holder is committing or aborts at the escalation check).
            if (++spins > readSpins && !txn.escalatedWaits(spins)) {
                return AbortCause.READ_LOCKED;
            }
            LockBitWords.pause(spins);
        }
    }

    /** Deltas of operations (record and map updaters) apply them here, before the point of no return ({@link DeltaWrites#prepare}). */
    @Override
    public AbortCause prepare(TxnContext txn, long commitTimestamp) {
        MvccTxnState s = state(txn);
        s.commitTs = commitTimestamp;
        return s.operationDeltas ? deltas.prepare(txn) : null;
    }

    /** Keeps every committed delete linked until no snapshot can read the version before it. */
    @Override
    public boolean keepsDeleted(TxnContext txn, Entry e) {
        MvccTxnState s = state(txn);
        s.kept.add(e.item(), e.participant(), s.commitTs);
        deletes.added();
        return true;
    }

    @Override
    public void retire(TxnContext txn, Entry e, long commitTimestamp) {
        super.retire(txn, e, commitTimestamp);
        // As TicToc: whoever finds the key absent from now on must commit after this delete.
        raiseFloor(commitTimestamp + 1);
        Items.setWordVolatile(e.item(), e.lockedWord() | LOCKED | RETIRED);
    }

    /** A delta's add joins its group at publish; others install in place. */
    @Override
    public void install(TxnContext txn, Entry e, long commitTimestamp) {
        if (!e.has(DELTA)) {
            e.installInPlace(txn, commitTimestamp);
        }
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        if (e.has(DELTA)) {
            deltas.leave(e, commitTimestamp, state(txn).pushed);
            return;
        }
        TxItem item = e.item();
        if (e.has(PUSHED)) {
            Version head = (Version) Items.extAcquire(item);
            head.setEnd(commitTimestamp);
            e.clearFlags(PUSHED);
            state(txn).pushed.add(item, head);
        }
        boolean retire = e.has(Entry.RETIRE);
        Items.setWord2Release(item, commitTimestamp);
        Items.setWordRelease(item, TicTocWord.wordOf(commitTimestamp) | (retire ? RETIRED : 0L));
    }

    /**
     * A delta of a commit that failed while publishing commits with the rest; one that failed
     * while installing leaves without its add, as the driver puts built-in installs back.
     */
    @Override
    public void unlockChanged(TxnContext txn, Entry e, long commitTimestamp) {
        if (e.has(DELTA)) {
            deltas.leave(e, txn.installsComplete() ? commitTimestamp : 0, state(txn).pushed);
            return;
        }
        publish(txn, e, commitTimestamp);
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        if (e.has(DELTA)) {
            deltas.leave(e, 0, state(txn).pushed);
            return;
        }
        TxItem item = e.item();
        if (e.has(PUSHED)) {
            Items.setExtRelease(item, ((Version) Items.extAcquire(item)).next());
            e.clearFlags(PUSHED);
        }
        Items.setWordRelease(item, e.lockedWord());
    }

    @Override
    public void finish(TxnContext txn, boolean committed, AbortCause cause) {
        MvccTxnState s = state(txn);
        if (s.snapshotMode) {
            clock.closeSnapshot(s);
            s.snapshotMode = false;
        } else {
            // commitTs is set once prepare passed: versions may carry it even if the install failed.
            clock.closeTracked(s, s.commitTs);
        }
        s.readTs = 0;
        if (committed) {
            if (txn.isPooled()) {
                clock.handOff(s);
            }
            clock.committed(s);
        }
        if (s.pushed.size() != 0) {
            s.pushed.cutUpTo(clock.horizon());
        }
        deletes.collectIfAny();
    }

    private void raiseFloor(long ts) {
        for (;;) {
            long f = (long) FLOOR.getVolatile(this);
            if (f >= ts || FLOOR.compareAndSet(this, f, ts)) {
                return;
            }
        }
    }

    // ------------------------------------------------------------------ non-transactional

    @Override
    public long lockNonTx(TxItem item) {
        return lockNonTx(item, Integer.MAX_VALUE);
    }

    /** A held item is in a commit's short lock window: spin a little for it, then report it busy. */
    @Override
    public long tryLockNonTx(TxItem item) {
        return lockNonTx(item, LockBitWords.TRY_LOCK_SPINS);
    }

    private long lockNonTx(TxItem item, int maxSpins) {
        for (int spins = 0;; spins++) {
            long w = Items.wordVolatile(item);
            if ((w & (RETIRED | LOCKED)) == RETIRED) {
                return RETIRED_ITEM;
            }
            if ((w & LOCKED) == 0 && Items.casWord(item, w, w | LOCKED)) {
                if (deletes.isWrittenSinceUnlinking(item, w)) {
                    // A kept delete's item written again since: not this delete's to unlink.
                    Items.setWordRelease(item, w);
                    return RETIRED_ITEM;
                }
                // A structure change may hand this item's range to other items (TicToc's floor).
                raiseFloor(Items.word2Volatile(item) + 1);
                try {
                    // A cell's value may change: keep the version for snapshots that read below it.
                    if (item instanceof RefItem) {
                        push(item, wts(w), ((RefItem) item).valueAcquire(), 0);
                    } else if (item instanceof LongItem) {
                        push(item, wts(w), null, ((LongItem) item).valueAcquire());
                    }
                } catch (Throwable t) {
                    Items.setWordRelease(item, w);
                    throw t;
                }
                return w;
            }
            if (spins >= maxSpins) {
                return NON_TX_BUSY;
            }
            LockBitWords.pause(spins);
        }
    }

    @Override
    public void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire) {
        boolean pushed = item instanceof RefItem || item instanceof LongItem;
        long w = lockedWord;
        if (changed) {
            long ts = Math.max(Math.max(Items.word2Volatile(item), wts(lockedWord)), clock.stable()) + 1;
            if (pushed) {
                ((Version) Items.extAcquire(item)).setEnd(ts);
            }
            clock.nonTransactionalWrite(ts);
            Items.setWord2Release(item, ts);
            w = TicTocWord.wordOf(ts);
        } else if (pushed) {
            Items.setExtRelease(item, ((Version) Items.extAcquire(item)).next());
        }
        if (retire) {
            w |= RETIRED;
        }
        Items.setWordRelease(item, w);
    }

    @Override
    public Object loadRef(RefItem item) {
        return LockBitWords.loadRef(item);
    }

    @Override
    public long loadLong(LongItem item) {
        return LockBitWords.loadLong(item);
    }

    // ------------------------------------------------------------------ diagnostics

    @Override
    public boolean isLocked(TxItem item) {
        return TicTocWord.isLocked(Items.wordAcquire(item));
    }

    @Override
    public boolean isRetired(TxItem item) {
        return TicTocWord.isRetired(Items.wordAcquire(item));
    }

    @Override
    public String checkQuiescent(TxItem item) {
        long w = Items.wordVolatile(item);
        String problem = TicTocWord.checkQuiescent(w, Items.word2Volatile(item));
        if (problem != null) {
            return problem;
        }
        long newer = wts(w);
        for (Version v = (Version) Items.extAcquire(item); v != null; v = v.next()) {
            long end = v.end();
            if (end == Version.PENDING) {
                return "a version still pending on an unlocked item: wts=" + v.wts;
            }
            // end < newer: a non-transactional change of an item without a value of its own
            // (a structure change) keeps no version; nothing reads one at those timestamps.
            if (end > newer || v.wts >= end) {
                return "version chain out of order: [" + v.wts + ", " + end + ") below wts " + newer;
            }
            newer = v.wts;
        }
        return null;
    }

    /** @return how many committed deletes are kept linked now, not yet unlinked (tests, diagnostics) */
    int keptDeleteCount() {
        return deletes.kept();
    }

    /** @return how many old versions {@code item}'s chain holds now (tests, diagnostics) */
    public int chainLength(TxItem item) {
        return Version.length((Version) Items.extAcquire(item));
    }

    /** @return no snapshot, running or future, of this store reads below this timestamp */
    public long horizon() {
        return clock.horizon();
    }

    /** @return no transaction of this store, running or future, commits at or below this timestamp */
    public long stableTimestamp() {
        return clock.stable();
    }

    /** Recomputes the store's stable point and horizon now (tests; commits do it periodically). */
    public void advanceClock() {
        clock.advance();
    }
}
