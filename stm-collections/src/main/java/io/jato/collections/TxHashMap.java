package io.jato.collections;

import io.jato.collections.internal.hash.ChainedIndex;
import io.jato.collections.internal.hash.NodeBuffer;
import io.jato.collections.internal.hash.ObjectNodeIndex;
import io.jato.collections.internal.hash.ObjectNodeIndex.Node;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

import static io.jato.collections.internal.InsertOnlyRefusals.presentKey;
import static io.jato.collections.internal.InsertOnlyRefusals.refused;

/*
 * Design. Keys map to nodes through an ObjectNodeIndex (lock-free gets; chains through the nodes);
 * each node is a RefItem, so its value is versioned by the store's protocol. The index, not a
 * ConcurrentHashMap, because a commit links and unlinks nodes with its locks held: there nothing
 * may allocate (a ConcurrentHashMap allocates an entry per insert and resizes in put) nor run user
 * code (a key's hashCode/equals, which could throw half-way through the install). The node caches
 * its key's hash when it is made, in the transaction's body; linking and unlinking compare nodes
 * by identity, and the table grows when an insert is buffered (reserve), before the commit.
 * A key's hashCode runs once per operation; equals only in lookups, after the cached hashes matched. A key that is present
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
// "exports": the supertype names ObjectNodeIndex.Node, from a package the module does not export;
// HashMapCore is package-private, so no client sees that type through this class.
@SuppressWarnings("exports")
public final class TxHashMap<K, V> extends HashMapCore<Node<K>> {
    private final ObjectNodeIndex<K> index;
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
        this(stm, expectedSize, false);
    }

    private TxHashMap(Stm stm, int expectedSize, boolean insertOnly) {
        super(stm, expectedSize, insertOnly);
        this.index = new ObjectNodeIndex<>(expectedSize);
    }

    /**
     * Creates an insert-only map in {@code stm}: a key, once its insert has committed, is mapped to
     * that value for ever, as {@link TxLongHashMap#insertOnly}: {@code put} of a present key,
     * {@link #remove}, {@link #update} and {@link #merge} throw
     * {@link UnsupportedOperationException} and change nothing, and under {@code occ},
     * {@code global-lock}, {@code tictoc} and (outside snapshots, which take none anyway)
     * {@code mvcc} a lookup of a present key takes no access-set entry.
     *
     * @param expectedSize the number of keys expected; sizes the index and the absence stripes
     */
    public static <K, V> TxHashMap<K, V> insertOnly(Stm stm, int expectedSize) {
        return new TxHashMap<>(stm, expectedSize, true);
    }

    /** @return whether this map is {@linkplain #insertOnly insert-only} */
    public boolean isInsertOnly() {
        return insertOnly;
    }

    /** @return the value for {@code key} as of this transaction, or null if absent */
    @SuppressWarnings("unchecked")
    public V get(Txn txn, K key) {
        Objects.requireNonNull(key, "key");
        TxnContext ctx = TxnContext.of(txn, stm);
        long h = ObjectNodeIndex.hash(key);
        if (insertOnly && !ctx.hasInserts(insertMark)) {
            Node<K> n = index.get(key, h);
            Object v = unchangingValue(ctx, n);
            return (V) (v != null ? v : valueAt(locateFrom(ctx, key, h, n)));
        }
        return (V) valueAt(locate(ctx, key, h));
    }

    /**
     * Looks up {@code count} keys at once: {@code into[i]} becomes the value of {@code keys[i]} as of
     * this transaction, or null if it is absent, for each {@code i < count} — what {@code count}
     * calls of {@link #get} in that order return, with the same read dependencies. On a table larger
     * than the CPU's caches it is faster than those calls: it walks the index for every key before
     * it reads any of them, and since those walks do not depend on one another the CPU overlaps
     * their cache misses instead of taking them one after the other. The keys' {@code hashCode}
     * and {@code equals} are called as lookups call them, all before the first read ({@code
     * hashCode} once more for a key that is not found). Allocates nothing in steady state.
     *
     * @throws IndexOutOfBoundsException if {@code count} is negative or exceeds either array's
     *                                   length (nothing is read)
     * @throws NullPointerException      if one of the keys is null (nothing is read)
     */
    @SuppressWarnings("unchecked")
    public void getAll(Txn txn, K[] keys, int count, V[] into) {
        Objects.checkFromIndexSize(0, count, keys.length);
        Objects.checkFromIndexSize(0, count, into.length);
        for (int i = 0; i < count; i++) {
            if (keys[i] == null) {
                throw new NullPointerException("keys[" + i + "] is null");
            }
        }
        TxnContext ctx = TxnContext.of(txn, stm);
        NodeBuffer nodes = ctx.borrow(NodeBuffer.KIND); // empty: every borrow is a buffer of its own
        for (int i = 0; i < count; i++) {
            K key = keys[i];
            nodes.add(index.get(key, ObjectNodeIndex.hash(key)));
        }
        // As get, from the nodes found (a found node has the key's hash; a miss computes it
        // again): the insert-only fast path unless this attempt inserted.
        boolean unchanging = insertOnly && !ctx.hasInserts(insertMark);
        for (int i = 0; i < count; i++) {
            Node<K> n = (Node<K>) nodes.get(i);
            K key = keys[i];
            long h = n != null ? n.hash : ObjectNodeIndex.hash(key);
            Object v = unchanging ? unchangingValue(ctx, n) : null;
            into[i] = (V) (v != null ? v
                    : unchanging ? valueAt(locateFrom(ctx, key, h, n)) : valueAt(locate(ctx, key, h)));
        }
    }

    /** @return whether {@code key} is present as of this transaction */
    public boolean containsKey(Txn txn, K key) {
        return get(txn, key) != null;
    }

    /**
     * Maps {@code key} to {@code value}; returns the previous value or null. In an
     * {@linkplain #insertOnly insert-only} map, throws {@link UnsupportedOperationException} if the
     * key is present.
     */
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
        if (insertOnly) {
            throw refused("remove");
        }
        TxnContext ctx = TxnContext.of(txn, stm);
        long h = ObjectNodeIndex.hash(key);
        Entry e = locate(ctx, key, h);
        if (e != null && ctx.hasInserts(absenceMark)) {
            checkObservedAbsence(ctx, e, stripeFor(h));
        }
        return (V) removeAt(ctx, e, key);
    }

    /**
     * Replaces the value of {@code key}, if present, by {@code updater} applied at commit to the
     * latest committed value: a commit-time update, so a transaction that does not otherwise read
     * the key takes no dependency on its value (only on its presence: if the key is deleted before
     * this transaction commits, it retries). If the transaction already read or wrote the key, the
     * updater is applied at once. A {@link CommutativeUpdater} declares that concurrent updates of
     * the key may apply in any order (a multi-version protocol then lets them commit without
     * conflict).
     *
     * @return true if the key is present as of this transaction (then the update will apply),
     *         false if it is absent (nothing is scheduled; the absence is validated at commit)
     */
    public boolean update(Txn txn, K key, ValueUpdater<V> updater) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(updater, "updater");
        if (insertOnly) {
            throw refused("update");
        }
        TxnContext ctx = TxnContext.of(txn, stm);
        return updateAt(ctx, locateForUpdate(ctx, key, ObjectNodeIndex.hash(key)), key, updater);
    }

    /**
     * Inserts {@code value} if {@code key} is absent, otherwise schedules {@code updater} as in
     * {@link #update}. Only the absence check of a missing key is a read dependency.
     */
    public void merge(Txn txn, K key, V value, ValueUpdater<V> updater) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(updater, "updater");
        if (insertOnly) {
            throw refused("merge");
        }
        TxnContext ctx = TxnContext.of(txn, stm);
        long h = ObjectNodeIndex.hash(key);
        if (!mergeAt(ctx, locateForUpdate(ctx, key, h), key, value, updater)) {
            insert(ctx, key, h, value);
        }
    }

    /**
     * @return the number of keys present as of this transaction, its own inserts and deletes
     *         included. Phantom-safe: a key inserted or deleted by a transaction that commits
     *         before this one makes this one retry. Reads every key of the map (O(size)) and
     *         depends on all of them; for an estimate outside transactions use
     *         {@link Single#size()}.
     */
    public int size(Txn txn) {
        return iterate(TxnContext.of(txn, stm), null, false);
    }

    /** @return true if no key is present as of this transaction (as {@link #size(Txn)}: phantom-safe, O(size)) */
    public boolean isEmpty(Txn txn) {
        return size(txn) == 0;
    }

    /**
     * Passes every key present as of this transaction and its value to {@code action}, in no
     * particular order, the transaction's own inserts, updates and deletes included. Phantom-safe
     * like {@link #size(Txn)}: the transaction depends on every key being present or absent as
     * it saw them, and retries if a key is inserted or deleted before it commits. The action may
     * use the transaction, including writes to this map; keys it inserts may or may not be
     * visited.
     */
    public void forEach(Txn txn, java.util.function.BiConsumer<? super K, ? super V> action) {
        Objects.requireNonNull(action, "action");
        iterate(TxnContext.of(txn, stm), action, false);
    }

    /** {@link #forEach(Txn, java.util.function.BiConsumer)} over the keys only (for {@link TxHashSet}). */
    void forEachKey(Txn txn, java.util.function.Consumer<? super K> action) {
        Objects.requireNonNull(action, "action");
        iterate(TxnContext.of(txn, stm), action, true);
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
        String[] found = {null};
        int[] linked = {0};
        index.forEach(n -> {
            linked[0]++;
            String p = checkLinked(cc, n);
            if (p == null && index.get(n.key, n.hash) != n) {
                p = "linked node not found by its key (a duplicate, or a hash that changed)";
            }
            if (p != null && found[0] == null) {
                found[0] = "key " + n.key + ": " + p;
            }
        });
        if (found[0] == null && linked[0] != index.size()) {
            found[0] = "index counts " + index.size() + " keys but links " + linked[0];
        }
        return found[0];
    }

    // ------------------------------------------------------------------ internals

    @SuppressWarnings("unchecked")
    private V store(Txn txn, K key, V value, boolean onlyIfAbsent) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        TxnContext ctx = TxnContext.of(txn, stm);
        long h = ObjectNodeIndex.hash(key);
        Entry e;
        if (insertOnly && !ctx.hasInserts(insertMark)) {
            Node<K> n = index.get(key, h);
            Object v = unchangingValue(ctx, n);
            if (v != null) {
                if (onlyIfAbsent) {
                    return (V) v;
                }
                throw presentKey(key);
            }
            e = locateFrom(ctx, key, h, n);
        } else {
            e = locate(ctx, key, h);
        }
        if (e == null) {
            insert(ctx, key, h, value);
            return null;
        }
        if (insertOnly && !onlyIfAbsent && valueOf(e) != null) {
            throw presentKey(key);
        }
        if (ctx.hasInserts(absenceMark) && (!onlyIfAbsent || valueOf(e) == null)) {
            checkObservedAbsence(ctx, e, stripeFor(h));
        }
        return (V) storeAt(ctx, e, key, value, onlyIfAbsent);
    }

    /**
     * Like {@link #locate} but does not read a node this transaction has not touched yet: returns
     * its fresh entry (neither READ nor WRITE). Returns null if the key is absent as of this
     * transaction (absence observed); the writing entry if this transaction deleted it (see
     * {@link HashMapCore#absentHere}).
     */
    private Entry locateForUpdate(TxnContext ctx, K key, long h) {
        Entry e = ctx.hasInserts(insertMark) ? ownInsert(ctx, key, h) : null;
        if (e == null) {
            e = untouchedEntry(ctx, index.get(key, h));
            if (e == null) {
                e = locate(ctx, key, h);
            }
        }
        return e;
    }

    /** @return the absence stripe of a key whose {@link ObjectNodeIndex#hash} is {@code h} */
    private TxItem stripeFor(long h) {
        return stripes[ChainedIndex.indexFor(h, stripes.length)];
    }

    /**
     * Finds the entry that decides {@code key}'s value in this transaction: the entry of its node
     * (read if not yet read) or of this transaction's pending insert, or null if the key is absent
     * (the stripe version is then recorded).
     */
    private Entry locate(TxnContext ctx, K key, long h) {
        if (ctx.hasInserts(insertMark)) {
            // Our own buffered insert wins over a node another transaction published since
            // (that commit bumped the stripe we observed, so this attempt will abort anyway).
            Entry own = ownInsert(ctx, key, h);
            if (own != null) {
                return own;
            }
        }
        return locateFrom(ctx, key, h, index.get(key, h));
    }

    /**
     * {@link #locate} once this transaction's own inserts are ruled out, from {@code n}, what a
     * lookup of {@code key} just found (null: no node linked): the insert-only fast path hands
     * over its lookup, so a protocol that declines the entry-free read costs no second walk.
     */
    private Entry locateFrom(TxnContext ctx, K key, long h, Node<K> n) {
        for (;;) {
            if (n == null) {
                ctx.observe(stripeFor(h));
                n = index.get(key, h);
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
            n = index.get(key, h);
        }
    }

    /** @return the entry of this transaction's buffered insert of {@code key}, or null */
    private Entry ownInsert(TxnContext ctx, K key, long h) {
        Entry se = ctx.find(stripeFor(h));
        if (se != null && se.pendingRef() != null) {
            Node<K> p = pendingInsert(se, key, h);
            if (p != null) {
                return ctx.find(p);
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private Node<K> pendingInsert(Entry stripeEntry, Object key, long h) {
        for (Node<K> p = (Node<K>) stripeEntry.pendingRef(); p != null; p = p.pendingNext) {
            if (p.hash == h && p.key.equals(key)) {
                return p;
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private void insert(TxnContext ctx, K key, long h, Object value) {
        Entry se = ctx.find(stripeFor(h));
        // locate() observed the stripe, so its entry exists.
        Node<K> fresh = new Node<>(key, h, domain);
        fresh.pendingNext = (Node<K>) se.pendingRef();
        bufferInsert(ctx, se, fresh, key, value);
    }

    // ------------------------------------------------------------------ HashMapCore hooks

    @Override
    boolean link(Node<K> node) {
        // No duplicate check: that would run the key's equals inside the commit. The caller holds
        // the key's stripe locked with its absence validated (a transaction's commit) or checked
        // (keyLinked, a non-transactional insert), so no node of the key is linked.
        index.link(node);
        return true;
    }

    @Override
    void unlink(Node<K> node) {
        index.remove(node);
    }

    @Override
    void reserveInsert() {
        index.reserve(1);
    }

    @Override
    boolean keyLinked(Node<K> node) {
        return index.get(node.key, node.hash) != null;
    }

    @Override
    void clearPendingNext(Node<K> node) {
        node.pendingNext = null;
    }

    @Override
    ChainedIndex index() {
        return index;
    }

    @Override
    Node<K> pendingNextOf(Node<K> node) {
        return node.pendingNext;
    }

    @Override
    @SuppressWarnings("unchecked")
    void deliver(Node<K> node, Object value, Object action, boolean keysOnly) {
        if (keysOnly) {
            ((java.util.function.Consumer<? super K>) action).accept(node.key);
        } else {
            ((java.util.function.BiConsumer<? super K, ? super V>) action).accept(node.key, (V) value);
        }
    }

    @Override
    Object keyOf(Node<K> node) {
        return node.key;
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
            long h = ObjectNodeIndex.hash(key);
            for (;;) {
                Node<K> n = map.index.get(key, h);
                if (n == null) {
                    return null;
                }
                Object v = cc.loadRef(n);
                if (v != REMOVED) {
                    return (V) presentOrNull(v);
                }
            }
        }

        /** @return whether {@code key} is present */
        public boolean containsKey(K key) {
            return get(key) != null;
        }

        /**
         * Maps {@code key} to {@code value}; returns the previous value or null. In an insert-only
         * map, throws {@link UnsupportedOperationException} if the key is present.
         */
        @SuppressWarnings("unchecked")
        public V put(K key, V value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            NonTx.checkOutside(map.stm);
            ConcurrencyControl cc = map.stm.concurrencyControl();
            long h = ObjectNodeIndex.hash(key);
            for (;;) {
                Node<K> n = map.index.get(key, h);
                if (n != null) {
                    if (map.insertOnly && presentNonTx(cc, n)) {
                        throw presentKey(key);
                    }
                    Object old = replaceNonTx(cc, n, value);
                    if (old != RETRY) {
                        return (V) old;
                    }
                } else if (map.insertNonTx(cc, map.stripeFor(h), new Node<>(key, h, map.domain), value)) {
                    return null;
                }
            }
        }

        /** Removes {@code key}; returns the removed value or null. */
        @SuppressWarnings("unchecked")
        public V remove(K key) {
            Objects.requireNonNull(key, "key");
            if (map.insertOnly) {
                throw refused("remove");
            }
            NonTx.checkOutside(map.stm);
            ConcurrencyControl cc = map.stm.concurrencyControl();
            long h = ObjectNodeIndex.hash(key);
            for (;;) {
                Node<K> n = map.index.get(key, h);
                if (n == null) {
                    return null;
                }
                Object old = map.removeNonTx(cc, n);
                if (old != RETRY) {
                    return (V) old;
                }
            }
        }

        /**
         * @return the number of committed keys (a moment's estimate while transactions run). Walks
         *         the map: a multi-version protocol keeps deleted entries linked until no snapshot
         *         can see them, so the index's own count may include keys that are gone.
         */
        public int size() {
            ConcurrencyControl cc = map.stm.concurrencyControl();
            int[] present = {0};
            map.index.forEach(n -> {
                Object v = cc.loadRef(n);
                if (v != REMOVED && v != ConcurrencyControl.NO_VERSION) {
                    present[0]++;
                }
            });
            return present[0];
        }

        /** Visits every committed key and value (weakly consistent while transactions run). */
        @SuppressWarnings("unchecked")
        public void forEach(java.util.function.BiConsumer<? super K, ? super V> action) {
            Objects.requireNonNull(action, "action");
            NonTx.checkOutside(map.stm);
            ConcurrencyControl cc = map.stm.concurrencyControl();
            map.index.forEach(n -> {
                Object v = cc.loadRef(n);
                if (v != REMOVED && v != ConcurrencyControl.NO_VERSION) {
                    action.accept(n.key, (V) v);
                }
            });
        }
    }
}
