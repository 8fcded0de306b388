package io.jato.stm.internal.occ;

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

import static io.jato.stm.internal.occ.OccWord.LOCKED;
import static io.jato.stm.internal.occ.OccWord.RETIRED;

/*
 * Silo-style OCC (seed paper 002 §2.1; Tu et al., SOSP 2013), as STO's OSTO runs it.
 *
 * Execution: reads are invisible. A read loads the word, the value, and the word again, all with
 * acquire loads; equal unlocked words mean value and TID belong together. A locked word means a
 * commit is installing: the reader polls it up to the read spin bound, then aborts (READ_BUSY)
 * rather than wait behind a possibly slow writer. Writes are buffered in the access set.
 *
 * Commit: (1) lock every write item by CAS, in access order: the first lock waits up to the lock
 * spin bound, every later one (this transaction now holds locks others may wait for) only briefly
 * (bounded spinning instead of sorting the write set, seed 002 §4.7); (2) read the epoch — after
 * the locks, which is the serialization point — and pick the TID: larger than every TID read or
 * overwritten and than this thread's last TID, and not below the current epoch's first TID; no
 * shared counter is written; (3) validate every read: the word must equal what was observed and
 * not be locked by someone else; (4) install values, then publish each item's word = new TID,
 * which also unlocks it.
 *
 * Escalation (TxnContext.isEscalated, docs/lock-family.md): the store's one starving transaction
 * waits for a locked item without bound, in its reads, its lock phase and its validation, instead of
 * aborting; only the slow paths test the flag. Every holder is committing and waits for nobody
 * without bound, and no other writing commit passes the escalation check meanwhile.
 *
 * Departure from Silo: no epoch thread (see Epoch) and no per-record "latest version" bit — Jato
 * keeps values in place. Like Silo, reads are not opaque: a doomed transaction may see an
 * inconsistent snapshot before it fails validation; the core retries exceptions thrown from such a
 * snapshot.
 */

/** The default protocol's per-store instance. Thread-safe and stateless apart from its settings. */
public final class OccControl extends ConcurrencyControl {
    private final ProtocolContext context;
    private final int lockSpins;
    private final int heldLockSpins;
    private final int readSpins;
    /** Where our per-transaction state is ({@link TxnContext#ccState(int)}): -1 unless the store mixes protocols. */
    private final int stateSlot;

    public OccControl(ProtocolContext context) {
        this.context = context;
        this.lockSpins = context.lockSpinLimit();
        this.heldLockSpins = Math.min(lockSpins, context.intOption(OccProtocol.HELD_LOCK_SPINS, 1, Integer.MAX_VALUE));
        this.readSpins = context.readSpinLimit();
        this.stateSlot = context.stateSlot();
    }

    @Override
    public String name() {
        return OccProtocol.NAME;
    }

    @Override
    public Object newTxnState(TxnContext txn) {
        return new OccTxnState();
    }

    @Override
    public void begin(TxnContext txn) {
        OccTxnState s = (OccTxnState) txn.ccState(stateSlot);
        s.maxSeen = 0;
        s.holdsLock = false;
    }

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        for (int spins = 0;; ) {
            long w = Items.wordAcquire(item);
            if ((w & LOCKED) == 0) {
                Object v = item.valueAcquire();
                if (Items.wordAcquire(item) == w) {
                    observed(txn, e, w);
                    return v;
                }
            } else if (e.has(Entry.LOCKED)) {
                // Our own lock (an eager write, or a read while committing): the value is stable.
                observed(txn, e, e.lockedWord());
                return item.valueAcquire();
            }
            if (++spins > readSpins && !txn.escalatedWaits(spins)) {
                throw txn.rollback(AbortCause.READ_BUSY);
            }
            LockBitWords.pause(spins);
        }
    }

    /**
     * Silo's serialization point is a commit point in real time, so a value nobody can change
     * again needs no validation (see the super method). Locked: an insert is being installed and
     * may still fail; retired: unlinked. Both are read as usual, which waits or aborts.
     */
    @Override
    public Object readUnchangingRef(TxnContext txn, RefItem item) {
        long w = Items.wordAcquire(item);
        return (w & (LOCKED | RETIRED)) == 0 ? item.valueAcquire() : null;
    }

    /** Every read is validated against the word it observed, at one point after locking. */
    @Override
    public boolean validatesEveryRead() {
        return true;
    }

    /** OCC's values live in place and its word changes whenever one is installed. */
    @Override
    public boolean logsReadWords() {
        return true;
    }

    @Override
    public long stableWord(TxItem item) {
        long w = Items.wordAcquire(item);
        return (w & (LOCKED | RETIRED)) == 0 ? w : UNSTABLE_WORD;
    }

    @Override
    public AbortCause validateWord(TxItem item, long word) {
        long w = Items.wordAcquire(item);
        if (w == word) {
            return null;
        }
        if ((w & LOCKED) != 0) {
            return AbortCause.READ_LOCKED;
        }
        return (w & RETIRED) != 0 ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        for (int spins = 0;; ) {
            long w = Items.wordAcquire(item);
            if ((w & LOCKED) == 0) {
                long v = item.valueAcquire();
                if (Items.wordAcquire(item) == w) {
                    observed(txn, e, w);
                    return v;
                }
            } else if (e.has(Entry.LOCKED)) {
                // Our own lock (an eager write, or a read while committing): the value is stable.
                observed(txn, e, e.lockedWord());
                return item.valueAcquire();
            }
            if (++spins > readSpins && !txn.escalatedWaits(spins)) {
                throw txn.rollback(AbortCause.READ_BUSY);
            }
            LockBitWords.pause(spins);
        }
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        for (int spins = 0;; ) {
            long w = Items.wordAcquire(item);
            if ((w & LOCKED) == 0) {
                observed(txn, e, w);
                return;
            }
            if (e.has(Entry.LOCKED)) {
                observed(txn, e, e.lockedWord());
                return;
            }
            if (++spins > readSpins && !txn.escalatedWaits(spins)) {
                throw txn.rollback(AbortCause.READ_BUSY);
            }
            LockBitWords.pause(spins);
        }
    }

    private void observed(TxnContext txn, Entry e, long w) {
        e.setObserved(w);
        OccTxnState s = (OccTxnState) txn.ccState(stateSlot);
        long tid = w >>> OccWord.FLAG_BITS;
        if (tid > s.maxSeen) {
            s.maxSeen = tid;
        }
    }

    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        if (e.has(Entry.LOCKED)) {
            return e.lockedWord() == e.observed();
        }
        return Items.wordAcquire(e.item()) == e.observed();
    }

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        TxItem item = e.item();
        OccTxnState s = (OccTxnState) txn.ccState(stateSlot);
        // Waiting is safe only while this transaction holds no lock: nobody can then be waiting
        // for it, so no wait-for cycle runs through it. Once it holds one, the write set is locked
        // in access order (no sort), and two transactions may each hold what the other wants —
        // waiting then only burns the slices the holders need. So the first lock waits long
        // (spin, then yield: a holder descheduled mid-commit gets to finish), and later locks
        // spin briefly and give up (LOCK_BUSY), letting backoff break the cycle.
        int limit = s.holdsLock ? heldLockSpins : lockSpins;
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0) {
                return AbortCause.DELETED;
            }
            if ((w & LOCKED) == 0) {
                if (Items.casWord(item, w, w | LOCKED)) {
                    e.setLockedWord(w);
                    e.addFlags(Entry.LOCKED);
                    s.holdsLock = true;
                    long tid = w >>> OccWord.FLAG_BITS;
                    if (tid > s.maxSeen) {
                        s.maxSeen = tid;
                    }
                    return null;
                }
            } else if (++spins > limit && !txn.escalatedWaits(spins)) {
                // The escalated transaction waits: the holder is committing and nobody waits for it.
                return AbortCause.LOCK_BUSY;
            }
            LockBitWords.pause(spins);
        }
    }

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        if (readOnly) {
            return 0L;
        }
        OccTxnState s = (OccTxnState) txn.ccState(stateSlot);
        // The epoch is read after every lock CAS (volatile, so not reordered before them).
        long epoch = context.currentEpoch();
        long tid = Math.max(s.maxSeen, s.lastTid) + 1;
        long first = OccWord.firstTidOf(epoch);
        if (tid < first) {
            tid = first;
        } else if (OccWord.epochOf(tid) > epoch) {
            // The sequence overflowed into the next epoch: move the clock so it stays ahead.
            context.advanceEpochTo(OccWord.epochOf(tid));
        }
        s.lastTid = tid;
        return tid;
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        if (e.has(Entry.LOCKED)) {
            // Our own lock: the word under it is the one we replaced.
            return e.lockedWord() == e.observed() ? null
                    : OccWord.isRetired(e.lockedWord()) ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
        }
        long w = Items.wordAcquire(e.item());
        if (w == e.observed()) {
            return null;
        }
        if ((w & LOCKED) != 0) {
            if (!txn.isEscalated()) {
                return AbortCause.READ_LOCKED;
            }
            // Escalated: the holder is committing, or aborts at the escalation check; its outcome decides.
            for (int spins = 0; ((w = Items.wordAcquire(e.item())) & LOCKED) != 0; spins++) {
                if (!txn.escalatedWaits(spins)) {
                    return AbortCause.READ_LOCKED;
                }
                LockBitWords.pause(spins);
            }
            if (w == e.observed()) {
                return null;
            }
        }
        return (w & RETIRED) != 0 ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        long w = commitTimestamp << OccWord.FLAG_BITS;
        if (e.has(Entry.RETIRE)) {
            w |= RETIRED;
        }
        Items.setWordRelease(e.item(), w);
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        Items.setWordRelease(e.item(), e.lockedWord());
    }

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
            if ((w & RETIRED) != 0) {
                return RETIRED_ITEM;
            }
            if ((w & LOCKED) == 0 && Items.casWord(item, w, w | LOCKED)) {
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
        long w = changed ? lockedWord + (1L << OccWord.FLAG_BITS) : lockedWord;
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

    @Override
    public boolean isLocked(TxItem item) {
        return OccWord.isLocked(Items.wordAcquire(item));
    }

    @Override
    public boolean isRetired(TxItem item) {
        return OccWord.isRetired(Items.wordAcquire(item));
    }

    @Override
    public String checkQuiescent(TxItem item) {
        long w = Items.wordAcquire(item);
        if (OccWord.isLocked(w)) {
            return "item still locked: " + OccWord.describe(w);
        }
        if ((w & 4L) != 0) {
            return "reserved bit set: " + OccWord.describe(w);
        }
        long epochNow = context.currentEpoch();
        if (OccWord.epochOf(OccWord.tid(w)) > epochNow) {
            return "TID from a future epoch (" + OccWord.describe(w) + ", epoch now " + epochNow + ")";
        }
        return null;
    }
}
