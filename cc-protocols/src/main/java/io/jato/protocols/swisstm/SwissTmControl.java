package io.jato.protocols.swisstm;

import io.jato.protocols.clock.StoreCounter;
import io.jato.protocols.wait.Waits;
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

import java.util.List;

/*
 * SwissTM (Dragojević, Guerraoui, Kapałka, PLDI 2009), as seed 000 ran it on STO.
 *
 * Item: primary word = version << 2 | RETIRED | R, where the version is the commit counter value of
 * the item's last commit and R is the commit ("read") lock, set while a commit writes the item back;
 * secondary word = the write-lock owner's id (0: free).
 *
 * Writes lock eagerly: the first write of an entry (onWrite) CASes the owner id into the secondary
 * word, so write/write conflicts surface at write time. Reads are invisible: load the word (wait
 * while R is set), the value, the word again; a version newer than the transaction's valid
 * timestamp extends it: take the commit counter, revalidate every read (its item still has the
 * observed version and no R), and continue, or abort. So every attempt sees a consistent state
 * (opacity). A read of an item the transaction write-locked itself answers from the entry's locked
 * word (nobody else can change the item).
 *
 * Commit, in the driver's phases: nothing to lock (writes are locked); commitTimestamp sets R on every
 * written item, then takes ts = ++commitCounter (a read-only commit only reads the counter); validate
 * is skipped when no other commit took a timestamp since the last validation (ts = validTs + 1),
 * else every read is checked as in an extension; publish stores version ts and frees the write
 * lock. R is set before the increment and validation reads words after it, so a commit that took a
 * smaller timestamp but has not published is seen (its R bits) and fails the validator, and one
 * whose R bits were not seen takes a larger timestamp (serialized after the reader).
 *
 * Two-phase contention manager, on a write/write conflict only: a transaction is timid (it aborts
 * itself, LOCK_BUSY) until it has done greedyAfter writes; then it takes a greedy timestamp from a
 * store counter, kept across its retries. A greedy transaction that meets an owner with a larger
 * (younger, or timid) greedy timestamp asks the owner to abort (TxnContext.requestAbort, found
 * through the registry of live states) and waits for the lock, polling its own abort requests;
 * otherwise it aborts itself. Waits go from older to younger only, so none is a cycle. The escalated
 * transaction (TxnContext.isEscalated) is the oldest of all: greedy timestamp 1. Non-transactional
 * writes take the write lock with owner id -1 and are waited for, boundedly.
 *
 * Departures: the commit counter is one padded word (SwissTM's), incremented by writing commits
 * only; lock granularity is Jato's item (a value, a record field group, a map stripe or leaf), not
 * SwissTM's 4-word stripes; and commits are serialized with the store's other protocols by the
 * commit-point rule of docs/mixed-protocols.md (a read-only commit validates unless the counter
 * has not moved, so its serialization point is its commit; in a store of several protocols every
 * commit validates, after the spanning-commit clock: see validate).
 */

/** One store's SwissTM instance. Thread-safe; one instance serves every thread of the store. */
public final class SwissTmControl extends ConcurrencyControl {
    static final long R = 1L;
    static final long RETIRED = 1L << 1;
    private static final int FLAG_BITS = 2;
    /** The greedy timestamp of a timid transaction: younger than every greedy one. */
    static final long TIMID = Long.MAX_VALUE;
    private static final long ESCALATED_GREEDY = 1L;
    /** The write-lock owner id of a non-transactional write. */
    private static final long NON_TX_OWNER = -1L;
    /** Polls of a write lock held outside a transaction, or by a transaction asked to abort, before giving up. */
    private static final int OWNER_POLLS = 512;

    private final ProtocolContext context;
    private final int stateSlot;
    private final int readSpins;
    private final int greedyAfter;
    /**
     * The store binds objects to several protocols: every commit validates its reads, with no
     * shortcut (see {@link #validate}).
     */
    private final boolean mixed;
    /** SwissTM's global commit counter: incremented by each writing commit, read by every extension. */
    private final StoreCounter commitCounter = new StoreCounter(0);
    /** Greedy timestamps (from 2: 1 is the escalated transaction's). */
    private final StoreCounter greedyCounter = new StoreCounter(ESCALATED_GREEDY);
    /** Write-lock owner ids, one per context. */
    private final StoreCounter ownerIds = new StoreCounter(0);

    SwissTmControl(ProtocolContext context, int greedyAfter) {
        this.context = context;
        this.stateSlot = context.stateSlot();
        this.readSpins = context.readSpinLimit();
        this.greedyAfter = greedyAfter;
        this.mixed = context.isMixed();
    }

    @Override
    public String name() {
        return SwissTmProtocol.NAME;
    }

    static long version(long w) {
        return w >>> FLAG_BITS;
    }

    @Override
    public Object newTxnState(TxnContext txn) {
        return new SwissTxnState(ownerIds.next(), txn);
    }

    private SwissTxnState state(TxnContext txn) {
        return (SwissTxnState) txn.ccState(stateSlot);
    }

    @Override
    public void begin(TxnContext txn) {
        SwissTxnState s = state(txn);
        s.attempt = txn.attemptId();
        if (txn.isEscalated()) {
            s.greedy = ESCALATED_GREEDY;
        } else if (txn.attempt() == 0) {
            s.greedy = TIMID;
        }
        s.writes = 0;
        s.writer = false;
        s.validTs = commitCounter.current();
    }

    // ------------------------------------------------------------------ execution-time reads

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        for (;;) {
            long w = stableWord(txn, item, e);
            if (e.has(Entry.LOCKED)) {
                return item.valueAcquire();
            }
            Object v = item.valueAcquire();
            if (Items.wordVolatile(item) == w) {
                e.setObserved(version(w));
                return v;
            }
        }
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        for (;;) {
            long w = stableWord(txn, item, e);
            if (e.has(Entry.LOCKED)) {
                return item.valueAcquire();
            }
            long v = item.valueAcquire();
            if (Items.wordVolatile(item) == w) {
                e.setObserved(version(w));
                return v;
            }
        }
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        long w = stableWord(txn, item, e);
        if (!e.has(Entry.LOCKED)) {
            e.setObserved(version(w));
        }
    }

    /**
     * Returns the item's word, not being written back and no newer than the transaction's valid
     * timestamp (extending it if needed), after polling remote abort requests. For an entry the
     * transaction write-locked itself, records the locked word's version and returns it at once.
     */
    private long stableWord(TxnContext txn, TxItem item, Entry e) {
        if (txn.abortRequested()) {
            throw txn.rollback(AbortCause.REMOTE_ABORT);
        }
        if (e.has(Entry.LOCKED)) {
            e.setObserved(version(e.lockedWord()));
            return e.lockedWord();
        }
        SwissTxnState s = state(txn);
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            if ((w & R) == 0) {
                if (version(w) <= s.validTs) {
                    return w;
                }
                extend(txn, s);
                continue;
            }
            if (++spins > readSpins) {
                if (!txn.escalatedWaits(spins)) {
                    throw txn.rollback(AbortCause.READ_BUSY);
                }
                // Escalated (docs/lock-family.md): R is a write-back already past its escalation
                // check, which finishes without waiting for us, or a non-transactional operation,
                // which may wait for an item we hold: hence escalatedWaits' bound.
            }
            LockBitWords.pause(spins);
        }
    }

    /** Moves the valid timestamp to the commit counter's value if every read so far still holds. */
    private void extend(TxnContext txn, SwissTxnState s) {
        long now = commitCounter.current();
        if (!readsValid(txn)) {
            throw txn.rollback(AbortCause.READ_VALIDATION);
        }
        s.validTs = now;
    }

    private boolean readsValid(TxnContext txn) {
        for (int k = 0, n = txn.readCount(); k < n; k++) {
            Entry e = txn.readAt(k);
            if (context.owns(e) && check(txn, e) != null) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return null if the version {@code e} read is still its item's, else why not. An escalated
     *         transaction waits out a write-back (R) instead of failing on it: the writer is past
     *         its escalation check and will publish or unlock without waiting for anyone.
     */
    private static AbortCause check(TxnContext txn, Entry e) {
        if (e.has(Entry.LOCKED)) {
            return version(e.lockedWord()) == e.observed() ? null : AbortCause.READ_VALIDATION;
        }
        long w = Items.wordVolatile(e.item());
        if ((w & R) != 0) {
            for (int spins = 0; ((w = Items.wordVolatile(e.item())) & R) != 0; spins++) {
                if (!txn.escalatedWaits(spins)) {
                    return AbortCause.READ_LOCKED;
                }
                LockBitWords.pause(spins);
            }
        }
        if (version(w) != e.observed()) {
            return (w & RETIRED) != 0 ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
        }
        return null;
    }

    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        return check(txn, e) == null;
    }

    // ------------------------------------------------------------------ eager write locks

    @Override
    public AbortCause onWrite(TxnContext txn, Entry e) {
        return writeLock(txn, e);
    }

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        return e.has(Entry.LOCKED) ? null : writeLock(txn, e);
    }

    private AbortCause writeLock(TxnContext txn, Entry e) {
        SwissTxnState s = state(txn);
        TxItem item = e.item();
        for (int polls = 0;; polls++) {
            if (txn.abortRequested()) {
                return AbortCause.REMOTE_ABORT;
            }
            long owner = Items.word2Volatile(item);
            if (owner == 0) {
                if (Items.casWord2(item, 0, s.id)) {
                    // Nobody else changes the word while we own the lock.
                    long w = Items.wordVolatile(item);
                    if ((w & RETIRED) != 0) {
                        Items.setWord2Release(item, 0);
                        return AbortCause.DELETED;
                    }
                    e.setLockedWord(w);
                    e.addFlags(Entry.LOCKED);
                    if (++s.writes == greedyAfter && s.greedy == TIMID) {
                        s.greedy = greedyCounter.next();
                    }
                    return null;
                }
                continue;
            }
            if (!mayWait(s, owner, polls)) {
                return AbortCause.LOCK_BUSY;
            }
            Waits.pause(polls);
        }
    }

    /**
     * The two-phase contention manager, for a write lock held by {@code owner}: a timid transaction
     * never waits; a greedy one waits for a younger owner after asking it to abort.
     */
    private boolean mayWait(SwissTxnState s, long owner, int polls) {
        if (owner == NON_TX_OWNER) {
            return polls < OWNER_POLLS;
        }
        long mine = s.greedy;
        if (mine == TIMID) {
            return false;
        }
        SwissTxnState other = find(owner);
        if (other == null) {
            return polls < OWNER_POLLS; // its thread died mid-attempt? it cannot: wait briefly
        }
        if (mine >= other.greedy) {
            return false;
        }
        other.txn.requestAbort(other.attempt);
        // A request loses to an owner past its point of no return: it publishes soon.
        return mine == ESCALATED_GREEDY || polls < OWNER_POLLS;
    }

    private SwissTxnState find(long id) {
        List<Object> states = context.txnStates();
        for (int i = 0, n = states.size(); i < n; i++) {
            SwissTxnState st = (SwissTxnState) states.get(i);
            if (st != null && st.id == id) {
                return st;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ commit

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        SwissTxnState s = state(txn);
        if (readOnly) {
            return commitCounter.current();
        }
        for (int k = 0, n = txn.writeCount(); k < n; k++) {
            Entry e = txn.writeAt(k);
            if (context.owns(e)) {
                Items.setWordVolatile(e.item(), e.lockedWord() | R);
            }
        }
        s.writer = true;
        return commitCounter.next();
    }

    /**
     * Skipped when no other commit took a timestamp since the reads were last validated: the
     * commit's serialization point is then its read or increment of the counter. Not in a store
     * that mixes protocols: there a spanning commit's order against the other protocols is the
     * spanning-commit clock's, which it takes after this protocol's {@link #commitTimestamp}, so its
     * serialization point must come after the clock, at the validation (docs/mixed-protocols.md;
     * with the shortcut, a reader whose counter read preceded a writer's increment could take the
     * clock after the writer, and {@code SortedMapPhantomTest} saw phantoms under
     * {@code swisstm+mvcc} and {@code mvcc+swisstm}).
     */
    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        SwissTxnState s = state(txn);
        if (!mixed && commitTimestamp == s.validTs + (s.writer ? 1 : 0)) {
            return null; // no other commit took a timestamp since the reads were last validated
        }
        return check(txn, e);
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        TxItem item = e.item();
        Items.setWordRelease(item, commitTimestamp << FLAG_BITS | (e.has(Entry.RETIRE) ? RETIRED : 0));
        Items.setWord2Release(item, 0);
    }

    @Override
    public void unlockChanged(TxnContext txn, Entry e, long commitTimestamp) {
        // A fresh version: a read-only commit's timestamp, or one never published, must differ.
        publish(txn, e, Math.max(commitTimestamp, commitCounter.next()));
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        TxItem item = e.item();
        Items.setWordRelease(item, e.lockedWord());
        Items.setWord2Release(item, 0);
    }

    // ------------------------------------------------------------------ non-transactional

    @Override
    public long lockNonTx(TxItem item) {
        return lockNonTx(item, Integer.MAX_VALUE);
    }

    /** Transactions hold their write locks while they run: report a held item after a short spin. */
    @Override
    public long tryLockNonTx(TxItem item) {
        return lockNonTx(item, Waits.SPIN_POLLS);
    }

    private long lockNonTx(TxItem item, int maxPolls) {
        for (int polls = 0;; polls++) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0 && (w & R) == 0) {
                return RETIRED_ITEM;
            }
            if (Items.word2Volatile(item) == 0 && Items.casWord2(item, 0, NON_TX_OWNER)) {
                w = Items.wordVolatile(item);
                if ((w & RETIRED) != 0) {
                    Items.setWord2Release(item, 0);
                    return RETIRED_ITEM;
                }
                Items.setWordVolatile(item, w | R);
                return w;
            }
            if (polls >= maxPolls) {
                return NON_TX_BUSY;
            }
            Waits.pause(polls);
        }
    }

    @Override
    public void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire) {
        long w = changed ? commitCounter.next() << FLAG_BITS : lockedWord;
        Items.setWordRelease(item, retire ? w | RETIRED : w);
        Items.setWord2Release(item, 0);
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
        return (Items.wordVolatile(item) & R) != 0 || Items.word2Volatile(item) != 0;
    }

    @Override
    public boolean isRetired(TxItem item) {
        return (Items.wordVolatile(item) & RETIRED) != 0;
    }

    @Override
    public String checkQuiescent(TxItem item) {
        long w = Items.wordVolatile(item);
        long owner = Items.word2Volatile(item);
        if ((w & R) != 0 || owner != 0) {
            return "item still locked: version=" + version(w) + ((w & R) != 0 ? " R" : "") + " owner=" + owner;
        }
        if (version(w) > commitCounter.current()) {
            return "version " + version(w) + " ahead of the commit counter " + commitCounter.current();
        }
        return null;
    }
}
