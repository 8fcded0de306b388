package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
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
 *
 * A write to a key found present checks the absence this transaction saw: if a lookup of this
 * transaction found a key of the key's stripe absent and the stripe changed since, the key may
 * have been inserted after that lookup, and the write would silently overwrite the insert. The
 * attempt aborts (HashMapCore.checkObservedAbsence). Serializable protocols would fail it at commit
 * anyway; a level that validates no absence (TicToc's repeatable read) would otherwise lose the
 * insert. A bit in the transaction's insert marks (absenceMark) keeps the check off the path of
 * transactions that found no key of this map absent.
 *
 * TxLongHashMap runs the same protocol over primitive long keys. What does not depend on the key
 * lives in their common base, HashMapCore: the stripes, the sentinels, buffering writes, inserts
 * and commit-time updates, and the commit participant (which calls back here to publish a node
 * into the index and to unlink it). This class keeps what does depend on it: the index, the key's
 * stripe, and the lookup path (locate, ownInsert), so that path compares keys with no dispatch on
 * their representation.
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
public final class TxHashMap<K, V> extends HashMapCore<TxHashMap.Node<K>> {
    private final ConcurrentHashMap<K, Node<K>> nodes;
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
        super(stm, expectedSize);
        this.nodes = new ConcurrentHashMap<>(Math.max(16, expectedSize));
    }

    /** @return the value for {@code key} as of this transaction, or null if absent */
    @SuppressWarnings("unchecked")
    public V get(Txn txn, K key) {
        Objects.requireNonNull(key, "key");
        return (V) valueAt(locate(TxnContext.of(txn, stm), key));
    }

    /** @return whether {@code key} is present as of this transaction */
    public boolean containsKey(Txn txn, K key) {
        Objects.requireNonNull(key, "key");
        return valueAt(locate(TxnContext.of(txn, stm), key)) != null;
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
        if (e != null && ctx.hasInserts(absenceMark)) {
            checkObservedAbsence(ctx, e, stripeFor(key));
        }
        return (V) removeAt(ctx, e, key);
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
        return updateAt(ctx, locateForUpdate(ctx, key), key, updater);
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
        if (!mergeAt(ctx, locateForUpdate(ctx, key), key, value, updater)) {
            insert(ctx, key, value);
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
        String problem = checkStripes(cc);
        if (problem != null) {
            return problem;
        }
        for (Node<K> n : nodes.values()) {
            String p = checkLinked(cc, n);
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
        if (ctx.hasInserts(absenceMark) && (!onlyIfAbsent || valueOf(e) == null)) {
            checkObservedAbsence(ctx, e, stripeFor(key));
        }
        return (V) storeAt(ctx, e, key, value, onlyIfAbsent);
    }

    /**
     * Like {@link #locate} but does not read a node this transaction has not touched yet: returns
     * its fresh entry (neither READ nor WRITE). Returns null if the key is absent as of this
     * transaction (absence observed); the writing entry if this transaction deleted it (see
     * {@link HashMapCore#deletedHere}).
     */
    private Entry locateForUpdate(TxnContext ctx, K key) {
        Entry e = ctx.hasInserts(insertMark) ? ownInsert(ctx, key) : null;
        if (e == null) {
            e = untouchedEntry(ctx, nodes.get(key));
            if (e == null) {
                e = locate(ctx, key);
            }
        }
        return e;
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
                    ctx.markInserts(absenceMark);
                    return null;
                }
            }
            Entry e = readNode(ctx, n);
            if (e != null) {
                return e;
            }
            // Unlinked by a delete that committed after our index lookup: look again.
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

    @SuppressWarnings("unchecked")
    private Node<K> pendingInsert(Entry stripeEntry, Object key) {
        for (Node<K> p = (Node<K>) stripeEntry.pendingRef(); p != null; p = p.pendingNext) {
            if (p.key.equals(key)) {
                return p;
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private void insert(TxnContext ctx, K key, Object value) {
        Entry se = ctx.find(stripeFor(key));
        // locate() observed the stripe, so its entry exists.
        Node<K> fresh = new Node<>(key);
        fresh.pendingNext = (Node<K>) se.pendingRef();
        bufferInsert(ctx, se, fresh, key, value);
    }

    // ------------------------------------------------------------------ HashMapCore hooks

    @Override
    boolean link(Node<K> node) {
        return nodes.putIfAbsent(node.key, node) == null;
    }

    @Override
    void unlink(Node<K> node) {
        nodes.remove(node.key, node);
    }

    @Override
    boolean keyLinked(Node<K> node) {
        return nodes.get(node.key) != null;
    }

    @Override
    void clearPendingNext(Node<K> node) {
        node.pendingNext = null;
    }

    @Override
    Object keyOf(Node<K> node) {
        return node.key;
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
                    Object old = replaceNonTx(cc, n, value);
                    if (old != RETRY) {
                        return (V) old;
                    }
                } else if (map.insertNonTx(cc, map.stripeFor(key), new Node<>(key), value)) {
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
                Object old = map.removeNonTx(cc, n);
                if (old != RETRY) {
                    return (V) old;
                }
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
