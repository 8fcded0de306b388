package io.jato.collections;

import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/*
 * Design. Keys map to nodes through a ConcurrentHashMap (lock-free gets, resizing handled for us);
 * each node is a RefItem, so its value is versioned by the store's protocol. A key that is present
 * is read, written and deleted through its node's version. A key that is absent has no node, so
 * absence is versioned separately by a fixed array of stripe items: a transaction that finds a key
 * absent records the version of the key's stripe, and every commit that inserts a key bumps its
 * stripe. Read protocol for absence: record the stripe version first, then look the key up again;
 * an insert publishes its node into the index before it bumps the stripe, so a reader either sees
 * the node or sees (and later fails on) the stripe change.
 *
 * Inserts are buffered as fresh, unpublished nodes linked from the transaction's stripe entry; the
 * commit locks the stripe, validates the absence it observed, and the install puts the node into
 * the index while the stripe is still locked. Deletes write the node's value to REMOVED, unlink it
 * and retire its version word, so a transaction that saw the node alive fails validation and a
 * reader that reaches the unlinked node retries its lookup.
 *
 * Removing a key does not bump its stripe: nobody who observed the stripe saw that key present.
 */

/**
 * A transactional hash map. Inside a transaction, {@link #get}, {@link #containsKey} and the value
 * returned by the writing operations are validated at commit; that includes the fact that a key was
 * absent, so inserts and deletes are serializable with lookups (no phantoms on point keys). Keys
 * must have stable {@code equals}/{@code hashCode}; keys and values must not be null. Values should
 * be immutable: the map versions the reference it holds.
 *
 * <p>Two transactions that insert different keys hashing to the same absence stripe conflict, as do
 * a lookup of an absent key and an insert into its stripe; size the stripes with the expected number
 * of keys to keep that rare.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class TxHashMap<K, V> {
    /** Pending value of a buffered delete. */
    private static final Object ABSENT = new Object();
    /** Committed value of a node whose delete committed; the node is unlinked and retired. */
    private static final Object REMOVED = new Object();

    private final Stm stm;
    private final ConcurrentHashMap<K, Node<K>> nodes;
    private final TxItem[] stripes;
    /** Spreads maps over the 64 insert-mark bits; a shared bit only costs an extra lookup. */
    private static final java.util.concurrent.atomic.AtomicInteger MAP_IDS = new java.util.concurrent.atomic.AtomicInteger();

    private final Participant participant = new Participant();
    /** This map's bit for {@link TxnContext#markInserts}: lookups skip own-insert checks when it is clear. */
    private final long insertMark = 1L << (MAP_IDS.getAndIncrement() & 63);
    private final Single<K, V> single = new Single<>(this);

    /** Creates a map in {@code stm} sized for about a thousand keys. */
    public TxHashMap(Stm stm) {
        this(stm, 1024);
    }

    /**
     * Creates a map in {@code stm}.
     *
     * @param expectedSize the number of keys expected; sizes the index and the absence stripes
     */
    public TxHashMap(Stm stm, int expectedSize) {
        this.stm = Objects.requireNonNull(stm, "stm");
        if (expectedSize < 0) {
            throw new IllegalArgumentException("expectedSize must be >= 0, got " + expectedSize);
        }
        this.nodes = new ConcurrentHashMap<>(Math.max(16, expectedSize));
        int n = Integer.highestOneBit(Math.max(64, Math.min(1 << 16, expectedSize / 4)) - 1) << 1;
        this.stripes = new TxItem[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new TxItem();
        }
    }

    /** @return the value for {@code key} as of this transaction, or null if absent */
    @SuppressWarnings("unchecked")
    public V get(Txn txn, K key) {
        Objects.requireNonNull(key, "key");
        Entry e = locate(TxnContext.of(txn, stm), key);
        return e == null ? null : (V) valueOf(e);
    }

    /** @return whether {@code key} is present as of this transaction */
    public boolean containsKey(Txn txn, K key) {
        Objects.requireNonNull(key, "key");
        Entry e = locate(TxnContext.of(txn, stm), key);
        return e != null && valueOf(e) != null;
    }

    /** Maps {@code key} to {@code value}; returns the previous value or null. */
    public V put(Txn txn, K key, V value) {
        return store(txn, key, value, false);
    }

    /** Maps {@code key} to {@code value} unless present; returns the present value or null. */
    public V putIfAbsent(Txn txn, K key, V value) {
        return store(txn, key, value, true);
    }

    /** Removes {@code key}; returns the removed value or null if it was absent. */
    @SuppressWarnings("unchecked")
    public V remove(Txn txn, K key) {
        Objects.requireNonNull(key, "key");
        TxnContext ctx = TxnContext.of(txn, stm);
        Entry e = locate(ctx, key);
        if (e == null) {
            return null;
        }
        Object old = valueOf(e);
        if (old != null) {
            write(ctx, e, key, ABSENT);
        }
        return (V) old;
    }

    /**
     * Replaces the value of {@code key}, if present, by {@code updater} applied at commit to the
     * latest committed value: a commit-time update, so a transaction that does not otherwise read
     * the key takes no dependency on its value (only on its presence: if the key is deleted before
     * this transaction commits, it retries). If the transaction already read or wrote the key, the
     * updater is applied at once.
     *
     * @return true if the key is present as of this transaction (then the update will apply),
     *         false if it is absent (nothing is scheduled; the absence is validated at commit)
     */
    public boolean update(Txn txn, K key, ValueUpdater<V> updater) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(updater, "updater");
        TxnContext ctx = TxnContext.of(txn, stm);
        Entry e = locateForUpdate(ctx, key);
        if (e == null || deletedHere(e)) {
            return false;
        }
        schedule(ctx, e, key, updater);
        return true;
    }

    /**
     * Inserts {@code value} if {@code key} is absent, otherwise schedules {@code updater} as in
     * {@link #update}. Only the absence check of a missing key is a read dependency.
     */
    public void merge(Txn txn, K key, V value, ValueUpdater<V> updater) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(updater, "updater");
        TxnContext ctx = TxnContext.of(txn, stm);
        Entry e = locateForUpdate(ctx, key);
        if (e == null) {
            insert(ctx, key, value);
        } else if (deletedHere(e)) {
            // Deleted earlier in this transaction: the node's entry already writes, so reuse it.
            // An insert would need the stripe's absence, which this transaction never observed.
            e.setPendingRef(value);
        } else {
            schedule(ctx, e, key, updater);
        }
    }

    /** @return the non-transactional view, for loading and inspection */
    public Single<K, V> single() {
        return single;
    }

    /** @return the store this map belongs to */
    public Stm stm() {
        return stm;
    }

    /**
     * Diagnostics for tests: reports the first absence stripe or node whose metadata the protocol
     * finds non-quiescent (e.g. still locked), or null. Call only while no transaction runs.
     */
    public String checkQuiescent() {
        ConcurrencyControl cc = stm.concurrencyControl();
        for (int i = 0; i < stripes.length; i++) {
            String p = cc.checkQuiescent(stripes[i]);
            if (p != null) {
                return "stripe " + i + ": " + p;
            }
        }
        for (Node<K> n : nodes.values()) {
            String p = cc.checkQuiescent(n);
            if (p == null && cc.isRetired(n)) {
                p = "retired node still linked";
            }
            if (p == null && (n.valueAcquire() == REMOVED || n.valueAcquire() == null)) {
                p = "linked node without a value";
            }
            if (p != null) {
                return "key " + n.key + ": " + p;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ internals

    @SuppressWarnings("unchecked")
    private V store(Txn txn, K key, V value, boolean onlyIfAbsent) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        TxnContext ctx = TxnContext.of(txn, stm);
        Entry e = locate(ctx, key);
        if (e == null) {
            insert(ctx, key, value);
            return null;
        }
        Object current = valueOf(e);
        if (current == null || !onlyIfAbsent) {
            write(ctx, e, key, value);
        }
        return (V) current;
    }

    /**
     * Like {@link #locate} but does not read a node this transaction has not touched yet: returns
     * its fresh entry (neither READ nor WRITE). Returns null if the key is absent as of this
     * transaction (absence observed); the writing entry if this transaction deleted it (see
     * {@link #deletedHere}).
     */
    private Entry locateForUpdate(TxnContext ctx, K key) {
        Entry e = ctx.hasInserts(insertMark) ? ownInsert(ctx, key) : null;
        if (e == null) {
            Node<K> n = nodes.get(key);
            if (n != null) {
                e = ctx.entry(n);
                if ((e.flags() & (Entry.READ | Entry.WRITE)) == 0) {
                    // A stale (retired) node fails to lock at commit, and the attempt retries.
                    return e;
                }
            }
            e = locate(ctx, key);
        }
        return e;
    }

    /** @return true if {@code e} (from {@link #locate}) is this transaction's delete of its key */
    private static boolean deletedHere(Entry e) {
        return e.has(Entry.WRITE) && e.pendingRef() == ABSENT;
    }

    @SuppressWarnings("unchecked")
    private void schedule(TxnContext ctx, Entry e, K key, ValueUpdater<V> updater) {
        if ((e.flags() & (Entry.READ | Entry.WRITE)) != 0) {
            // The value is known (read, written or inserted by this transaction): apply now.
            Object v = updater.apply((V) valueOf(e));
            if (v == null) {
                throw new NullPointerException("updater " + updater.getClass().getName() + " returned null for key " + key);
            }
            write(ctx, e, key, v);
            return;
        }
        UpdateList ops = ctx.borrow(UpdateList.KIND);
        ops.add(updater);
        ctx.writeCustom(e, participant, key, ops);
        ctx.requestCheck(e, participant);
    }

    private TxItem stripeFor(Object key) {
        int h = key.hashCode() * 0x9E3779B9;
        return stripes[(h ^ (h >>> 16)) & (stripes.length - 1)];
    }

    /**
     * Finds the entry that decides {@code key}'s value in this transaction: the entry of its node
     * (read if not yet read) or of this transaction's pending insert, or null if the key is absent
     * (the stripe version is then recorded).
     */
    private Entry locate(TxnContext ctx, K key) {
        for (;;) {
            if (ctx.hasInserts(insertMark)) {
                // Our own buffered insert wins over a node another transaction published since
                // (that commit bumped the stripe we observed, so this attempt will abort anyway).
                Entry own = ownInsert(ctx, key);
                if (own != null) {
                    return own;
                }
            }
            Node<K> n = nodes.get(key);
            if (n == null) {
                ctx.observe(stripeFor(key));
                n = nodes.get(key);
                if (n == null) {
                    return null;
                }
            }
            Entry e = ctx.entry(n);
            int f = e.flags();
            if ((f & (Entry.READ | Entry.WRITE)) == 0) {
                ctx.readRef(n, e);
            } else if ((f & Entry.WRITE) != 0 && e.pendingRef() instanceof UpdateList) {
                materialize(ctx, n, e);
            }
            if (!e.has(Entry.WRITE) && e.readRef() == REMOVED) {
                // Unlinked by a delete that committed after our index lookup: look again.
                continue;
            }
            return e;
        }
    }

    /** @return the entry of this transaction's buffered insert of {@code key}, or null */
    private Entry ownInsert(TxnContext ctx, K key) {
        Entry se = ctx.find(stripeFor(key));
        if (se != null && se.pendingRef() != null) {
            Node<K> p = pendingInsert(se, key);
            if (p != null) {
                return ctx.find(p);
            }
        }
        return null;
    }

    /** Reads a node with pending updaters (taking the dependency) and applies them now. */
    private void materialize(TxnContext ctx, Node<K> n, Entry e) {
        UpdateList ops = (UpdateList) e.pendingRef();
        Object committed = (e.flags() & Entry.READ) != 0 ? e.readRef() : ctx.readRef(n, e);
        if (committed == REMOVED) {
            // Deleted since we found the node: this attempt cannot commit.
            throw ctx.rollback(AbortCause.DELETED);
        }
        e.setPendingRef(ops.applyTo(committed, n.key));
    }

    @SuppressWarnings("unchecked")
    private Node<K> pendingInsert(Entry stripeEntry, Object key) {
        for (Node<K> p = (Node<K>) stripeEntry.pendingRef(); p != null; p = p.pendingNext) {
            if (p.key.equals(key)) {
                return p;
            }
        }
        return null;
    }

    private static Object valueOf(Entry e) {
        Object v = e.has(Entry.WRITE) ? e.pendingRef() : e.readRef();
        return v == ABSENT ? null : v;
    }

    private void write(TxnContext ctx, Entry e, K key, Object value) {
        if (e.has(Entry.WRITE)) {
            e.setPendingRef(value);
        } else {
            ctx.writeCustom(e, participant, key, value);
        }
    }

    private void insert(TxnContext ctx, K key, Object value) {
        Entry se = ctx.find(stripeFor(key));
        // locate() observed the stripe, so its entry exists.
        Node<K> fresh = new Node<>(key);
        Entry ne = ctx.appendInsert(fresh);
        ctx.markInserts(insertMark);
        ctx.writeCustom(ne, participant, key, value);
        @SuppressWarnings("unchecked")
        Node<K> head = (Node<K>) se.pendingRef();
        fresh.pendingNext = head;
        se.setPendingRef(fresh);
        if (!se.has(Entry.WRITE)) {
            ctx.writeVersion(se);
        }
    }

    /** A key's versioned slot; linked in the index while the key is present. */
    static final class Node<K> extends RefItem {
        final K key;
        /** Next fresh node of the same inserting transaction and stripe; only that thread touches it. */
        Node<K> pendingNext;

        Node(K key) {
            super(null);
            this.key = key;
        }
    }

    /** Installs node writes at commit, with every write item of the transaction locked. */
    private final class Participant implements TxParticipant {
        @Override
        public boolean check(TxnContext txn, Entry e) {
            // Pending updaters run here, before any install, under the node's lock.
            Object v = e.pendingRef();
            if (v instanceof UpdateList) {
                Node<?> n = (Node<?>) e.item();
                e.setPendingRef(((UpdateList) v).applyTo(txn.cc().lockedRef(n), n.key));
            }
            return true;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void install(TxnContext txn, Entry e, long commitTimestamp) {
            Node<K> n = (Node<K>) e.item();
            Object v = e.pendingRef();
            ConcurrencyControl cc = txn.cc();
            if (e.has(Entry.INSERT)) {
                n.pendingNext = null;
                if (v == ABSENT) {
                    // Inserted and deleted by the same transaction: never published.
                    cc.installRef(n, REMOVED);
                    return;
                }
                cc.installRef(n, v);
                // The stripe is locked and its absence validated, so the key cannot be present.
                Node<K> prior = nodes.putIfAbsent(n.key, n);
                if (prior != null) {
                    throw new IllegalStateException("hash map invariant broken: key " + n.key
                            + " present at insert although its absence stripe validated");
                }
            } else if (v == ABSENT) {
                cc.installRef(n, REMOVED);
                cc.retire(txn, e, commitTimestamp);
                nodes.remove(n.key, n);
            } else {
                cc.installRef(n, v);
            }
        }
    }

    /**
     * Non-transactional single operations for loading and inspection: each is atomic on its own and
     * linearizable with transactions. Calling them inside a transaction of the same store throws
     * {@link IllegalStateException}.
     *
     * @param <K> key type
     * @param <V> value type
     */
    public static final class Single<K, V> {
        private final TxHashMap<K, V> map;

        private Single(TxHashMap<K, V> map) {
            this.map = map;
        }

        /** @return the committed value for {@code key}, or null */
        @SuppressWarnings("unchecked")
        public V get(K key) {
            Objects.requireNonNull(key, "key");
            NonTx.checkOutside(map.stm);
            ConcurrencyControl cc = map.stm.concurrencyControl();
            for (;;) {
                Node<K> n = map.nodes.get(key);
                if (n == null) {
                    return null;
                }
                Object v = cc.loadRef(n);
                if (v != REMOVED) {
                    return (V) v;
                }
            }
        }

        /** @return whether {@code key} is present */
        public boolean containsKey(K key) {
            return get(key) != null;
        }

        /** Maps {@code key} to {@code value}; returns the previous value or null. */
        @SuppressWarnings("unchecked")
        public V put(K key, V value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            NonTx.checkOutside(map.stm);
            ConcurrencyControl cc = map.stm.concurrencyControl();
            for (;;) {
                Node<K> n = map.nodes.get(key);
                if (n != null) {
                    long w = cc.lockNonTx(n);
                    if (w == ConcurrencyControl.RETIRED_ITEM) {
                        continue;
                    }
                    Object old = cc.lockedRef(n);
                    cc.installRef(n, value);
                    cc.unlockNonTx(n, w, true, false);
                    return (V) old;
                }
                TxItem stripe = map.stripeFor(key);
                long sw = cc.lockNonTx(stripe);
                boolean inserted = false;
                try {
                    if (map.nodes.get(key) == null) {
                        Node<K> fresh = new Node<>(key);
                        cc.installRef(fresh, value);
                        map.nodes.put(key, fresh);
                        inserted = true;
                    }
                } finally {
                    cc.unlockNonTx(stripe, sw, inserted, false);
                }
                if (inserted) {
                    return null;
                }
            }
        }

        /** Removes {@code key}; returns the removed value or null. */
        @SuppressWarnings("unchecked")
        public V remove(K key) {
            Objects.requireNonNull(key, "key");
            NonTx.checkOutside(map.stm);
            ConcurrencyControl cc = map.stm.concurrencyControl();
            for (;;) {
                Node<K> n = map.nodes.get(key);
                if (n == null) {
                    return null;
                }
                long w = cc.lockNonTx(n);
                if (w == ConcurrencyControl.RETIRED_ITEM) {
                    continue;
                }
                Object old = cc.lockedRef(n);
                cc.installRef(n, REMOVED);
                map.nodes.remove(key, n);
                cc.unlockNonTx(n, w, true, true);
                return (V) old;
            }
        }

        /** @return the number of committed keys (a moment's estimate while transactions run) */
        public int size() {
            return map.nodes.size();
        }

        /** Visits every committed key and value (weakly consistent while transactions run). */
        @SuppressWarnings("unchecked")
        public void forEach(java.util.function.BiConsumer<? super K, ? super V> action) {
            Objects.requireNonNull(action, "action");
            NonTx.checkOutside(map.stm);
            ConcurrencyControl cc = map.stm.concurrencyControl();
            map.nodes.forEach((k, n) -> {
                Object v = cc.loadRef(n);
                if (v != REMOVED) {
                    action.accept(k, (V) v);
                }
            });
        }
    }
}
