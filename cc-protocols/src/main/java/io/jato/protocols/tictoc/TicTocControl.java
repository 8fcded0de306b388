package io.jato.protocols.tictoc;

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
 * TicToc (seed 001, Yu et al., SIGMOD 2016; TSTO in seed 002 §2.3): data-driven timestamps. Each
 * item carries the interval [wts, rts] in which its current version is known valid; a transaction
 * computes its commit timestamp lazily from the items it touched, so two transactions that OCC
 * would order by their commit instants can be ordered the other way when their reads allow it
 * (T1 reads x, T2 writes x and commits, T1 writes y: T1 commits at the old version's timestamp,
 * before T2). There is no shared timestamp counter.
 *
 * Execution. Reads are invisible: load word, rts, value, word (volatile loads); the same unlocked
 * word twice means value, wts and rts belong together. The entry records observed = wts,
 * observed2 = rts. A locked word is polled up to the read spin bound, then the attempt aborts.
 *
 * Commit (driver phases; see ConcurrencyControl):
 *  1. lock   — CAS the word's lock bit. No-wait (seed 001 §5.1, default): a busy lock aborts at
 *              once with LOCK_BUSY; otherwise bounded spinning as OCC. Preemptive abort (§5.2,
 *              default on): before the first lock, an approximate commit timestamp (reads' wts,
 *              read-and-written items' rts + 1) is compared with each read's rts; a read that needs
 *              extending and whose item is locked by another transaction or has changed aborts now.
 *  2. ts     — commit_ts = max(rts + 1 over written items, read after their locks; wts over read
 *              items, including those read with no entry because nobody will replace them, an
 *              insert-only map's keys; the store's floor, below).
 *  3. validate — a read with observed rts >= commit_ts is valid as is. Otherwise the item's wts
 *              must be unchanged and the item unlocked, and rts is extended to commit_ts by CAS,
 *              then the word re-read (the Dekker pair with a writer's lock-then-read-rts). With
 *              timestamp history (§5.3, off by default: the paper measured no gain), a changed
 *              item whose observed version was replaced only after commit_ts still validates.
 *  4. install, then publish: rts = commit_ts, then word = commit_ts unlocked (release stores).
 *
 * Escalation (TxnContext.isEscalated, docs/lock-family.md): the store's one starving transaction
 * waits for locked items without bound (reads, locks, rts extension) and skips the preemptive
 * check; only slow paths test the flag.
 *
 * Departures. (a) Floor: TicToc relies on a version's rts reserving its validity interval, but
 * Jato's data types change what a lookup finds without a version of the looked-up item: a sorted-map
 * split or leaf removal moves a leaf's range to items that never saw its rts (a fresh leaf starts
 * at 0), and a delete unlinks a node, so a later lookup finds the key absent while its absence
 * stripe (or leaf) keeps its version. A store-wide floor orders such readers: every
 * non-transactional lock (structure operations, single() writes) raises it to the locked item's
 * rts + 1 before the change, a delete raises it to commit_ts + 1 in the retire hook, before the
 * data type unlinks the item, and every commit's timestamp (read-only ones included) is at least
 * the floor. The floor is read by every commit and written only by those operations. (b) Isolation
 * levels SI and RR (§5.4) are chosen per store (protocol names tictoc-si, tictoc-rr). RR validates
 * no read except one the transaction also writes, but fails a read of a value item retired since
 * (a delete unlinks the key, so a second lookup would find it absent without reaching the cached
 * read); retire() sets the retired bit while the deleter still holds the lock, before the unlink.
 * docs/tictoc.md tabulates what each level allows. (c) Like OCC, reads are not opaque.
 */

/** One store's TicToc instance. Thread-safe; one instance serves every thread of the store. */
public final class TicTocControl extends ConcurrencyControl {
    private static final VarHandle FLOOR;
    private static final VarHandle HISTORY = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            FLOOR = MethodHandles.lookup().findVarHandle(TicTocControl.class, "floor", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final Isolation isolation;
    private final boolean noWait;
    private final boolean preemptiveAbort;
    /** Old versions kept per item for validation (0: no history). */
    private final int historySize;
    private final int lockSpins;
    private final int readSpins;
    /** Says which entries are ours when the store mixes protocols (passes over the sets skip the others). */
    private final ProtocolContext context;
    /** Where our per-transaction state is ({@link TxnContext#ccState(int)}). */
    private final int stateSlot;

    /** The least commit timestamp of a writing transaction (see the essay). Written by CAS. */
    @SuppressWarnings("unused") // accessed through FLOOR
    private volatile long floor;

    TicTocControl(String name, ProtocolContext context, Isolation isolation, TicTocOptions options) {
        this.name = name;
        this.isolation = isolation;
        this.noWait = options.noWait();
        this.preemptiveAbort = options.preemptiveAbort();
        this.historySize = options.historySize();
        this.lockSpins = context.lockSpinLimit();
        this.readSpins = context.readSpinLimit();
        this.context = context;
        this.stateSlot = context.stateSlot();
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the options this store was built with */
    public TicTocOptions options() {
        return new TicTocOptions(noWait, preemptiveAbort, historySize);
    }

    /** @return the isolation level of this store */
    public Isolation isolation() {
        return isolation;
    }

    /**
     * Serializable and snapshot isolation validate every read at one timestamp (the commit's, or
     * the snapshot's); repeatable read validates none and serves repeats from the entry.
     */
    @Override
    public boolean validatesEveryRead() {
        return isolation != Isolation.REPEATABLE_READ;
    }

    /** Orders by commit timestamps: a larger one than proposed is validated at and installed with. */
    @Override
    public boolean ordersByTimestamp() {
        return true;
    }

    @Override
    public Object newTxnState(TxnContext txn) {
        return new TicTocTxnState();
    }

    @Override
    public void begin(TxnContext txn) {
        TicTocTxnState s = (TicTocTxnState) txn.ccState(stateSlot);
        s.prechecked = false;
        s.commitRts = 0;
        s.unchangingWts = 0;
    }

    // ------------------------------------------------------------------ execution-time reads

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            if ((w & LOCKED) == 0) {
                long r = Items.word2Volatile(item);
                Object v = item.valueAcquire();
                if (Items.wordVolatile(item) == w) {
                    e.setObserved(wts(w));
                    e.setObserved2(r);
                    return v;
                }
            } else if (e.has(Entry.LOCKED)) {
                // Our own lock: value and rts are stable while we hold it.
                e.setObserved(wts(e.lockedWord()));
                e.setObserved2(Items.word2Volatile(item));
                return item.valueAcquire();
            }
            if (++spins > readSpins && !txn.escalatedWaits(spins)) {
                throw txn.rollback(AbortCause.READ_BUSY);
            }
            LockBitWords.pause(spins);
        }
    }

    /**
     * A version nobody will replace is valid from its wts for ever: the read needs no entry, no
     * validation and no rts extension, only a commit timestamp at or above that wts (the
     * write-read edge from the insert). Kept in the attempt's state for commitTimestamp.
     */
    @Override
    public Object readUnchangingRef(TxnContext txn, RefItem item) {
        long w = Items.wordVolatile(item);
        if ((w & (LOCKED | RETIRED)) != 0) {
            return null;
        }
        Object v = item.valueAcquire();
        TicTocTxnState s = (TicTocTxnState) txn.ccState(stateSlot);
        s.unchangingWts = Math.max(s.unchangingWts, wts(w));
        return v;
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            if ((w & LOCKED) == 0) {
                long r = Items.word2Volatile(item);
                long v = item.valueAcquire();
                if (Items.wordVolatile(item) == w) {
                    e.setObserved(wts(w));
                    e.setObserved2(r);
                    return v;
                }
            } else if (e.has(Entry.LOCKED)) {
                // Our own lock: value and rts are stable while we hold it.
                e.setObserved(wts(e.lockedWord()));
                e.setObserved2(Items.word2Volatile(item));
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
            long w = Items.wordVolatile(item);
            if ((w & LOCKED) == 0) {
                long r = Items.word2Volatile(item);
                if (Items.wordVolatile(item) == w) {
                    e.setObserved(wts(w));
                    e.setObserved2(r);
                    return;
                }
            } else if (e.has(Entry.LOCKED)) {
                e.setObserved(wts(e.lockedWord()));
                e.setObserved2(Items.word2Volatile(item));
                return;
            }
            if (++spins > readSpins && !txn.escalatedWaits(spins)) {
                throw txn.rollback(AbortCause.READ_BUSY);
            }
            LockBitWords.pause(spins);
        }
    }

    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        if (e.has(Entry.LOCKED)) {
            return wts(e.lockedWord()) == e.observed();
        }
        long w = Items.wordVolatile(e.item());
        return (w & LOCKED) == 0 && wts(w) == e.observed();
    }

    // ------------------------------------------------------------------ commit

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        if (preemptiveAbort) {
            TicTocTxnState s = (TicTocTxnState) txn.ccState(stateSlot);
            if (!s.prechecked) {
                s.prechecked = true;
                AbortCause c = preemptiveCheck(txn);
                if (c != null) {
                    return c;
                }
            }
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
                    if (historySize > 0 && Items.extAcquire(item) == null) {
                        // The item's first commit needs a history ring. Allocate it now, while a
                        // failure still aborts cleanly, not in publish, which must not fail.
                        Items.setExtRelease(item, new long[1 + 2 * historySize]);
                    }
                    return null;
                }
            } else if ((++spins > lockSpins || noWait) && !txn.escalatedWaits(spins)) {
                return AbortCause.LOCK_BUSY;
            }
            LockBitWords.pause(spins);
        }
    }

    /**
     * Seed 001 §5.2: a lower bound of the commit timestamp from local observations only; a read that
     * would need extending past its rts but whose item is locked by another transaction (or has
     * already changed, with no history to save it) cannot validate, so abort before locking.
     */
    private AbortCause preemptiveCheck(TxnContext txn) {
        if (isolation == Isolation.REPEATABLE_READ || txn.isEscalated()) {
            return null;
        }
        long approx = 0;
        for (int k = 0, n = txn.readCount(); k < n; k++) {
            Entry e = txn.readAt(k);
            if (!context.owns(e)) {
                continue;
            }
            long t = e.has(Entry.WRITE) && isolation == Isolation.SERIALIZABLE ? e.observed2() + 1 : e.observed();
            approx = Math.max(approx, t);
        }
        for (int k = 0, n = txn.readCount(); k < n; k++) {
            Entry e = txn.readAt(k);
            if (!context.owns(e) || e.has(Entry.WRITE) || e.observed2() >= approx) {
                continue;
            }
            long w = Items.wordVolatile(e.item());
            if ((w & LOCKED) != 0) {
                return AbortCause.READ_LOCKED;
            }
            if (wts(w) != e.observed() && !validInHistory(e, approx)) {
                return (w & RETIRED) != 0 ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
            }
        }
        return null;
    }

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        long reads = 0;
        long writes = 0;
        for (int k = 0, n = txn.writeCount(); k < n; k++) {
            Entry e = txn.writeAt(k);
            if (context.owns(e)) {
                // Locked by us, so rts only grows by failed extensions; volatile: the Dekker pair.
                writes = Math.max(writes, Items.word2Volatile(e.item()) + 1);
            }
        }
        // Reads of written items count too at snapshot isolation (there the write does not
        // supersede the read: the snapshot must contain the version read).
        boolean readsOfWrites = isolation == Isolation.SNAPSHOT;
        for (int k = 0, n = txn.readCount(); k < n; k++) {
            Entry e = txn.readAt(k);
            if (context.owns(e) && (readsOfWrites || !e.has(Entry.WRITE))) {
                reads = Math.max(reads, e.observed());
            }
        }
        // Entry-free reads of unchanging items (insert-only maps' keys) count as reads.
        reads = Math.max(reads, ((TicTocTxnState) txn.ccState(stateSlot)).unchangingWts);
        // The floor orders this transaction after every delete and structure change it may have
        // seen (read-only transactions included: a lookup that found a deleted key absent).
        long floorNow = (long) FLOOR.getVolatile(this);
        if (isolation == Isolation.SNAPSHOT) {
            reads = Math.max(reads, floorNow);
            ((TicTocTxnState) txn.ccState(stateSlot)).commitRts = reads;
        }
        if (readOnly) {
            return isolation == Isolation.REPEATABLE_READ ? reads : Math.max(reads, floorNow);
        }
        long ts = isolation == Isolation.REPEATABLE_READ ? writes : Math.max(reads, writes);
        return Math.max(ts, floorNow);
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        if (e.has(Entry.LOCKED)) {
            // Read and written: we hold the lock, so the version cannot change before we install
            // at commit_ts > rts; it only has to be the version we read.
            long lw = e.lockedWord();
            return wts(lw) == e.observed() ? null
                    : (lw & RETIRED) != 0 ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
        }
        switch (isolation) {
            case REPEATABLE_READ:
                // Not validated (read skew is allowed), but a key read present must stay present: a
                // delete unlinks the key's item, so a second lookup would not reach the entry that
                // caches the first read and would find the key absent. A value item retired since
                // the read fails; retire() marks it before the unlink becomes visible. Structure
                // items (a removed empty sorted-map leaf) are retired without any key changing.
                return (Items.wordVolatile(e.item()) & RETIRED) != 0
                        && (e.item() instanceof RefItem || e.item() instanceof LongItem) ? AbortCause.DELETED : null;
            case SNAPSHOT:
                return validateAt(txn, e, ((TicTocTxnState) txn.ccState(stateSlot)).commitRts);
            default:
                return validateAt(txn, e, commitTimestamp);
        }
    }

    /** Checks that the version {@code e} read is valid at {@code ts}, extending its rts if needed. */
    private AbortCause validateAt(TxnContext txn, Entry e, long ts) {
        if (e.observed2() >= ts) {
            return null;
        }
        TxItem item = e.item();
        int r = TicTocWord.extendRts(item, e.observed(), ts);
        for (int spins = 0; r == TicTocWord.BUSY && txn.escalatedWaits(spins); spins++) {
            // Escalated (docs/lock-family.md): the holder is committing, or aborts at the escalation check.
            LockBitWords.pause(spins);
            r = TicTocWord.extendRts(item, e.observed(), ts);
        }
        if (r == TicTocWord.VALID || r == TicTocWord.CHANGED && validInHistory(e, ts)) {
            return null;
        }
        if (r == TicTocWord.BUSY) {
            return AbortCause.READ_LOCKED;
        }
        return (Items.wordVolatile(item) & RETIRED) != 0 ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
    }

    @Override
    public void retire(TxnContext txn, Entry e, long commitTimestamp) {
        super.retire(txn, e, commitTimestamp);
        // The data type is about to unlink the item: whoever finds its key absent from now on
        // (a lookup, a scan, an insert of the key) must be ordered after this commit, but records
        // no version this commit writes. Raise the floor before the unlink becomes visible.
        raiseFloor(commitTimestamp + 1);
        // Mark the item retired now, still locked (publish keeps the bit): a repeatable-read
        // transaction that finds the key absent after the unlink sees the bit when it validates
        // its read of the item, even before this commit publishes. We hold the lock: nobody else
        // writes the word, and every reader of a locked word waits or fails.
        Items.setWordVolatile(e.item(), e.lockedWord() | LOCKED | RETIRED);
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        TxItem item = e.item();
        boolean retire = e.has(Entry.RETIRE);
        if (historySize > 0 && !retire && !e.has(Entry.INSERT)) {
            remember(item, wts(e.lockedWord()), commitTimestamp);
        }
        Items.setWord2Release(item, commitTimestamp);
        Items.setWordRelease(item, TicTocWord.wordOf(commitTimestamp) | (retire ? RETIRED : 0L));
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        Items.setWordRelease(e.item(), e.lockedWord());
    }

    private void raiseFloor(long ts) {
        for (;;) {
            long f = (long) FLOOR.getVolatile(this);
            if (f >= ts || FLOOR.compareAndSet(this, f, ts)) {
                return;
            }
        }
    }

    // ------------------------------------------------------------------ timestamp history

    /*
     * History ring in the item's ext slot, allocated when the item is first locked for a commit
     * (never again; lock, so that publish never allocates):
     * slot 0 = number of versions recorded; then pairs (wts of an old version, wts of the version
     * that replaced it). Written only by the lock holder, before the release store of the word;
     * read like a seqlock: unlocked word, opaque loads, acquire fence, the same word again.
     */

    private void remember(TxItem item, long oldWts, long newWts) {
        long[] h = (long[]) Items.extAcquire(item);
        if (h == null) {
            return; // not locked through lock() (no ring): nothing to remember it by
        }
        long count = (long) HISTORY.getOpaque(h, 0);
        int at = 1 + 2 * (int) (count % historySize);
        HISTORY.setOpaque(h, at, oldWts);
        HISTORY.setOpaque(h, at + 1, newWts);
        HISTORY.setOpaque(h, 0, count + 1);
    }

    /** @return true if the version {@code e} read was still the item's version at {@code ts} */
    private boolean validInHistory(Entry e, long ts) {
        if (historySize == 0) {
            return false;
        }
        TxItem item = e.item();
        long w1 = Items.wordVolatile(item);
        long[] h = (long[]) Items.extAcquire(item);
        if ((w1 & LOCKED) != 0 || h == null) {
            return false;
        }
        long observed = e.observed();
        boolean valid = false;
        for (int i = 1; i < h.length; i += 2) {
            if ((long) HISTORY.getOpaque(h, i) == observed) {
                valid = ts < (long) HISTORY.getOpaque(h, i + 1);
                break;
            }
        }
        VarHandle.acquireFence();
        return valid && Items.wordVolatile(item) == w1;
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
                // Retired and published; while its delete is still committing (locked), wait.
                return RETIRED_ITEM;
            }
            if ((w & LOCKED) == 0 && Items.casWord(item, w, w | LOCKED)) {
                // A structure operation may hand this item's range to other items: commits that
                // write after it must be ordered after every reservation of this version.
                raiseFloor(Items.word2Volatile(item) + 1);
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
        long w = lockedWord;
        if (changed) {
            long ts = Math.max(Items.word2Volatile(item), wts(lockedWord)) + 1;
            Items.setWord2Release(item, ts);
            w = TicTocWord.wordOf(ts);
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
        return TicTocWord.checkQuiescent(Items.wordVolatile(item), Items.word2Volatile(item));
    }
}
