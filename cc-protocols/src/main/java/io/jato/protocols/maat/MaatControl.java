package io.jato.protocols.maat;

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
 * MaaT-style dynamic timestamp ranges (seed 004 §IV-VI; Mahmoud et al.'s MaaT, as adapted to
 * CockroachDB): a transaction commits at a timestamp chosen from a range [lower, upper] that
 * starts as [0, infinity) and is narrowed by what it conflicts with, instead of at a timestamp
 * fixed in advance (or, as OCC, at the instant of its commit). A conflict alone does not abort: a
 * reader whose item was overwritten by a transaction that committed first is ordered before that
 * writer, if its own writes let it.
 *
 * Item metadata: TicToc's word pair (TicTocWord: wts + lock + retired bits; rts = the largest
 * timestamp a committed reader used the version at), plus the item's soft read and write locks
 * (SoftLocks, in the reference slot: a word of slot bits for each kind).
 *
 * Execution. A read waits until the item is unlocked (polled up to the read spin bound), takes a
 * soft read lock (sets its slot's bit on the item), then reads as TicToc does (word, rts, value,
 * word). Registering only once the item is unlocked keeps a reader from being narrowed below a
 * writer whose new version it then reads. Writes are buffered; an entry's first write (onWrite)
 * takes a soft write lock (sets its slot's bit in the item's writers word).
 *
 * Commit (driver phases):
 *  1. lock    — CAS the word's lock bit; the first lock waits up to the lock spin bound, later
 *               ones spin briefly (as OCC), then LOCK_BUSY; escalated: unbounded.
 *  2. ts      — lower = max(the store's floor; wts of every version read; the lower bound others
 *               pushed (see 3); for every write: rts + 1, frozen ts + 1 of every other soft reader
 *               and of every other frozen soft writer). Every other soft reader of a written item
 *               that is still open has its upper bound narrowed below lower (seed 004 §V: "commit
 *               after the transactions holding soft read locks on the item"); first, lower goes
 *               above the reader's pushed lower bound if our own range allows, rather than
 *               emptying the reader's. The item's rts is read again after its soft locks (see
 *               below). The proposal is lower.
 *  3. validate — a read the transaction also wrote must be the locked version. A soft-locked read
 *               is ordered before the other holders of soft write locks on the item (seed 004:
 *               the CommitBeforeQueue): an open holder's published lower bound is pushed above ts;
 *               a holder frozen above the version read and at or below ts empties our range
 *               (TIMESTAMP_ORDER). It needs no other check: every writer that replaced the version
 *               after it was read saw the soft read lock and ordered itself after this
 *               transaction's range (narrowed it, or went above its frozen timestamp). Its rts is
 *               raised to ts (CAS to the maximum), so that writers coming after this attempt's soft
 *               lock is gone go above it: the item's "max committed read timestamp" of the paper.
 *               A read without a soft lock (no slot) validates as TicToc's: extend rts to ts, fail
 *               if the item changed or is locked.
 *  4. prepare — freeze ts in the range (MaatRange.freeze); a range whose upper bound fell below
 *               ts is empty: abort with TIMESTAMP_ORDER. Others narrowing this range and this
 *               freeze are CASes on one word, so exactly one order holds. Once frozen, the other
 *               open holders of soft write locks on our written items have their lower bounds
 *               pushed above ts (write-write: the first to commit goes first, as the commit lock
 *               makes them install).
 *  5. install, publish: rts = ts, then word = ts unlocked (release stores), as TicToc.
 *  finish — clear every soft lock, read and write, the attempt took (commit and abort alike; begin
 *           clears them too if a previous finish did not run).
 *
 * Why a writer reads rts after the soft locks. A reader R committing at ts_R raises rts (validate)
 * before it clears its soft lock (finish); a writer W locks, loads the soft-lock word, then rts. If W misses R's bit,
 * the clear came first, so the raise did too, and W's rts load sees it. If W sees the bit, R is
 * open (narrowed) or frozen (W goes above it). Either way ts_R < ts_W. docs/maat.md has the
 * whole argument.
 *
 * Why pushes need no handshake. The pushed lower bound is what others learned early; the order
 * it asks for (a committed reader of x before the holder of x's soft write lock) is also what the
 * soft read lock and x's rts give when the holder commits, so a push the holder misses (it had
 * computed its timestamp) is not checked at its freeze, and nothing else waits on the pushed word.
 * What it adds: a writer about to narrow the holder's range, for an item the holder read, goes
 * above the pushed bound instead of emptying the range.
 *
 * Departures. (a) Write-write order: the paper orders a writer after the holders of soft write
 * locks it finds; writes are buffered here and install in the order of the commit lock, so the
 * one that commits first goes first and pushes the others above it. (b) Ranges are narrowed only
 * at commit (the paper adjusts on every access): an open range publishes its upper bound and the
 * lower bound others pushed; the lower bound from the transaction's own accesses is computed at
 * its commit. (c) The floor of TicToc (data types that move
 * key ranges between items outside transactions, deletes) is kept: every commit is at least the
 * floor; a non-transactional lock narrows the item's soft readers below the floor it raises. (d)
 * Only 64 contexts per store hold slots; the others read without soft locks and validate like
 * TicToc (serializable either way). (e) Like OCC, reads are not opaque.
 */

/** One store's MaaT instance. Thread-safe; one instance serves every thread of the store. */
public final class MaatControl extends ConcurrencyControl {
    private static final VarHandle FLOOR;

    static {
        try {
            FLOOR = MethodHandles.lookup().findVarHandle(MaatControl.class, "floor", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Lock attempts for each further write lock once the commit holds one (OCC's default). */
    static final int HELD_LOCK_SPINS = 128;

    /** The entry's read took a soft lock (before its observation). */
    static final int SOFT = Entry.PROTOCOL_FLAG_0;
    /** The entry's first write took a soft write lock. */
    static final int SOFT_WRITE = Entry.PROTOCOL_FLAG_1;

    private final int lockSpins;
    private final int readSpins;
    /** Says which entries are ours when the store mixes protocols. */
    private final ProtocolContext context;
    /** Where our per-transaction state is ({@link TxnContext#ccState(int)}). */
    private final int stateSlot;
    /** How many slots this store hands out (option {@value MaatProtocol#SOFT_LOCK_SLOTS}). */
    private final int slots;
    /** Which live state holds each soft-lock bit. */
    private final SlotTable slotTable;
    /** Orders a committing transaction against the holders of soft locks on its items. */
    private final SoftLockOrdering ordering;

    /** The least commit timestamp of any transaction (TicToc's floor, see the essay). CAS only. */
    @SuppressWarnings("unused") // through FLOOR
    private volatile long floor;

    MaatControl(ProtocolContext context, int slots) {
        this.lockSpins = context.lockSpinLimit();
        this.readSpins = context.readSpinLimit();
        this.context = context;
        this.stateSlot = context.stateSlot();
        this.slots = slots;
        this.slotTable = new SlotTable(slots);
        this.ordering = new SoftLockOrdering(slotTable);
    }

    @Override
    public String name() {
        return MaatProtocol.NAME;
    }

    /** @return how many contexts of this store can hold soft locks at once */
    public int softLockSlots() {
        return slots;
    }

    /**
     * Orders by commit timestamps. A spanning transaction's agreed timestamp is accepted if it
     * lies in the range; otherwise {@link #prepare} aborts.
     */
    @Override
    public boolean ordersByTimestamp() {
        return true;
    }

    // ------------------------------------------------------------------ per-transaction state

    @Override
    public Object newTxnState(TxnContext txn) {
        return slotTable.newState();
    }

    @Override
    public void retireTxnState(Object state) {
        slotTable.release((MaatTxnState) state);
    }

    private MaatTxnState state(TxnContext txn) {
        return (MaatTxnState) txn.ccState(stateSlot);
    }

    @Override
    public void begin(TxnContext txn) {
        MaatTxnState s = state(txn);
        if (s.holdsSoftLocks()) {
            s.releaseAll(); // the previous attempt's finish did not run (a hook threw before it)
        }
        s.range.reset();
        s.holdsLock = false;
    }

    @Override
    public void finish(TxnContext txn, boolean committed, AbortCause cause) {
        state(txn).releaseAll();
    }

    // ------------------------------------------------------------------ execution-time reads

    /**
     * Takes the soft read lock for {@code e}'s first observation. Called once the item was seen
     * unlocked: a reader that registered while a writer held the lock would be narrowed below
     * that writer and then read its new version, an abort for nothing. The caller reads the word
     * again after a registration (the reader's half of the Dekker pair in {@link SoftLocks}).
     *
     * @return true if the lock was taken now (read the word again), false if there is nothing to take
     */
    private boolean softLock(TxnContext txn, TxItem item, Entry e) {
        if (e.has(SOFT | Entry.LOCKED)) {
            return false;
        }
        MaatTxnState s = state(txn);
        if (s.bit == 0) {
            return false;
        }
        SoftLocks locks = SoftLocks.of(item);
        s.hold(locks); // first: if growing the list throws, no bit is left set unrecorded
        locks.lockRead(s.bit);
        e.addFlags(SOFT);
        return true;
    }

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            if ((w & LOCKED) == 0) {
                if (softLock(txn, item, e)) {
                    continue;
                }
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
            spins = readSpin(txn, spins);
        }
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            if ((w & LOCKED) == 0) {
                if (softLock(txn, item, e)) {
                    continue;
                }
                long r = Items.word2Volatile(item);
                long v = item.valueAcquire();
                if (Items.wordVolatile(item) == w) {
                    e.setObserved(wts(w));
                    e.setObserved2(r);
                    return v;
                }
            } else if (e.has(Entry.LOCKED)) {
                e.setObserved(wts(e.lockedWord()));
                e.setObserved2(Items.word2Volatile(item));
                return item.valueAcquire();
            }
            spins = readSpin(txn, spins);
        }
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            if ((w & LOCKED) == 0) {
                if (softLock(txn, item, e)) {
                    continue;
                }
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
            spins = readSpin(txn, spins);
        }
    }

    private int readSpin(TxnContext txn, int spins) {
        if (++spins > readSpins && !txn.escalatedWaits(spins)) {
            throw txn.rollback(AbortCause.READ_BUSY);
        }
        LockBitWords.pause(spins);
        return spins;
    }

    // ------------------------------------------------------------------ execution-time writes

    /**
     * Takes the soft write lock for {@code e}'s first write (the write itself stays buffered):
     * a transaction that commits a read of the item while this one runs learns from it that it
     * must come before this one ({@link #validate}), and a committing writer of the item orders
     * itself against it ({@link #prepare}). One atomic OR on the item's soft-lock object.
     */
    @Override
    public AbortCause onWrite(TxnContext txn, Entry e) {
        MaatTxnState s = state(txn);
        if (s.bit != 0 && !e.has(SOFT_WRITE)) {
            SoftLocks locks = SoftLocks.of(e.item());
            s.holdWrite(locks); // first: if growing the list throws, no bit is left set unrecorded
            locks.lockWrite(s.bit);
            e.addFlags(SOFT_WRITE);
        }
        return null;
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
        TxItem item = e.item();
        MaatTxnState s = state(txn);
        // As OCC: waiting is safe only while the commit holds no lock (no wait-for cycle can run
        // through it), so the first lock waits long (spin, then yield) and later ones spin briefly
        // and give up, letting backoff break a possible deadlock.
        int limit = s.holdsLock ? Math.min(lockSpins, HELD_LOCK_SPINS) : lockSpins;
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
                    return null;
                }
            } else if (++spins > limit && !txn.escalatedWaits(spins)) {
                return AbortCause.LOCK_BUSY;
            }
            LockBitWords.pause(spins);
        }
    }

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        long lower = (long) FLOOR.getVolatile(this);
        for (int k = 0, n = txn.readCount(); k < n; k++) {
            Entry e = txn.readAt(k);
            if (context.owns(e) && !e.has(Entry.WRITE)) {
                lower = Math.max(lower, e.observed());
            }
        }
        if (readOnly) {
            return lower; // holds no soft write lock: nobody pushed this attempt's lower bound
        }
        // A first estimate from the written items' rts, so that readers are narrowed below the
        // timestamp this commit will take rather than below a smaller one.
        for (int k = 0, n = txn.writeCount(); k < n; k++) {
            Entry e = txn.writeAt(k);
            if (context.owns(e)) {
                lower = Math.max(lower, Items.word2Volatile(e.item()) + 1);
            }
        }
        MaatTxnState s = state(txn);
        long spare = MaatRange.UNBOUNDED; // how high this commit may go to spare a reader's range
        if (s.bit != 0) {
            // What committed readers of our soft-write-locked items pushed us to (see validate).
            lower = Math.max(lower, s.range.lower());
            spare = s.range.upper();
            if (lower > spare) {
                return lower; // already empty: prepare aborts; do not narrow anyone for nothing
            }
        }
        for (int k = 0, n = txn.writeCount(); k < n; k++) {
            Entry e = txn.writeAt(k);
            if (context.owns(e)) {
                TxItem item = e.item();
                lower = ordering.orderAfterHolders(item, lower, s.bit, spare);
                // After the soft locks (see the essay): a reader that cleared its bit raised rts first.
                lower = Math.max(lower, Items.word2Volatile(item) + 1);
            }
        }
        return lower;
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        if (e.has(Entry.LOCKED)) {
            // Read and written: we hold the lock, so the version cannot change before we install
            // above its rts; it only has to be the version we read.
            long lw = e.lockedWord();
            return wts(lw) == e.observed() ? null
                    : (lw & RETIRED) != 0 ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
        }
        TxItem item = e.item();
        if (e.has(SOFT)) {
            AbortCause c = ordering.orderBeforeWriters(state(txn).bit, item, e.observed(), commitTimestamp);
            if (c == null && e.observed2() < commitTimestamp) {
                raiseRts(item, commitTimestamp);
            }
            return c;
        }
        if (e.observed2() >= commitTimestamp) {
            return null; // the version was already reserved up to the timestamp when read
        }
        int r = TicTocWord.extendRts(item, e.observed(), commitTimestamp);
        for (int spins = 0; r == TicTocWord.BUSY && txn.escalatedWaits(spins); spins++) {
            LockBitWords.pause(spins);
            r = TicTocWord.extendRts(item, e.observed(), commitTimestamp);
        }
        if (r == TicTocWord.VALID) {
            return null;
        }
        if (r == TicTocWord.BUSY) {
            return AbortCause.READ_LOCKED;
        }
        return (Items.wordVolatile(item) & RETIRED) != 0 ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
    }

    /** Raises the item's rts to at least {@code ts}, whatever version it holds now. */
    private static void raiseRts(TxItem item, long ts) {
        for (;;) {
            long r = Items.word2Volatile(item);
            if (r >= ts || Items.casWord2(item, r, ts)) {
                return;
            }
        }
    }

    @Override
    public AbortCause prepare(TxnContext txn, long commitTimestamp) {
        MaatTxnState s = state(txn);
        if (s.bit != 0 && !s.range.freeze(commitTimestamp)) {
            return AbortCause.TIMESTAMP_ORDER;
        }
        if (s.heldWriteCount != 0) {
            ordering.pushWriters(s, commitTimestamp);
        }
        return null;
    }

    @Override
    public void retire(TxnContext txn, Entry e, long commitTimestamp) {
        super.retire(txn, e, commitTimestamp);
        // As TicToc: whoever finds the key absent from now on must be ordered after this commit,
        // but records no version it writes. Raise the floor before the unlink becomes visible.
        raiseFloor(commitTimestamp + 1);
        Items.setWordVolatile(e.item(), e.lockedWord() | LOCKED | RETIRED);
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        TxItem item = e.item();
        Items.setWord2Release(item, commitTimestamp);
        Items.setWordRelease(item, TicTocWord.wordOf(commitTimestamp) | (e.has(Entry.RETIRE) ? RETIRED : 0L));
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        Items.setWordRelease(e.item(), e.lockedWord());
    }

    /**
     * Failure once the install began: the item gets a new version, and every open soft reader of
     * it is made unable to commit (its upper bound becomes -1): what was installed may be partial,
     * so nobody who read the item before may be ordered before this failed commit either.
     */
    @Override
    public void unlockChanged(TxnContext txn, Entry e, long commitTimestamp) {
        TxItem item = e.item();
        ordering.emptyReaders(item, state(txn).bit);
        publish(txn, e, Math.max(commitTimestamp, Items.word2Volatile(item) + 1));
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
                // A single write or a structure change (which may hand this item's keys to other
                // items) follows: every commit from now on, and the new version, must be ordered
                // after every reader of this version. Open soft readers are narrowed below the
                // floor raised here; frozen ones and committed ones (rts) raise it.
                long limit = ordering.orderAfterHolders(item, Items.word2Volatile(item) + 1, 0L, Long.MIN_VALUE);
                raiseFloor(Math.max(limit, Items.word2Volatile(item) + 1));
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
            long ts = Math.max(Math.max(Items.word2Volatile(item), wts(lockedWord)) + 1,
                    (long) FLOOR.getVolatile(this));
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

    /** Quiescent: TicToc's word pair is, and no live slot still holds a soft lock of either kind on the item. */
    @Override
    public String checkQuiescent(TxItem item) {
        String words = TicTocWord.checkQuiescent(Items.wordVolatile(item), Items.word2Volatile(item));
        if (words != null) {
            return words;
        }
        SoftLocks locks = SoftLocks.peek(item);
        if (locks == null) {
            return null;
        }
        long live = slotTable.live(locks.readers());
        if (live != 0) {
            return "soft read locks still held by slots " + Long.toBinaryString(live);
        }
        live = slotTable.live(locks.writers());
        return live == 0 ? null : "soft write locks still held by slots " + Long.toBinaryString(live);
    }

    /** @return the soft read locks on {@code item} (a bit per slot); for tests and diagnostics */
    public long softReaders(TxItem item) {
        SoftLocks locks = SoftLocks.peek(item);
        return locks == null ? 0 : locks.readers();
    }

    /** @return the soft write locks on {@code item} (a bit per slot); for tests and diagnostics */
    public long softWriters(TxItem item) {
        SoftLocks locks = SoftLocks.peek(item);
        return locks == null ? 0 : locks.writers();
    }
}
