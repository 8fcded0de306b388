package io.jato.collections.internal.sorted;

import io.jato.collections.internal.InsertOnlyRefusals;
import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;

/**
 * How the committed state of a {@link SortedIndex} changes, the layer of its class chain above
 * {@link TreeStructure}: the index's half of the commit protocol ({@link Participant}: a pending
 * insert's check, the install of a commit's values with the link or unlink of their slots, then
 * the structure operations the installs asked for) and the operations outside transactions
 * ({@code single()}: each under the protocol's non-transactional lock of the slot or leaf it
 * changes).
 *
 * <p>What the layer above relies on. A transaction buffers its writes with {@link #participant}
 * as their participant, a delete as {@link #ABSENT}, and an insert as a new slot whose commit
 * {@link Participant#check} verifies (under the locks of the commit) and links. A linked slot
 * never holds {@link #REMOVED}: a throw half-way through a delete puts the old value back. A slot
 * whose value is {@link #REMOVED} is unlinked and retired: a reader that meets it looks again.
 */
abstract class CommittedIndex extends TreeStructure {
    /** Pending value of a buffered delete. */
    static final Object ABSENT = new Object();
    /** Committed value of a deleted slot: it is unlinked and retired. */
    static final Object REMOVED = new Object();

    /** The participant of every write a transaction buffers in this index; one per index, final. */
    final Participant participant;

    /**
     * Whether a key, once inserted, keeps its value for ever: writes of present keys and removes
     * are refused, and a present key is read without an access-set entry where the protocol allows
     * it ({@link io.jato.stm.spi.TxnContext#readUnchangingRef}). Set at construction.
     */
    final boolean insertOnly;

    CommittedIndex(Stm stm, boolean longKeys, int capacity, boolean layout, boolean insertOnly) {
        super(stm, longKeys, capacity, layout);
        this.insertOnly = insertOnly;
        this.participant = new Participant(this);
    }

    // ------------------------------------------------------------------ commit: check, install, cleanup

    /** The index's half of the commit protocol. */
    static final class Participant implements TxParticipant {
        private final CommittedIndex index;

        Participant(CommittedIndex index) {
            this.index = index;
        }

        /**
         * A pending insert may commit only if, with every write item of the transaction locked, the
         * leaf that covers its key is one this transaction locked (so no other commit can change
         * that leaf until this one publishes) and the key is absent from it.
         */
        @Override
        public boolean check(TxnContext txn, Entry e) {
            Slot s = (Slot) e.item();
            if (e.pendingRef() == ABSENT) {
                return true;
            }
            for (;;) {
                Leaf l = s.hint;
                Slot found = l == null ? RETRY : index.probe(l, s.lkey, s.okey);
                if (found == RETRY) {
                    l = index.descend(CONTAINS, s.lkey, s.okey);
                    found = index.probe(l, s.lkey, s.okey);
                    if (found == RETRY) {
                        continue;
                    }
                }
                Entry le = txn.find(l);
                if (le == null || !le.has(Entry.WRITE) || found != null) {
                    return false;
                }
                s.hint = l;
                // Make room for this insert now, while the commit can still abort: the install
                // then links without allocating. The leaf cannot change until this commit
                // publishes (its item is locked by us; structure changes lock it too).
                long reserved = le.pendingLong() + 1;
                le.setPendingLong(reserved);
                index.reserveRoom(l, l.count + (int) reserved);
                return true;
            }
        }

        @Override
        public void install(TxnContext txn, Entry e, long commitTimestamp) {
            Slot s = (Slot) e.item();
            Object v = e.pendingRef();
            ConcurrencyControl cc = txn.cc();
            if (e.has(Entry.INSERT)) {
                if (v == ABSENT) {
                    // Inserted and removed again by this transaction: never linked.
                    cc.installRef(s, REMOVED);
                } else {
                    // The slot is locked: a reader that finds it waits for the publish.
                    cc.installRef(s, v);
                    if (index.link(s)) {
                        txn.requestCleanup(e, this);
                    }
                }
                s.hint = null;
            } else if (v == ABSENT && cc.keepsDeleted(txn, e)) {
                // The protocol unlinks it later (unlinkDeleted); until then the linked slot says
                // "absent" to every lookup and scan, and a later put of the key revives it.
                cc.installRef(s, ConcurrencyControl.NO_VERSION);
            } else if (v == ABSENT) {
                // All or nothing (see HashMapCore's delete): a linked slot must never hold REMOVED.
                Object old = cc.lockedRef(s);
                boolean done = false;
                boolean empty;
                try {
                    cc.installRef(s, REMOVED);
                    cc.retire(txn, e, commitTimestamp);
                    empty = index.unlink(s);
                    done = true;
                } finally {
                    if (!done) {
                        e.clearFlags(Entry.RETIRE);
                        cc.installRef(s, old);
                    }
                }
                if (empty) {
                    txn.requestCleanup(e, this);
                }
            } else {
                cc.installRef(s, v);
            }
        }

        @Override
        public boolean unlinkDeleted(TxItem item) {
            return index.unlinkKept((Slot) item);
        }

        /** After the commit: the structure operations its installs asked for. */
        @Override
        public void cleanup(TxnContext txn, Entry e, boolean committed) {
            Slot s = (Slot) e.item();
            if (e.has(Entry.INSERT)) {
                index.fixLeaf(s);
            } else {
                index.removeEmptyLeaf(s.lkey, s.okey);
            }
        }
    }

    // ------------------------------------------------------------------ non-transactional operations

    /** @return the slot of {@code k} in the tree (committed or being committed), or null */
    private Slot findSlot(long k, Object ok) {
        for (;;) {
            Slot s = probe(descend(CONTAINS, k, ok), k, ok);
            if (s != RETRY) {
                return s;
            }
        }
    }

    /** @return the committed value of {@code k}, or null */
    public final Object singleGet(long k, Object ok) {
        for (;;) {
            Slot s = findSlot(k, ok);
            Object v = s == null ? null : cc.loadRef(s);
            if (v != REMOVED) {
                return v == ConcurrencyControl.NO_VERSION ? null : v;
            }
        }
    }

    /**
     * Outside transactions: replaces the committed value of slot {@code s} by {@code value} —
     * always, or with {@code onlyIfAbsent} only if the slot is a delete the protocol kept linked
     * ({@link ConcurrencyControl#NO_VERSION}); {@link #REMOVED} also unlinks and retires the slot.
     * All or nothing for a removal: a throw half-way puts the old value back, since a linked slot
     * must never hold REMOVED (lookups would loop on it); the slot gets a new version either way.
     *
     * @return the value replaced (null if the key was absent: a kept delete), or {@link #RETRY} if
     *         the slot was deleted meanwhile (look again)
     */
    private Object replaceCommitted(Slot s, Object value, boolean onlyIfAbsent) {
        long w = cc.lockNonTx(s);
        if (w == ConcurrencyControl.RETIRED_ITEM) {
            return RETRY;
        }
        Object old = null;
        boolean change = false;
        boolean done = false;
        boolean emptied = false;
        try {
            old = cc.lockedRef(s);
            change = !onlyIfAbsent || old == ConcurrencyControl.NO_VERSION;
            if (change) {
                cc.installRef(s, value);
                emptied = value == REMOVED && unlink(s);
            }
            done = true;
        } finally {
            try {
                if (change && !done && value == REMOVED) {
                    cc.installRef(s, old);
                }
            } finally {
                cc.unlockNonTx(s, w, change, change && done && value == REMOVED);
            }
        }
        if (emptied) {
            removeEmptyLeaf(s.lkey, s.okey);
        }
        return old == ConcurrencyControl.NO_VERSION ? null : old;
    }

    /**
     * {@link TxParticipant#unlinkDeleted}: unlinks slot {@code s}, which the protocol kept linked
     * after its delete committed, unless a later write revived it. The new retired version makes
     * a transaction that found the key absent through the slot fail validation, should the key be
     * inserted anew (in another slot) after this unlink.
     */
    final boolean unlinkKept(Slot s) {
        // Null: the slot held NO_VERSION and is unlinked now; a value: revived; RETRY: unlinked already.
        return replaceCommitted(s, REMOVED, true) == null;
    }

    /**
     * Maps {@code k} to {@code value} unless present and {@code onlyIfAbsent}; returns the previous
     * value. In an insert-only index, throws {@link UnsupportedOperationException} (changing
     * nothing) if the key is present and not {@code onlyIfAbsent}.
     */
    public final Object singlePut(long k, Object ok, Object value, boolean onlyIfAbsent) {
        Object prefix = admit(k, ok);
        for (;;) {
            Slot s = findSlot(k, ok);
            if (s != null) {
                // Insert-only: fill a slot without a value only, decided under the slot's lock.
                Object old = replaceCommitted(s, value, onlyIfAbsent || insertOnly);
                if (old == RETRY) {
                    continue;
                }
                if (insertOnly && old != null && !onlyIfAbsent) {
                    throw InsertOnlyRefusals.presentKey(describe(k, ok));
                }
                return old;
            }
            // Absent: insert under the transactional lock of the leaf that covers the key.
            Leaf l = descend(CONTAINS, k, ok);
            long w = cc.lockNonTx(l);
            if (w == ConcurrencyControl.RETIRED_ITEM) {
                continue;
            }
            Slot fresh = null;
            boolean fix = false;
            try {
                // Under the leaf's transactional lock no commit inserts into it or splits it.
                if (probe(l, k, ok) == null) {
                    fresh = new Slot(k, ok, prefix, domain);
                    fresh.hint = l;
                    cc.installRef(fresh, value);
                    fix = link(fresh);
                    fresh.hint = null;
                }
            } finally {
                cc.unlockNonTx(l, w, fresh != null, false);
            }
            if (fresh != null) {
                if (fix) {
                    fixLeaf(fresh);
                }
                return null;
            }
        }
    }

    /**
     * Removes {@code k}; returns the removed value or null. In an insert-only index, throws
     * {@link UnsupportedOperationException} and changes nothing.
     */
    public final Object singleRemove(long k, Object ok) {
        if (insertOnly) {
            throw InsertOnlyRefusals.refused("remove");
        }
        for (;;) {
            Slot s = findSlot(k, ok);
            Object old = s == null ? null : replaceCommitted(s, REMOVED, false);
            if (old != RETRY) {
                return old;
            }
        }
    }

    /** @return the number of leaves in the chain (diagnostics, for tests; weakly consistent) */
    public final int leafCount() {
        int leaves = 0;
        for (Leaf l = descend(FIRST, 0L, null); l != null; l = l.next) {
            leaves++;
        }
        return leaves;
    }

    /** @return the number of keys in the leaves (a moment's estimate while transactions run) */
    public final int singleSize() {
        int size = 0;
        for (Leaf l = descend(FIRST, 0L, null); l != null; ) {
            long v = l.seqAcquire();
            int n = l.count;
            Leaf next = l.next;
            if ((v & Node.LOCKED) == 0 && l.validate(v)) {
                size += n;
                l = next;
            } else {
                Thread.onSpinWait();
            }
        }
        return size;
    }
}
