package io.jato.protocols.mvcc;

import io.jato.stm.AbortCause;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LockBitWords;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import static io.jato.protocols.tictoc.TicTocWord.LOCKED;
import static io.jato.protocols.tictoc.TicTocWord.wts;
import static io.jato.stm.spi.ConcurrencyControl.NO_VERSION;

/**
 * {@link MvccControl}'s execution-time read path: which version of an item an attempt reads at
 * its read timestamp (the value in place, a version of the chain, a delta group's value, or none),
 * loaded into the attempt's state, and what the entry records for validation ({@code observed}:
 * the version's {@code wts}; {@code observed2}: the timestamp it is known valid up to). A tracked
 * reader that meets an item whose replacement is being committed waits a bounded time; a snapshot
 * never waits. Stateless apart from the store's read spin bound; one instance per store.
 */
final class VersionReads {
    /** Entry flag (read entries): a snapshot observed an item whose value in place is newer than the snapshot. */
    static final int NEWER_IN_PLACE = Entry.PROTOCOL_FLAG_1;

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

    private final int readSpins;

    VersionReads(int readSpins) {
        this.readSpins = readSpins;
    }

    /** The reference visible at the attempt's read timestamp, recorded in {@code e} unless null. */
    Object refAt(TxnContext txn, MvccTxnState s, RefItem item, Entry e) {
        Version v = locate(txn, s, item, e, KIND_REF);
        if (v == IN_PLACE || v == COMPUTED) {
            Object r = s.loadedRef;
            s.loadedRef = null;
            return r;
        }
        return v == NOTHING ? NO_VERSION : v.ref;
    }

    /** The long visible at the attempt's read timestamp, recorded in {@code e} unless null. */
    long longAt(TxnContext txn, MvccTxnState s, LongItem item, Entry e) {
        Version v = locate(txn, s, item, e, KIND_LONG);
        return v == IN_PLACE || v == SUMMED ? s.loadedLong : v.value;
    }

    /** Records the version of {@code item} the attempt reads; a record group's older columns go to {@code e}'s read value. */
    void observe(TxnContext txn, MvccTxnState s, TxItem item, Entry e) {
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
}
