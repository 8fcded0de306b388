package io.jato.collections;

import io.jato.collections.internal.hash.ChainedIndex;
import io.jato.collections.internal.hash.NodeBuffer;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/*
 * Design. TxHashMap and TxLongHashMap run one protocol (see TxHashMap's design comment) over two
 * key representations: object keys in an ObjectNodeIndex, primitive long keys in a LongNodeIndex.
 * What depends on the key stays in each map, specialized: hashing to a stripe, the index lookup,
 * the search of a transaction's buffered inserts, key comparisons. That is the lookup hot path,
 * and routing it through a common key abstraction would make it dispatch on (or box) the key.
 *
 * Everything here works on a node and its entry, whatever the key: the absence stripes and the
 * insert mark, the ABSENT/REMOVED sentinels, reading a found node, buffering writes, inserts and
 * commit-time updates, and the commit Participant. The methods the lookup path calls are final
 * (statically bound, inlined as before); the abstract hooks (link, unlink, ...) are reached only
 * from the commit install, from the non-transactional view, and from error messages.
 *
 * Keys never reach this class: a key an error message needs is asked of the node (keyOf), which
 * TxLongHashMap boxes only then. Entry keys (Entry.key) are passed in by the caller: TxHashMap
 * passes its key, TxLongHashMap null, since boxing it would allocate on every write.
 */

/**
 * The key-independent part of {@link TxHashMap} and {@link TxLongHashMap}.
 *
 * @param <N> the node type: a {@link RefItem} holding one key's value, linked in the index while
 *            the key is present
 */
abstract class HashMapCore<N extends RefItem> {
    /** Pending value of a buffered delete. */
    static final Object ABSENT = new Object();
    /**
     * Committed value of a node whose delete committed and unlinked it; the node is retired, and a
     * reader that still reaches it looks the key up again. (A delete the protocol keeps linked,
     * {@link ConcurrencyControl#keepsDeleted}, holds {@link ConcurrencyControl#NO_VERSION} instead:
     * the key is absent and the node is where a later insert of the key goes.)
     */
    static final Object REMOVED = new Object();
    /** Returned by {@link #replaceNonTx} and {@link #removeNonTx} for a node retired meanwhile. */
    static final Object RETRY = new Object();
    /** Spreads maps over the 64 insert-mark bits; a shared bit only costs an extra lookup. */
    private static final AtomicInteger MAP_IDS = new AtomicInteger();

    final Stm stm;
    /**
     * The protocol domain of every item of this map: its stripes and every node any transaction
     * or loader ever inserts. Asked of the store once, so that the whole map is bound to one
     * protocol (a node in another domain than its stripe would be validated by another protocol).
     */
    final int domain;
    /** The absence stripes; each map picks a key's stripe with its own hash of the key. */
    final TxItem[] stripes;
    /** This map's bit for {@link TxnContext#markInserts}: lookups skip own-insert checks when it is clear. */
    final long insertMark = 1L << (MAP_IDS.getAndIncrement() & 63);
    /**
     * Another bit in the same word, set when a lookup of this map finds a key absent: writes skip
     * {@link #checkObservedAbsence} when it is clear. (A bit shared with another object only costs
     * an extra lookup, as for {@link #insertMark}.)
     */
    final long absenceMark = 1L << (MAP_IDS.getAndIncrement() & 63);
    final TxParticipant participant = new Participant();
    /**
     * Whether a key, once its insert has committed, keeps that value for ever (the maps'
     * {@code insertOnly} factories): {@code put} of a present key, {@code remove}, {@code update}
     * and {@code merge} are refused, and lookups of present keys may then be read without an entry
     * ({@link #unchangingValue}). Set at construction.
     */
    final boolean insertOnly;

    /**
     * Checks the arguments of both maps' constructors (same order, same messages) and sizes the
     * stripes; the subclass then builds its index.
     */
    HashMapCore(Stm stm, int expectedSize, boolean insertOnly) {
        this.insertOnly = insertOnly;
        this.stm = Objects.requireNonNull(stm, "stm");
        this.domain = stm.protocolDomain();
        if (expectedSize < 0) {
            throw new IllegalArgumentException("expectedSize must be >= 0, got " + expectedSize);
        }
        int n = Integer.highestOneBit(Math.max(64, Math.min(1 << 16, expectedSize / 4)) - 1) << 1;
        this.stripes = new TxItem[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new TxItem(domain);
        }
    }

    // ------------------------------------------------------------------ hooks (cold paths only)

    /**
     * Links a committed insert into the index, under its stripe's lock.
     *
     * @return false if a node with its key is linked already (then {@code node} is not linked)
     */
    abstract boolean link(N node);

    /** Unlinks a node whose delete is being installed; a no-op if it is not linked. */
    abstract void unlink(N node);

    /**
     * Makes room in the index for one more node, before any commit links it (see
     * {@link io.jato.collections.internal.hash.LongNodeIndex#reserve}): growth allocates, which a
     * commit's install must not. Default: nothing to reserve.
     */
    void reserveInsert() {
    }

    /** @return whether a node with {@code node}'s key is linked (called with the key's stripe locked) */
    abstract boolean keyLinked(N node);

    /** Drops the node's link to the next buffered insert of its transaction, once it commits or ends. */
    abstract void clearPendingNext(N node);

    /** @return the node's key, for error messages (may box) */
    abstract Object keyOf(N node);

    /** @return the index the map's committed nodes are linked in */
    abstract ChainedIndex index();

    /** @return the buffered insert after {@code node} in its transaction's chain for one stripe */
    abstract N pendingNextOf(N node);

    /**
     * Passes one present key of a transactional iteration to the caller's {@code action} (the
     * map's entry consumer, or with {@code keysOnly} a set's key consumer), casting it.
     */
    abstract void deliver(N node, Object value, Object action, boolean keysOnly);

    // ------------------------------------------------------------------ transactional helpers

    /**
     * For an insert-only map, a lookup of a key this transaction has not inserted itself: the
     * committed value of its linked node {@code n}, read with no entry if the protocol allows it
     * ({@link TxnContext#readUnchangingRef}). Nobody can replace or delete that value, so a
     * protocol that allows it (see {@link ConcurrencyControl#readUnchangingRef}) has nothing to
     * validate, and the lookup costs no access-set entry and no validation at commit.
     *
     * @return the value, or null if {@code n} is null or the caller must locate the key as usual
     */
    static Object unchangingValue(TxnContext ctx, RefItem n) {
        if (n == null) {
            return null;
        }
        Object v = ctx.readUnchangingRef(n);
        return v == REMOVED || v == ConcurrencyControl.NO_VERSION ? null : v;
    }

    /**
     * For an insert-only map's non-transactional {@code put}: whether linked node {@code n} holds
     * a value (a kept delete or a multi-version placeholder does not, and may take one; a retired
     * node is being unlinked and is looked up again).
     */
    static boolean presentNonTx(ConcurrencyControl cc, RefItem n) {
        Object current = cc.loadRef(n);
        return current != REMOVED && presentOrNull(current) != null;
    }

    /** @return the value an entry of a node decides in this transaction: null if deleted */
    static Object valueOf(Entry e) {
        Object v = e.has(Entry.WRITE) ? e.pendingRef() : e.readRef();
        // NO_VERSION: a multi-version protocol found no version of the node visible to us.
        return v == ABSENT || v == ConcurrencyControl.NO_VERSION ? null : v;
    }

    /** @return the value, in this transaction, of a key located at {@code e}: null if absent (e null) or deleted */
    static Object valueAt(Entry e) {
        return e == null ? null : valueOf(e);
    }

    /**
     * @return true if {@code e} (from a map's locate) says the key is absent in this transaction
     *         although its node is linked: deleted here, a delete the protocol kept linked, or no
     *         version visible ({@link ConcurrencyControl#NO_VERSION}). An entry neither read nor
     *         written (locateForUpdate's blind update) decides nothing yet.
     */
    static boolean absentHere(Entry e) {
        return (e.flags() & (Entry.READ | Entry.WRITE)) != 0 && valueOf(e) == null;
    }

    /**
     * For locateForUpdate: the entry of a node found in the index, if this transaction has not
     * read or written it yet (a commit-time update then takes no read dependency); else null, and
     * the caller locates the key as a read does. A stale (retired) node fails to lock at commit,
     * and the attempt retries; so does one whose delete committed after the lookup and was kept
     * linked (its check fails).
     */
    static Entry untouchedEntry(TxnContext ctx, RefItem n) {
        // A delete the protocol kept linked (NO_VERSION in place) is no key to update blindly:
        // the check at commit would refuse it on every retry. The caller reads it instead, and
        // finds the key absent with a read dependency.
        if (n != null && n.valueAcquire() != ConcurrencyControl.NO_VERSION) {
            Entry e = ctx.entry(n);
            if ((e.flags() & (Entry.READ | Entry.WRITE)) == 0) {
                return e;
            }
        }
        return null;
    }

    /**
     * The second half of a map's locate: reads node {@code n} found in the index (or applies the
     * updaters this transaction scheduled on it, taking the dependency then).
     *
     * @return the node's entry, or null if a delete that committed after the index lookup unlinked
     *         it: the caller looks the key up again
     */
    final Entry readNode(TxnContext ctx, N n) {
        Entry e = ctx.entry(n);
        int f = e.flags();
        if ((f & (Entry.READ | Entry.WRITE)) == 0) {
            ctx.readRef(n, e);
        } else if ((f & Entry.WRITE) != 0 && e.pendingRef() instanceof UpdateList) {
            materialize(ctx, n, e);
        }
        if (!e.has(Entry.WRITE) && e.readRef() == REMOVED) {
            return null;
        }
        return e;
    }

    /** Reads a node with pending updaters (taking the dependency) and applies them now. */
    private void materialize(TxnContext ctx, N n, Entry e) {
        UpdateList ops = (UpdateList) e.pendingRef();
        Object committed = (e.flags() & Entry.READ) != 0 ? e.readRef() : ctx.readRef(n, e);
        if (committed == REMOVED || committed == ConcurrencyControl.NO_VERSION) {
            // Deleted since we found the node (or not visible to us): this attempt cannot commit.
            throw ctx.rollback(AbortCause.DELETED);
        }
        ctx.keepPending(e);
        e.setPendingRef(ops.applyTo(committed, this, n));
        ctx.clearUpdate(e);
    }

    /**
     * Before a write ({@code put}, {@code remove}) to a key found present at {@code e}, in an
     * attempt that found some key of this map absent ({@link #absenceMark} set; the caller tests
     * it). If this transaction looked a key of {@code stripe} up absent and the stripe has changed
     * since, the key may have been inserted after that lookup: the write would overwrite a value
     * this transaction never saw, decided by the absence it did see — a lost update (the insert's),
     * which isolation levels that do not validate absence (TicToc's repeatable read) would commit.
     * The attempt aborts instead. Stripe granularity, like every absence check of this map: an
     * insert of another key of the stripe aborts it too (a serializable commit would fail on the
     * stripe anyway). Commit-time updates ({@code update}, {@code merge}) are not checked: they
     * apply to the latest committed value, so nothing is lost.
     */
    final void checkObservedAbsence(TxnContext ctx, Entry e, TxItem stripe) {
        if (e.has(Entry.INSERT)) {
            return;
        }
        Entry se = ctx.find(stripe);
        if (se != null && (se.flags() & (Entry.READ | Entry.WRITE)) == Entry.READ && !ctx.cc().isCurrent(ctx, se)) {
            throw ctx.rollback(AbortCause.READ_VALIDATION);
        }
    }

    /**
     * The put/putIfAbsent of a key present as of this transaction's view ({@code e} from locate;
     * it may be this transaction's delete).
     *
     * @return the value before, or null if deleted here
     */
    final Object storeAt(TxnContext ctx, Entry e, Object entryKey, Object value, boolean onlyIfAbsent) {
        Object current = valueOf(e);
        if (current == null || !onlyIfAbsent) {
            write(ctx, e, entryKey, value);
        }
        return current;
    }

    /** The remove of a key located at {@code e} (null if absent); returns the removed value or null. */
    final Object removeAt(TxnContext ctx, Entry e, Object entryKey) {
        if (e == null) {
            return null;
        }
        Object old = valueOf(e);
        if (old != null) {
            write(ctx, e, entryKey, ABSENT);
        }
        return old;
    }

    /**
     * The update of a key located at {@code e} by locateForUpdate (null if absent).
     *
     * @return false if the key is absent as of this transaction (nothing is scheduled)
     */
    final boolean updateAt(TxnContext ctx, Entry e, Object entryKey, ValueUpdater<?> updater) {
        if (e == null || absentHere(e)) {
            return false;
        }
        schedule(ctx, e, entryKey, updater);
        return true;
    }

    /**
     * The merge of a key located at {@code e} by locateForUpdate.
     *
     * @return false if the key is absent (e is null): the caller inserts {@code value}
     */
    final boolean mergeAt(TxnContext ctx, Entry e, Object entryKey, Object value, ValueUpdater<?> updater) {
        if (e == null) {
            return false;
        }
        if (absentHere(e)) {
            // Deleted earlier in this transaction, or a delete kept linked (or no version visible):
            // the key is absent but its node is found, so write the value into the node's entry.
            // An insert would need the stripe's absence, which this transaction never observed.
            write(ctx, e, entryKey, value);
        } else {
            schedule(ctx, e, entryKey, updater);
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private void schedule(TxnContext ctx, Entry e, Object entryKey, ValueUpdater<?> updater) {
        if ((e.flags() & (Entry.READ | Entry.WRITE)) != 0) {
            // The value is known (read, written or inserted by this transaction): apply now.
            Object v = ((ValueUpdater<Object>) updater).apply(valueOf(e));
            if (v == null) {
                throw UpdateList.returnedNull(updater, keyOf((N) e.item()));
            }
            write(ctx, e, entryKey, v);
            return;
        }
        UpdateList ops = ctx.borrow(UpdateList.KIND);
        ops.add(updater);
        ctx.writeCustom(e, participant, entryKey, ops);
        ctx.markUpdate(e, updater instanceof CommutativeUpdater);
        ctx.requestCheck(e, participant);
    }

    private void write(TxnContext ctx, Entry e, Object entryKey, Object value) {
        if (e.has(Entry.WRITE)) {
            ctx.keepPending(e);
            e.setPendingRef(value);
            ctx.clearUpdate(e);
        } else {
            ctx.writeCustom(e, participant, entryKey, value);
        }
    }

    /**
     * Buffers the insert of {@code fresh}, an unpublished node the caller has already pushed onto
     * the buffered inserts of its stripe ({@code fresh}'s pending link is the stripe entry's
     * current head); {@code stripeEntry} exists because locate observed the stripe.
     */
    final void bufferInsert(TxnContext ctx, Entry stripeEntry, N fresh, Object entryKey, Object value) {
        reserveInsert();
        Entry ne = ctx.appendInsert(fresh);
        ctx.markInserts(insertMark);
        ctx.writeCustom(ne, participant, entryKey, value);
        ctx.keepPending(stripeEntry);
        stripeEntry.setPendingRef(fresh);
        if (!stripeEntry.has(Entry.WRITE)) {
            ctx.writeVersion(stripeEntry);
        }
    }

    // ------------------------------------------------------------------ size and iteration

    /**
     * Visits every key present as of this transaction and returns how many there are; with a null
     * {@code action} only counts. Phantom-safe at no cost to writers: it first observes every
     * absence stripe, so any insert that commits afterwards (each bumps its stripe) fails this
     * transaction's validation; it then collects every linked node by a walk no resize overlapped
     * (a node linked before the stripes were observed is never missed) and reads each one, so a
     * delete that commits afterwards fails validation too. The transaction's own inserts, writes
     * and deletes are included. Costs a read of every stripe and every node: O(map size).
     */
    @SuppressWarnings("unchecked")
    final int iterate(TxnContext ctx, Object action, boolean keysOnly) {
        TxItem[] stripes = this.stripes;
        for (TxItem stripe : stripes) {
            ctx.observe(stripe);
        }
        NodeBuffer nodes = ctx.borrow(NodeBuffer.KIND);
        index().collect(nodes);
        int count = 0;
        for (int i = 0, n = nodes.size(); i < n; i++) {
            N node = (N) nodes.get(i);
            // Null: unlinked by a delete that committed before this read; the read is recorded.
            Entry e = readNode(ctx, node);
            Object v = e == null ? null : valueOf(e);
            if (v != null) {
                count++;
                if (action != null) {
                    deliver(node, v, action, keysOnly);
                }
            }
        }
        if (ctx.hasInserts(insertMark)) {
            for (TxItem stripe : stripes) {
                Entry se = ctx.find(stripe);
                for (N p = se == null ? null : (N) se.pendingRef(); p != null; p = pendingNextOf(p)) {
                    Object v = valueOf(ctx.find(p));
                    if (v != null) {
                        count++;
                        if (action != null) {
                            deliver(p, v, action, keysOnly);
                        }
                    }
                }
            }
        }
        return count;
    }

    // ------------------------------------------------------------------ diagnostics

    /** @return the first non-quiescent stripe's problem, or null */
    final String checkStripes(ConcurrencyControl cc) {
        for (int i = 0; i < stripes.length; i++) {
            String p = cc.checkQuiescent(stripes[i]);
            if (p != null) {
                return "stripe " + i + ": " + p;
            }
        }
        return null;
    }

    /** @return what is wrong with a node linked in the index (locked, retired, no value), or null */
    static String checkLinked(ConcurrencyControl cc, RefItem n) {
        String p = cc.checkQuiescent(n);
        if (p == null && cc.isRetired(n)) {
            p = "retired node still linked";
        }
        if (p == null && (n.valueAcquire() == REMOVED || n.valueAcquire() == null)) {
            p = "linked node without a value";
        }
        return p;
    }

    // ------------------------------------------------------------------ non-transactional view

    /**
     * Overwrites a linked node's value; returns the value before (null if the node is a delete the
     * protocol kept linked, which this write revives), or {@link #RETRY} if it was retired.
     */
    static Object replaceNonTx(ConcurrencyControl cc, RefItem n, Object value) {
        long w = cc.lockNonTx(n);
        if (w == ConcurrencyControl.RETIRED_ITEM) {
            return RETRY;
        }
        Object old;
        try {
            old = presentOrNull(cc.lockedRef(n));
            cc.installRef(n, value);
        } finally {
            // Always a new version: if the store failed half-way the value may have changed.
            cc.unlockNonTx(n, w, true, false);
        }
        return old;
    }

    /**
     * Deletes a linked node (unlinked at once: this view keeps no versions); returns its value
     * before (null for a delete the protocol kept linked), or {@link #RETRY} if it was retired already.
     */
    final Object removeNonTx(ConcurrencyControl cc, N n) {
        return removeLinked(cc, n, false);
    }

    /** @return {@code v}, or null if it is the value of a delete the protocol keeps linked */
    static Object presentOrNull(Object v) {
        return v == ConcurrencyControl.NO_VERSION ? null : v;
    }

    /**
     * {@link TxParticipant#unlinkDeleted}: unlinks a node the protocol kept linked after its delete
     * committed, unless a later write revived it (its value is then no longer NO_VERSION).
     */
    final boolean unlinkKept(ConcurrencyControl cc, N n) {
        // Null: the node held NO_VERSION and is unlinked now; a value: revived; RETRY: unlinked already.
        return removeLinked(cc, n, true) == null;
    }

    /**
     * Outside transactions: unlinks and retires linked node {@code n} — always, or with
     * {@code onlyIfKept} only if it is a delete the protocol kept linked. All or nothing: a throw
     * half-way puts the old value back (a linked node must never hold REMOVED, or every lookup of
     * its key would loop on it). The node gets a new version whenever it was changed: a reader
     * that found the key absent through a kept node must fail validation if the key returns, in
     * another node, after this unlink.
     *
     * @return the value before (null if the key was absent: a kept delete), or {@link #RETRY} if
     *         the node was retired already
     */
    private Object removeLinked(ConcurrencyControl cc, N n, boolean onlyIfKept) {
        long w = cc.lockNonTx(n);
        if (w == ConcurrencyControl.RETIRED_ITEM) {
            return RETRY;
        }
        Object old = null;
        boolean change = false;
        boolean removed = false;
        try {
            old = cc.lockedRef(n);
            change = !onlyIfKept || old == ConcurrencyControl.NO_VERSION;
            if (change) {
                cc.installRef(n, REMOVED);
                unlink(n);
                removed = true;
            }
        } finally {
            try {
                if (change && !removed) {
                    cc.installRef(n, old);
                }
            } finally {
                cc.unlockNonTx(n, w, change, removed);
            }
        }
        return presentOrNull(old);
    }

    /**
     * Links {@code fresh} with {@code value} under {@code stripe}'s lock unless its key was linked
     * meanwhile; the stripe bump tells transactions that observed the key absent.
     *
     * @return whether {@code fresh} was linked (if not, the caller looks the key up again)
     */
    final boolean insertNonTx(ConcurrencyControl cc, TxItem stripe, N fresh, Object value) {
        reserveInsert();
        long sw = cc.lockNonTx(stripe);
        boolean inserted = false;
        try {
            if (!keyLinked(fresh)) {
                cc.installRef(fresh, value);
                link(fresh);
                inserted = true;
            }
        } finally {
            cc.unlockNonTx(stripe, sw, inserted, false);
        }
        return inserted;
    }

    /**
     * Installs a delete: the node gets the deleted marker, is retired and unlinked - all or nothing.
     * A throw half-way (an error of the VM or the protocol) puts the old value back and clears the
     * retire flag: a node still linked must never hold the marker, or every lookup of its key would
     * find it, see it deleted and look again, forever.
     */
    private void deleteInstall(TxnContext txn, ConcurrencyControl cc, Entry e, N n, long commitTimestamp) {
        if (cc.keepsDeleted(txn, e)) {
            // The protocol unlinks it later (TxParticipant.unlinkDeleted); until then the linked
            // node says "absent" to every lookup, and a later insert of the key revives it.
            cc.installRef(n, ConcurrencyControl.NO_VERSION);
            return;
        }
        Object old = cc.lockedRef(n);
        boolean done = false;
        try {
            cc.installRef(n, REMOVED);
            cc.retire(txn, e, commitTimestamp);
            unlink(n);
            done = true;
        } finally {
            if (!done) {
                e.clearFlags(Entry.RETIRE);
                cc.installRef(n, old);
            }
        }
    }

    /** Installs node writes at commit, with every write item of the transaction locked. */
    private final class Participant implements TxParticipant {
        @Override
        public int operationCount(TxnContext txn, Entry e) {
            return e.pendingRef() instanceof UpdateList ? ((UpdateList) e.pendingRef()).size() : 0;
        }

        @Override
        public Object operation(TxnContext txn, Entry e, int index) {
            if (!(e.pendingRef() instanceof UpdateList)) {
                throw new IndexOutOfBoundsException("operation " + index + " of 0");
            }
            return ((UpdateList) e.pendingRef()).operation(index);
        }

        /** Commutative value updaters may become delta versions (docs/mvcc.md, "Delta versions"). */
        @Override
        public boolean supportsDeltaVersions() {
            return true;
        }

        /** The value {@code version} with the value updaters applied, in order. */
        @Override
        @SuppressWarnings("unchecked")
        public Object applyOperations(Object key, Object version, Object[] operations) {
            Object v = version;
            for (Object op : operations) {
                v = ((ValueUpdater<Object>) op).apply(v);
                if (v == null) {
                    throw UpdateList.returnedNull(op, key);
                }
            }
            return v;
        }

        @Override
        @SuppressWarnings("unchecked")
        public boolean check(TxnContext txn, Entry e) {
            // Pending updaters run here, before any install, under the node's lock, unless the
            // protocol keeps them as a delta version and applies them itself.
            Object v = e.pendingRef();
            if (v instanceof UpdateList && !e.has(Entry.DELTA)) {
                N n = (N) e.item();
                Object committed = txn.cc().lockedRef(n);
                if (committed == ConcurrencyControl.NO_VERSION) {
                    // Scheduled without a read on a node whose delete committed since and is kept
                    // linked: the key is absent now, so the update cannot apply; the retry sees it.
                    return false;
                }
                e.setPendingRef(((UpdateList) v).applyTo(committed, HashMapCore.this, n));
            }
            return true;
        }

        @Override
        @SuppressWarnings("unchecked")
        public boolean unlinkDeleted(TxItem item) {
            return unlinkKept(stm.concurrencyControl(), (N) item);
        }

        @Override
        @SuppressWarnings("unchecked")
        public void install(TxnContext txn, Entry e, long commitTimestamp) {
            N n = (N) e.item();
            Object v = e.pendingRef();
            ConcurrencyControl cc = txn.cc();
            if (e.has(Entry.INSERT)) {
                clearPendingNext(n);
                if (v == ABSENT) {
                    // Inserted and deleted by the same transaction: never published.
                    cc.installRef(n, REMOVED);
                    return;
                }
                cc.installRef(n, v);
                // The stripe is locked and its absence validated, so the key cannot be present.
                if (!link(n)) {
                    throw new IllegalStateException("hash map invariant broken: key " + keyOf(n)
                            + " present at insert although its absence stripe validated");
                }
            } else if (v == ABSENT) {
                deleteInstall(txn, cc, e, n, commitTimestamp);
            } else {
                cc.installRef(n, v);
            }
        }
    }
}
