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
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

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
    /** Entry flag (read entries): a snapshot observed an item whose value in place is newer than the snapshot. */
    private static final int NEWER_IN_PLACE = Entry.PROTOCOL_FLAG_1;
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

    /**
     * The least commit timestamp of any commit from now on: raised by non-transactional locks
     * (structure changes) and by {@link #retire}, as TicToc's floor (docs/tictoc.md). Written by
     * CAS, read with volatile loads by every commit.
     */
    @SuppressWarnings("unused") // through FLOOR
    private volatile long floor;
    /** Deletes kept linked in every thread's list: incremented by a committing install, decremented by collectors. */
    private final AtomicInteger keptDeletes = new AtomicInteger();
    /** Held by the one thread that unlinks kept deletes at a time. */
    private final ReentrantLock collecting = new ReentrantLock();
    /** The kept delete being unlinked and the horizon it was found under: written and read by the holder of {@link #collecting}. */
    private TxItem unlinkingItem;
    private long unlinkingBound;
    /** Kept deletes of threads that died before they could be unlinked; collected like the others. */
    private final KeptDeletes orphans = new KeptDeletes();

    MvccControl(ProtocolContext context) {
        this.context = context;
        this.stateSlot = context.stateSlot();
        this.mixed = context.isMixed();
        this.lockSpins = context.lockSpinLimit();
        this.readSpins = context.readSpinLimit();
        this.clock = new MvccClock(context);
        this.deltas = new DeltaWrites(this, context, mixed, lockSpins);
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
        ((MvccTxnState) state).kept.moveTo(orphans);
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

    // ------------------------------------------------------------------ execution-time reads

    /** What {@link #locate} found: the value in place, loaded into the state's scratch fields. */
    private static final Version IN_PLACE = new Version(0, null, 0, null);
    /** What {@link #locate} found: no version of the item is visible at the snapshot. */
    private static final Version NOTHING = new Version(0, null, 0, null);
    /** What {@link #locate} found: a {@link DeltaGroup}'s value at the read timestamp, in the state's scratch. */
    private static final Version SUMMED = new Version(0, null, 0, null);
    /** What {@link #locate} found: a {@link DeltaGroup}'s value under operations at the read timestamp, in the state's loadedRef. */
    private static final Version COMPUTED = new Version(0, null, 0, null);

    private static final int KIND_NONE = 0;
    private static final int KIND_REF = 1;
    private static final int KIND_LONG = 2;

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        return refAt(txn, item, e);
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        return longAt(txn, item, e);
    }

    /** A snapshot's cell read, with no entry: the version at the snapshot ({@link TxnContext#readCellsAtSnapshot}). */
    @Override
    public Object readRefAtSnapshot(TxnContext txn, RefItem item) {
        return refAt(txn, item, null);
    }

    /** As {@link #readRefAtSnapshot}, for a long cell. */
    @Override
    public long readLongAtSnapshot(TxnContext txn, LongItem item) {
        return longAt(txn, item, null);
    }

    /** The reference visible at the attempt's read timestamp, recorded in {@code e} unless null. */
    private Object refAt(TxnContext txn, RefItem item, Entry e) {
        MvccTxnState s = state(txn);
        Version v = locate(txn, s, item, e, KIND_REF);
        if (v == IN_PLACE || v == COMPUTED) {
            Object r = s.loadedRef;
            s.loadedRef = null;
            return r;
        }
        return v == NOTHING ? NO_VERSION : v.ref;
    }

    /** The long visible at the attempt's read timestamp, recorded in {@code e} unless null. */
    private long longAt(TxnContext txn, LongItem item, Entry e) {
        MvccTxnState s = state(txn);
        Version v = locate(txn, s, item, e, KIND_LONG);
        return v == IN_PLACE || v == SUMMED ? s.loadedLong : v.value;
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        MvccTxnState s = state(txn);
        Version v = locate(txn, s, item, e, KIND_NONE);
        if (v == COMPUTED) {
            // A value under delta versions, computed for the read timestamp: a record group's
            // columns for its getters (a cell's value is for readRef, not for an observation).
            if (!(item instanceof RefItem)) {
                e.setReadRef(s.loadedRef);
                e.addFlags(Entry.VERSION);
            }
            s.loadedRef = null;
        } else if (v != IN_PLACE && v != NOTHING && v.ref != null && !(item instanceof RefItem)) {
            // A record group's older columns: its getters read this copy.
            e.setReadRef(v.ref);
            e.addFlags(Entry.VERSION);
        }
    }

    /**
     * Finds the version of {@code item} visible at the attempt's read timestamp and records it in
     * {@code e}: {@link #IN_PLACE} (the value in place, loaded for {@code kind} into the state),
     * a version of the chain, or {@link #NOTHING} (a snapshot older than the item's first version).
     * {@code e} is null for a snapshot's cell read, which records nothing.
     */
    private Version locate(TxnContext txn, MvccTxnState s, TxItem item, Entry e, int kind) {
        if (e != null && e.has(Entry.LOCKED)) {
            // Locked by this very transaction (a read while it commits): the committed value in
            // place, observed as the version locked, which validates while the lock is held.
            e.setObserved(wts(e.lockedWord()));
            e.setObserved2(Items.word2Volatile(item));
            load(s, item, kind);
            return IN_PLACE;
        }
        long t = s.readTs;
        boolean newest = false;
        Version pending = null;
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            boolean unlocked = (w & LOCKED) == 0;
            if (unlocked && (newest || wts(w) <= t)) {
                long r = Items.word2Volatile(item);
                load(s, item, kind);
                if (Items.wordVolatile(item) == w) {
                    return found(txn, s, e, IN_PLACE, wts(w), r);
                }
            } else {
                if (unlocked) {
                    s.seen = Math.max(s.seen, wts(w));
                }
                Version v = Version.at((Version) Items.extAcquire(item), t);
                if (v != null) {
                    long end = v.end();
                    if (v instanceof DeltaGroup) {
                        Version summed = readGroup(txn, s, e, (DeltaGroup) v, end);
                        if (summed != null) {
                            return summed;
                        }
                        pending = v;
                    } else if (end != Version.PENDING) {
                        if (t < end) {
                            return found(txn, s, e, v, v.wts, end - 1);
                        }
                        // Ended at or below t after Version.at looked (end is read again here):
                        // its replacement, the version at t, is being published. Wait for it as
                        // for a lock: this one would be a read no commit timestamp validates,
                        // and under opacity the body would see it beside the new versions.
                        v = null;
                    }
                    if (v != null) {
                        if (s.snapshotMode) {
                            // Nothing commits at or below a snapshot: the version being replaced is
                            // the snapshot's.
                            return found(txn, s, e, v, v.wts, v.wts);
                        }
                        pending = v;
                    }
                } else if (unlocked && Items.wordVolatile(item) == w) {
                    // No version at t is reachable: the item is newer than t, or its version at t
                    // was collected (older than the horizon, so never a snapshot's).
                    if (s.snapshotMode) {
                        if (kind == KIND_REF) {
                            return found(txn, s, e, NOTHING, 0, wts(w) - 1);
                        }
                        if (kind == KIND_LONG) {
                            // Cannot happen for a snapshot at or above the horizon; retry tracked.
                            throw txn.rollback(AbortCause.READ_VALIDATION);
                        }
                        // An item without a value of its own (a stripe, a leaf: the observation is
                        // all) or a record group changed non-transactionally, which keeps no
                        // version: a record's in-place read of it must fail its check.
                        e.addFlags(NEWER_IN_PLACE);
                        return found(txn, s, e, IN_PLACE, wts(w), wts(w));
                    }
                    // A tracked attempt reads the newest version; its commit timestamp then
                    // rises to it, and its other reads are validated there.
                    newest = true;
                    continue;
                }
            }
            if (++spins > readSpins) {
                if (txn.escalatedWaits(spins)) {
                    // Escalated (docs/lock-family.md): the holder is committing, or aborts at the
                    // escalation check; either way it lets go without waiting for us. Taking the
                    // version being replaced would only fail validation once it commits.
                    LockBitWords.pause(spins);
                    continue;
                }
                if (pending != null && !txn.isOpaque()) {
                    // The writer is slow: take the version being replaced; validation decides.
                    // Not under opacity: the writer may have installed other items already, and
                    // the body would see them beside this older version.
                    return found(txn, s, e, pending, pending.wts, pending.wts);
                }
                throw txn.rollback(AbortCause.READ_BUSY);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Reads a {@link DeltaGroup} at the attempt's timestamp: exact once the group closed (every
     * add is known; the read is valid from the newest add at or below it to just before the next
     * one) and for a snapshot (every add still running commits above it). Returns null for a
     * tracked attempt that met an open group: a member may still commit at or below its
     * timestamp, so it waits like for any lock, then takes the base value and validation decides.
     */
    private static Version readGroup(TxnContext txn, MvccTxnState s, Entry e, DeltaGroup g, long end) {
        boolean closed = end != Version.PENDING;
        if (!closed && !s.snapshotMode) {
            return null;
        }
        long t = s.readTs;
        Version v;
        if (g.hasOperations()) {
            s.loadedRef = g.valueAt(t);
            v = COMPUTED;
        } else {
            s.loadedLong = g.sumAt(t);
            v = SUMMED;
        }
        return closed ? found(txn, s, e, v, g.newestAt(t), g.nextAfter(t, end) - 1) : found(txn, s, e, v, g.wts, g.wts);
    }

    private static void load(MvccTxnState s, TxItem item, int kind) {
        if (kind == KIND_REF) {
            s.loadedRef = ((RefItem) item).valueAcquire();
        } else if (kind == KIND_LONG) {
            s.loadedLong = ((LongItem) item).valueAcquire();
        }
    }

    /** Records the version read ({@code wts}, known valid up to {@code validTo}); untracks snapshot reads. */
    private static Version found(TxnContext txn, MvccTxnState s, Entry e, Version v, long wts, long validTo) {
        if (e == null) {
            return v;
        }
        e.setObserved(wts);
        e.setObserved2(validTo);
        if (s.snapshotMode) {
            txn.untrack(e);
        }
        return v;
    }

    /**
     * True if the version {@code e} observed is the one in place and the item is not locked by
     * another transaction: what makes an in-place read (a record's fields) consistent, and a
     * conservative answer for a read served from the chain (false once the item moved on).
     */
    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        if (e.has(NEWER_IN_PLACE)) {
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
        long read = 0;
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
        keptDeletes.incrementAndGet();
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
            deltas.leave(e, commitTimestamp);
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
            deltas.leave(e, txn.installsComplete() ? commitTimestamp : 0);
            return;
        }
        publish(txn, e, commitTimestamp);
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        if (e.has(DELTA)) {
            deltas.leave(e, 0);
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
        if (keptDeletes.get() > 0) {
            collectDeletes();
        }
    }

    /**
     * Unlinks the kept deletes of every thread of the store that no snapshot can see before:
     * called by whichever thread finishes an attempt while some are kept, holding no item locks.
     */
    private void collectDeletes() {
        if (!collecting.tryLock()) {
            return; // another thread collects now; the next finish tries again
        }
        try {
            collectDeletesLocked();
        } finally {
            collecting.unlock();
        }
    }

    private void collectDeletesLocked() {
        clock.advance();
        long h = clock.horizon();
        java.util.List<Object> states = context.txnStates();
        for (int i = 0, n = states.size(); i < n; i++) {
            MvccTxnState st = (MvccTxnState) states.get(i);
            if (st == null) {
                continue; // a vacant slot of the registry
            }
            int done = st.kept.unlinkUpTo(h, this);
            if (done > 0) {
                keptDeletes.addAndGet(-done);
            }
        }
        int done = orphans.unlinkUpTo(h, this);
        if (done > 0) {
            keptDeletes.addAndGet(-done);
        }
    }

    /**
     * Unlinks one kept delete through its participant, unless the item changed after
     * {@code horizon}: then a later write revived it, or a later delete (noted on its own) left it
     * deleted again, which a snapshot between the two must still see present. The check runs
     * inside the participant's non-transactional lock ({@link #lockNonTx}), so no write can slip
     * between it and the unlink. Caller holds {@link #collecting}.
     */
    void unlinkKept(TxParticipant participant, TxItem item, long horizon) {
        unlinkingItem = item;
        unlinkingBound = horizon;
        try {
            participant.unlinkDeleted(item);
        } finally {
            unlinkingItem = null;
        }
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
        for (int spins = 0;; spins++) {
            long w = Items.wordVolatile(item);
            if ((w & (RETIRED | LOCKED)) == RETIRED) {
                return RETIRED_ITEM;
            }
            if ((w & LOCKED) == 0 && Items.casWord(item, w, w | LOCKED)) {
                if (item == unlinkingItem && wts(w) > unlinkingBound && collecting.isHeldByCurrentThread()) {
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
        return keptDeletes.get();
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
