package io.jato.protocols.tebaldi;

import io.jato.protocols.wait.Waits;
import io.jato.stm.AbortCause;
import io.jato.stm.TxnType;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LockBitWords;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

/*
 * Tebaldi's hierarchical concurrency control (seed 003 §3-§6) over Jato's one-protocol hooks.
 *
 * A transaction's type picks its group (a leaf of the CcTree); the nodes on the path from the
 * root to that leaf are the controls it runs under. Every item carries the metadata of every kind
 * of node, so one item serves each layer on any path:
 *
 *  - primary word (ItemWord): commit lock + version + the group of the last writer. The occ nodes
 *    validate reads against it at commit, Silo-style;
 *  - secondary word (NodeLockWord): the 2pl node's reader-writer lock, counted per child of that
 *    node, so it only ever conflicts between different children.
 *
 * Who resolves a conflict. A conflict between transactions of groups a and b is the business of
 * their lowest common ancestor N (a's leaf when a == b): only N's mechanism may order it, which is
 * the modularity of seed 003 §3.
 *  - N = 2pl: the lock excludes it while it happens. A transaction of a child of N takes the
 *    shared node lock before it reads an item and the exclusive one when it first writes it, and
 *    keeps them until the attempt ends. A writer of another child waits (boundedly: waitPolls) or
 *    aborts, so no transaction of another child of N changes an item between one's read and one's
 *    commit.
 *  - N = occ (inner or leaf): validation at commit. A read fails if the item's word changed since
 *    it was observed. The word names the writer's group; a change by a group whose common node
 *    with the reader's is an occ node is exactly N's to catch.
 *  - N = none (inner; unsafe trees, tests only): nobody. A change by such a group is ignored at
 *    validation: that is what a tree without the cross-group layer would do, and the history
 *    checker must then find the anomaly (TebaldiLayersTest).
 * Validation only ignores the changes an inner none node is answerable for; every other change
 * aborts, which in a safe tree is every change (the 2pl node keeps other children's writers away,
 * so the only writers a reader under it can meet are of the same child, which the nodes below
 * order). A read-only group (leaf none) takes no lock and is validated by the nodes above it.
 *
 * Consistent ordering (seed 003 §4). Every node here orders transactions by the real time of one
 * serialization point per transaction: after its commit locks are taken and before its first read
 * is validated, with every node lock held (they are released by finish). An edge A -> B through an
 * occ node has sp(A) < sp(B) by Silo's argument; through the 2pl node B's conflicting lock was
 * granted after A released its own at finish, after sp(A), and before sp(B). So a parent can never
 * order two transactions against the order a child gave them ("adoption", §4), every path of the
 * combined graph increases sp, and the graph is acyclic: docs/tebaldi.md has the full argument.
 * The paper's 2pl also delays a commit until the transaction's in-group dependencies committed;
 * Jato needs no such wait because a transaction never sees another's uncommitted write.
 */

/** One store's Tebaldi tree. Thread-safe; one instance serves every thread of the store. */
final class TebaldiControl extends ConcurrencyControl {
    /** Commit-lock spins once this commit holds a lock (as OCC's jato.heldLockSpins default). */
    private static final int HELD_LOCK_SPINS = 128;

    private final String name;
    private final ProtocolContext context;
    private final TreeLayout layout;
    private final int lockSpins;
    private final int readSpins;
    private final int waitPolls;
    private final int stateSlot;
    /** Group of untyped transactions: a group id, 0 (refuse) or RANDOM. */
    private final int untypedGroup;
    static final int RANDOM = -1;

    TebaldiControl(String name, ProtocolContext context, TreeLayout layout, int untypedGroup, int waitPolls) {
        this.name = name;
        this.context = context;
        this.layout = layout;
        this.untypedGroup = untypedGroup;
        this.waitPolls = waitPolls;
        this.lockSpins = context.lockSpinLimit();
        this.readSpins = context.readSpinLimit();
        this.stateSlot = context.stateSlot();
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the compiled tree (tests) */
    TreeLayout layout() {
        return layout;
    }

    @Override
    public Object newTxnState(TxnContext txn) {
        TebaldiTxnState s = new TebaldiTxnState();
        s.random = System.identityHashCode(s) * 0x9E3779B97F4A7C15L | 1L;
        return s;
    }

    private TebaldiTxnState state(TxnContext txn) {
        return (TebaldiTxnState) txn.ccState(stateSlot);
    }

    @Override
    public void begin(TxnContext txn) {
        TebaldiTxnState s = state(txn);
        if (txn.attempt() == 0 || s.group == 0) {
            int g = groupFor(txn, s);
            s.group = g;
            s.lockChild = layout.lockChild[g];
            s.readOnly = layout.readOnly[g];
        }
        s.holdsLock = false;
        s.nodeLocks = 0;
    }

    /** The group of the starting transaction; throws (nothing acquired yet) if its type has none. */
    private int groupFor(TxnContext txn, TebaldiTxnState s) {
        TxnType type = txn.type();
        int g = layout.groupOf(type);
        if (g != 0) {
            return g;
        }
        if (type == TxnType.UNTYPED && untypedGroup != 0) {
            return untypedGroup == RANDOM ? randomGroup(txn, s) : untypedGroup;
        }
        throw new IllegalStateException("transaction type '" + type + "' is in no group of the tebaldi tree "
                + layout.text + (type == TxnType.UNTYPED ? "; give the transaction a type (stm.run(type, ...)) or set"
                + " the option untyped=random or untyped=TYPE" : "; add it to a group"));
    }

    /** A random group: any for a transaction declared read-only, else one whose transactions may write. */
    private int randomGroup(TxnContext txn, TebaldiTxnState s) {
        long x = s.random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        s.random = x;
        int pick = (int) ((x >>> 33) % Integer.MAX_VALUE);
        if (txn.isDeclaredReadOnly() || layout.writingGroups.length == 0) {
            return 1 + pick % layout.groups;
        }
        return layout.writingGroups[pick % layout.writingGroups.length];
    }

    // ------------------------------------------------------------------ execution-time reads

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        TebaldiTxnState s = state(txn);
        lockNode(txn, s, item, e, false);
        for (int spins = 0;; ) {
            long w = Items.wordAcquire(item);
            if ((w & ItemWord.LOCKED) == 0) {
                Object v = item.valueAcquire();
                if (Items.wordAcquire(item) == w) {
                    e.setObserved(w);
                    return v;
                }
            } else if (e.has(Entry.LOCKED)) {
                e.setObserved(e.lockedWord());
                return item.valueAcquire();
            }
            spins = readWait(txn, s, spins);
        }
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        TebaldiTxnState s = state(txn);
        lockNode(txn, s, item, e, false);
        for (int spins = 0;; ) {
            long w = Items.wordAcquire(item);
            if ((w & ItemWord.LOCKED) == 0) {
                long v = item.valueAcquire();
                if (Items.wordAcquire(item) == w) {
                    e.setObserved(w);
                    return v;
                }
            } else if (e.has(Entry.LOCKED)) {
                e.setObserved(e.lockedWord());
                return item.valueAcquire();
            }
            spins = readWait(txn, s, spins);
        }
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        TebaldiTxnState s = state(txn);
        lockNode(txn, s, item, e, false);
        for (int spins = 0;; ) {
            long w = Items.wordAcquire(item);
            if ((w & ItemWord.LOCKED) == 0) {
                e.setObserved(w);
                return;
            }
            if (e.has(Entry.LOCKED)) {
                e.setObserved(e.lockedWord());
                return;
            }
            spins = readWait(txn, s, spins);
        }
    }

    /** One poll of a read that found the item's commit lock held by another transaction. */
    private int readWait(TxnContext txn, TebaldiTxnState s, int spins) {
        if (++spins > readSpins && !txn.escalatedWaits(spins)) {
            throw txn.rollback(AbortCause.READ_BUSY);
        }
        LockBitWords.pause(spins);
        return spins;
    }

    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        if (e.has(Entry.LOCKED)) {
            return e.lockedWord() == e.observed();
        }
        return Items.wordAcquire(e.item()) == e.observed();
    }

    // ------------------------------------------------------------------ the 2pl node's locks

    /**
     * Takes the 2pl node's lock of {@code item} for {@code e} (shared, or exclusive for a write) if
     * the transaction's group is under the 2pl node; at read time a conflict unwinds the body.
     */
    private void lockNode(TxnContext txn, TebaldiTxnState s, TxItem item, Entry e, boolean exclusive) {
        AbortCause c = tryLockNode(txn, s, item, e, exclusive);
        if (c != null) {
            throw txn.rollback(c);
        }
    }

    private AbortCause tryLockNode(TxnContext txn, TebaldiTxnState s, TxItem item, Entry e, boolean exclusive) {
        int child = s.lockChild;
        if (child == 0) {
            return null;
        }
        boolean holding = e.has(Entry.PROTOCOL_FLAG_0);
        if (holding && (!exclusive || e.has(Entry.PROTOCOL_FLAG_1))) {
            return null;
        }
        for (int polls = 0;; polls++) {
            long w = Items.word2Volatile(item);
            long next = exclusive ? NodeLockWord.joinExclusive(w, child, holding) : NodeLockWord.joinShared(w, child);
            if (next >= 0) {
                if (Items.casWord2(item, w, next)) {
                    if (!holding) {
                        e.addFlags(Entry.PROTOCOL_FLAG_0);
                        s.nodeLocks++;
                    }
                    if (exclusive) {
                        e.addFlags(Entry.PROTOCOL_FLAG_1);
                    }
                    return null;
                }
                continue;
            }
            // Held by another child: wait boundedly (a cycle of waits between children is broken
            // by the bound); the escalated transaction waits much longer (TxnContext.escalatedWaits).
            if (polls >= waitPolls && !txn.escalatedWaits(polls)) {
                return exclusive ? AbortCause.LOCK_BUSY : AbortCause.READ_BUSY;
            }
            Waits.pause(polls);
        }
    }

    @Override
    public AbortCause onWrite(TxnContext txn, Entry e) {
        TebaldiTxnState s = state(txn);
        if (s.readOnly) {
            throw refuseWrite(txn);
        }
        return tryLockNode(txn, s, e.item(), e, true);
    }

    private IllegalStateException refuseWrite(TxnContext txn) {
        return new IllegalStateException("transaction type '" + txn.type() + "' is in a read-only group (none[...])"
                + " of the tebaldi tree " + layout.text + " and cannot write");
    }

    // ------------------------------------------------------------------ commit

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        TebaldiTxnState s = state(txn);
        if (s.readOnly) {
            // onWrite refused every write of a read-only group; an entry that became a write some
            // other way must not commit either (thrown before any install: the attempt rolls back).
            throw refuseWrite(txn);
        }
        AbortCause c = tryLockNode(txn, s, e.item(), e, true);
        if (c != null) {
            return c;
        }
        TxItem item = e.item();
        int limit = s.holdsLock ? HELD_LOCK_SPINS : lockSpins;
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            if ((w & ItemWord.RETIRED) != 0) {
                return AbortCause.DELETED;
            }
            if ((w & ItemWord.LOCKED) == 0) {
                if (Items.casWord(item, w, ItemWord.locked(w, s.group))) {
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
        // Every node orders by the real time of the serialization point; nothing reads a timestamp.
        return 0L;
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        int group = state(txn).group;
        if (e.has(Entry.LOCKED)) {
            long under = e.lockedWord();
            if (under == e.observed() || layout.unordered(group, ItemWord.group(under))) {
                return null;
            }
            return ItemWord.isRetired(under) ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
        }
        long w = Items.wordAcquire(e.item());
        if (w == e.observed() || layout.unordered(group, ItemWord.group(w))) {
            return null;
        }
        if ((w & ItemWord.LOCKED) != 0) {
            for (int spins = 0; ((w = Items.wordAcquire(e.item())) & ItemWord.LOCKED) != 0; spins++) {
                if (!txn.escalatedWaits(spins)) {
                    return AbortCause.READ_LOCKED;
                }
                LockBitWords.pause(spins);
            }
            if (w == e.observed()) {
                return null;
            }
        }
        return ItemWord.isRetired(w) ? AbortCause.DELETED : AbortCause.READ_VALIDATION;
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        Items.setWordRelease(e.item(), ItemWord.next(e.lockedWord(), state(txn).group, e.has(Entry.RETIRE)));
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        Items.setWordRelease(e.item(), e.lockedWord());
    }

    @Override
    public void unlockChanged(TxnContext txn, Entry e, long commitTimestamp) {
        if (e.has(Entry.LOCKED)) {
            publish(txn, e, commitTimestamp);
        }
    }

    @Override
    public void finish(TxnContext txn, boolean committed, AbortCause cause) {
        TebaldiTxnState s = state(txn);
        for (int i = 0, n = txn.size(); s.nodeLocks > 0 && i < n; i++) {
            Entry e = txn.entryAt(i);
            if (e.has(Entry.PROTOCOL_FLAG_0) && context.owns(e)) {
                leaveNode(e.item());
                e.clearFlags(Entry.PROTOCOL_FLAG_0 | Entry.PROTOCOL_FLAG_1);
                s.nodeLocks--;
            }
        }
        s.nodeLocks = 0;
    }

    private static void leaveNode(TxItem item) {
        for (;;) {
            long w = Items.word2Volatile(item);
            if (Items.casWord2(item, w, NodeLockWord.leave(w))) {
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
            if ((w & ItemWord.RETIRED) != 0) {
                return RETIRED_ITEM;
            }
            if ((w & ItemWord.LOCKED) == 0 && Items.casWord(item, w, ItemWord.locked(w, 0))) {
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
        long w = changed ? ItemWord.next(lockedWord, 0, false) : lockedWord;
        Items.setWordRelease(item, retire ? w | ItemWord.RETIRED : w);
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
        return ItemWord.isLocked(Items.wordAcquire(item)) || Items.word2Volatile(item) != 0;
    }

    @Override
    public boolean isRetired(TxItem item) {
        return ItemWord.isRetired(Items.wordAcquire(item));
    }

    @Override
    public String checkQuiescent(TxItem item) {
        long w = Items.wordAcquire(item);
        if (ItemWord.isLocked(w)) {
            return "item still locked: " + ItemWord.describe(w);
        }
        long n = Items.word2Volatile(item);
        if (n != 0) {
            return "2pl node lock still held: " + NodeLockWord.describe(n);
        }
        if (ItemWord.group(w) > layout.groups) {
            return "writer group out of range: " + ItemWord.describe(w);
        }
        return null;
    }
}
