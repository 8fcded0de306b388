package io.jato.protocols.adaptive;

import io.jato.protocols.twophase.DeadlockPolicy;
import io.jato.protocols.twophase.RwLockControl;
import io.jato.protocols.twophase.RwLockState;
import io.jato.protocols.twophase.RwLockWord;
import io.jato.protocols.twophase.RwLocks;
import io.jato.protocols.wait.Waits;
import io.jato.stm.AbortCause;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import static io.jato.protocols.twophase.RwLockWord.RETIRED;
import static io.jato.protocols.twophase.RwLockWord.WRITER;

/*
 * The adaptive reader-writer lock of seed 000 (§2, §3.2): one lock per item that is optimistic
 * while the item sees few conflicts and pessimistic while it sees many, in one commit protocol.
 *
 * Words. The primary word is 2PL's RwLockWord (writer bit, reader count, priority mark, wait-die
 * holder age), taken with 2PL's RwLocks. The secondary word is a ModeWord: the item's version, its
 * mode bit and its conflict score. Only the holder of the exclusive lock increments the version,
 * always before it releases the lock; the mode and score are changed by anyone, by CAS.
 *
 * Accesses, by the mode the item has when the access happens:
 *  - optimistic read (readRef, readLong, observe): as OCC, with the version split from the lock.
 *    Load the mode word, then the lock word (waiting while someone holds it exclusively), the
 *    value, the lock word again (not exclusive) and the mode word again (same version). The version
 *    is recorded in the entry and validated at commit. No write to shared memory.
 *  - pessimistic read: the shared lock (RwLocks.lockShared), held to the end of the attempt and
 *    flagged PROTOCOL_FLAG_0; nothing to validate.
 *  - write: the entry's first write (onWrite) takes the exclusive lock at once if the item is
 *    pessimistic or the entry holds its shared lock (an upgrade); otherwise the commit's lock phase
 *    takes it (lock). Both go through RwLocks, so both wait or die under the store's deadlock policy.
 *  - a retired item is read optimistically in either mode: its version never changes again.
 *
 * Commit: lock the remaining writes (exclusive), validate the optimistic reads (the lock word not
 * held exclusively by another, and the version unchanged; for an entry this transaction locked, the
 * version under its own lock), install, publish (increment the version, then release the lock),
 * finish (release the shared locks). Transactions are ordered by the real time of their commit
 * points, as OCC and 2PL are: at its commit point a transaction holds the exclusive lock of every
 * item it writes and the shared lock of every pessimistic read, and each optimistic read is
 * validated after that point; so every item it read has, at that point, the value it read.
 *
 * Switching is safe because the mode decides only how the next access of an item behaves: what an
 * attempt must do for an entry is recorded in the entry (PROTOCOL_FLAG_0: holds the shared lock;
 * LOCKED: holds the exclusive lock; neither: an optimistic read, validated at commit whatever mode
 * the item has by then), and every access in either mode honours the lock word. An optimistic
 * reader is invalidated by every writer (each takes the exclusive lock and increments the version
 * under it), and a pessimistic reader excludes every writer (optimistic writers take the same
 * exclusive lock at commit). A score update and a version increment are both CASes of the mode
 * word, so neither loses the other.
 *
 * Scores: ModeSwitch has the state machine and the thresholds. The events are counted where they
 * are seen: a conflict by the access, lock or validation that met it; a quiet event by publish
 * (a committed write; one CAS for the version and the score) and by finish (one in
 * READ_DECAY_PERIOD committed pessimistic reads, so an item only read anymore turns optimistic).
 *
 * Escalation (TxnContext.isEscalated): the escalated attempt takes locks with 2PL's escalated age
 * (it waits for every transactional holder, marks PRIORITY), and its optimistic reads and
 * validations wait for an exclusive holder instead of aborting (boundedly for non-transactional
 * ones, which may wait for it).
 *
 * What seed 000 leaves open: the paper names the mechanism (a per-record state machine switching
 * between optimistic and pessimistic reader-writer locking by observed contention, one commit
 * protocol for both) but gives no word layout, score, weights or thresholds; these are ours. The
 * version lives in the mode word, not the lock word, because an optimistic read validated against
 * the lock word's 5-bit version could miss 32 commits.
 */

/** One store's adaptive-lock instance. Thread-safe; one instance serves every thread of the store. */
public final class AdaptiveControl extends RwLockControl {
    /** One in this many committed pessimistic reads of a thread is a quiet event (a power of 2). */
    static final int READ_DECAY_PERIOD = 8;

    private final int readSpins;
    private final ModeSwitch modes;

    AdaptiveControl(ProtocolContext context, ModeSwitch modes, DeadlockPolicy policy, int waitSpins) {
        super(context, policy, waitSpins);
        this.readSpins = context.readSpinLimit();
        this.modes = modes;
    }

    @Override
    public String name() {
        return AdaptiveProtocol.NAME;
    }

    @Override
    public Object newTxnState(TxnContext txn) {
        return new AdaptiveTxnState();
    }

    private AdaptiveTxnState state(TxnContext txn) {
        return (AdaptiveTxnState) txn.ccState(stateSlot);
    }

    @Override
    public void begin(TxnContext txn) {
        state(txn).begin(txn);
    }

    // ------------------------------------------------------------------ execution-time reads

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        for (int tries = 0;; tries++) {
            if (openRead(txn, item, e, tries)) {
                return item.valueAcquire();
            }
            Object v = item.valueAcquire();
            if (unchanged(item, e.observed())) {
                return v;
            }
        }
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        for (int tries = 0;; tries++) {
            if (openRead(txn, item, e, tries)) {
                return item.valueAcquire();
            }
            long v = item.valueAcquire();
            if (unchanged(item, e.observed())) {
                return v;
            }
        }
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        // An in-place reader loads its fields next and ends with checkRead (isCurrent).
        openRead(txn, item, e, 0);
    }

    /**
     * Starts a read of {@code item} into {@code e}, which records the version read. Returns true if
     * the entry now holds a lock of the item (its own exclusive lock, or a new shared lock of a
     * pessimistic item), so the value may be loaded as is; false for an optimistic read, whose
     * value the caller loads and then checks with {@link #unchanged}. {@code tries} counts the
     * earlier tries of this read that a writer spoiled; they count against the read spin bound.
     */
    private boolean openRead(TxnContext txn, TxItem item, Entry e, int tries) {
        if (e.has(Entry.LOCKED)) {
            // Our own exclusive lock: nobody else changes the version.
            e.setObserved(ModeWord.version(Items.word2Acquire(item)));
            return true;
        }
        AdaptiveTxnState s = state(txn);
        boolean met = false;
        for (int spins = tries;; spins++) {
            long m = Items.word2Acquire(item);
            long w = Items.wordAcquire(item);
            if ((w & RETIRED) == 0 && ModeWord.isPessimistic(m)) {
                lockShared(txn, item, e, s);
                return true;
            }
            if ((w & WRITER) == 0) {
                e.setObserved(ModeWord.version(m));
                return false;
            }
            if (!met) {
                met = true;
                modes.record(item, ModeSwitch.CONFLICT);
            }
            if (spins >= readSpins && !(s.escalated() && locks.mayWait(s, w, spins))) {
                throw txn.rollback(AbortCause.READ_BUSY);
            }
            if (s.escalated()) {
                Waits.pause(spins - tries);
            } else {
                Thread.onSpinWait(); // an exclusive holder may be a long pessimistic writer: abort soon
            }
        }
    }

    /** Takes the shared lock of a pessimistic item (or reads a retired one as is) and records its version. */
    private void lockShared(TxnContext txn, TxItem item, Entry e, AdaptiveTxnState s) {
        int outcome = locks.lockShared(item, e, s);
        if (outcome == RwLocks.BUSY) {
            modes.record(item, ModeSwitch.CONFLICT);
            throw txn.rollback(AbortCause.READ_BUSY);
        }
        if (outcome == RwLocks.ACQUIRED_AFTER_WAIT) {
            modes.record(item, ModeSwitch.CONFLICT);
        }
        // Under the shared lock (or retired) the version cannot change: every writer holds the exclusive lock.
        e.setObserved(ModeWord.version(Items.word2Acquire(item)));
    }

    /**
     * The second half of an optimistic read: true if no writer held {@code item} exclusively or
     * published it since its version {@code version} was read (the lock word first, then the version:
     * a writer increments the version before it releases the lock).
     */
    private static boolean unchanged(TxItem item, long version) {
        return (Items.wordAcquire(item) & WRITER) == 0 && ModeWord.version(Items.word2Acquire(item)) == version;
    }

    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        if (e.has(Entry.PROTOCOL_FLAG_0)) {
            return true; // held shared until the attempt ends
        }
        if (e.has(Entry.LOCKED)) {
            return ModeWord.version(Items.word2Acquire(e.item())) == e.observed();
        }
        return unchanged(e.item(), e.observed());
    }

    // ------------------------------------------------------------------ writes and commit

    @Override
    public AbortCause onWrite(TxnContext txn, Entry e) {
        if (e.has(Entry.LOCKED)) {
            return null;
        }
        if (e.has(Entry.PROTOCOL_FLAG_0) || ModeWord.isPessimistic(Items.word2Acquire(e.item()))) {
            return lockExclusive(txn, e);
        }
        return null; // optimistic: locked at commit
    }

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        return e.has(Entry.LOCKED) ? null : lockExclusive(txn, e);
    }

    /** Takes (or upgrades to) the exclusive lock of {@code e}'s item; null or the cause to abort with. */
    private AbortCause lockExclusive(TxnContext txn, Entry e) {
        switch (locks.lockExclusive(e, state(txn))) {
            case RwLocks.ACQUIRED:
                return null;
            case RwLocks.ACQUIRED_AFTER_WAIT:
                modes.record(e.item(), ModeSwitch.CONFLICT);
                return null;
            case RwLocks.RETIRED_ITEM:
                return AbortCause.DELETED;
            default:
                modes.record(e.item(), ModeSwitch.CONFLICT);
                return AbortCause.LOCK_BUSY;
        }
    }

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        // Ordered by commit points, not timestamps; nothing reads it.
        return 0L;
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        if (e.has(Entry.PROTOCOL_FLAG_0)) {
            return null;
        }
        TxItem item = e.item();
        if (e.has(Entry.LOCKED)) {
            // Read before we locked it (optimistically, or in our own lock): the version under our lock must match.
            if (ModeWord.version(Items.word2Acquire(item)) == e.observed()) {
                return null;
            }
            modes.record(item, ModeSwitch.CONFLICT);
            return AbortCause.READ_VALIDATION;
        }
        long w = Items.wordAcquire(item);
        if ((w & WRITER) != 0) {
            AdaptiveTxnState s = state(txn);
            for (int spins = 0; (w & WRITER) != 0; spins++) {
                if (!s.escalated() || !locks.mayWait(s, w, spins)) {
                    modes.record(item, ModeSwitch.CONFLICT);
                    return AbortCause.READ_LOCKED;
                }
                // Escalated: the holder commits or aborts (no other writing commit passes the check).
                Waits.pause(spins);
                w = Items.wordAcquire(item);
            }
        }
        if (ModeWord.version(Items.word2Acquire(item)) == e.observed()) {
            return null;
        }
        if ((w & RETIRED) != 0) {
            return AbortCause.DELETED;
        }
        modes.record(item, ModeSwitch.CONFLICT);
        return AbortCause.READ_VALIDATION;
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        TxItem item = e.item();
        // The version first, under the lock: a reader that sees the lock free then sees the new version.
        modes.record(item, ModeSwitch.WRITE);
        long free = RwLockWord.released(e.lockedWord(), true);
        Items.setWordRelease(item, e.has(Entry.RETIRE) ? free | RETIRED : free);
    }

    /** One in {@link #READ_DECAY_PERIOD} committed pessimistic reads of a thread is a quiet event. */
    @Override
    protected void releasedShared(RwLockState s, TxItem item, boolean committed) {
        if (committed && (++((AdaptiveTxnState) s).reads & (READ_DECAY_PERIOD - 1)) == 0) {
            modes.record(item, ModeSwitch.QUIET);
        }
    }

    // ------------------------------------------------------------------ non-transactional

    @Override
    public void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire) {
        if (changed) {
            modes.record(item, ModeSwitch.CHANGE);
        }
        long free = RwLockWord.released(lockedWord, changed);
        Items.setWordRelease(item, retire ? free | RETIRED : free);
    }

    // ------------------------------------------------------------------ diagnostics

    /** @return true if {@code item} is in pessimistic mode now (tests and diagnostics) */
    public static boolean isPessimistic(TxItem item) {
        return ModeWord.isPessimistic(Items.word2Acquire(item));
    }

    /**
     * Counts a conflict on {@code item} as if an access had met one, which may turn it pessimistic
     * (tests and tools that exercise mode switches; nothing else calls it).
     */
    public void recordConflict(TxItem item) {
        modes.record(item, ModeSwitch.CONFLICT);
    }

    /** Counts a quiet event on {@code item}, which may turn it optimistic (tests and tools, as {@link #recordConflict}). */
    public void recordQuiet(TxItem item) {
        modes.record(item, ModeSwitch.QUIET);
    }

    /** @return the store's state machine (tests drive it directly) */
    ModeSwitch modes() {
        return modes;
    }

    /** @return how many times an item of this store changed mode (both directions), for tests and diagnostics */
    public long modeSwitches() {
        return modes.switches();
    }

    @Override
    public String checkQuiescent(TxItem item) {
        String lock = RwLocks.checkFree(Items.wordVolatile(item));
        return lock != null ? lock : modes.check(Items.word2Acquire(item));
    }
}
