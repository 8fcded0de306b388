package io.jato.collections;

import io.jato.collections.internal.hash.ChainedIndex;
import io.jato.collections.internal.hash.LongNodeIndex;
import io.jato.collections.internal.hash.LongNodeIndex.Node;
import io.jato.collections.internal.hash.NodeBuffer;
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
 * Design. The protocol is TxHashMap's, with the key a primitive long and the index our own
 * (LongNodeIndex): a lookup is table slot -> node (key and chain link inline) -> value, with no
 * boxing and no wrapper entry. The two maps share only what does not touch a key, in HashMapCore
 * (stripes, sentinels, write/insert/update buffering, the commit participant, which calls back
 * here to link and unlink nodes). The lookup path (locate, ownInsert, the key comparisons) is this
 * class's own: sharing it with TxHashMap would make both dispatch on the key representation.
 *
 * Each node is a RefItem whose value the store's protocol versions. A present key is read, written
 * and deleted through its node's version. An absent key has no node, so absence is versioned by a
 * fixed array of stripe items: a transaction that finds a key absent records its stripe's version,
 * and every commit that inserts a key bumps its stripe. Read protocol for absence: record the
 * stripe version first, then look the key up again; an insert publishes its node into the index
 * before it bumps the stripe, so a reader either sees the node or fails on the stripe change. The
 * index never reports a linked key absent (a lookup that races a resize retries), so a miss here
 * is exactly "not inserted as of the observed stripe version".
 *
 * Inserts are buffered as fresh, unpublished nodes linked (Node.pendingNext) from the
 * transaction's stripe entry; the commit locks the stripe, validates the absence it observed, and
 * the install links the node into the index while the stripe is still locked. Deletes write the
 * node's value to REMOVED, unlink it and retire its version word, so a transaction that saw the
 * node alive fails validation and a reader that reaches the unlinked node retries its lookup.
 * Removing a key does not bump its stripe: nobody who observed the stripe saw that key present.
 *
 * Entries carry no key object (Entry.key is null): boxing it would allocate on every write.
 *
 * Insert-only maps. If no key is ever replaced or deleted, a linked node's value never changes
 * after the commit that linked it, and a commit-point protocol (OCC) need not validate a read of it:
 * the insert was published before the read, so before the reader's serialization point, and no
 * later commit can invalidate it (TicToc and MVCC only need the commit timestamp at or above the
 * node's wts). Lookups of present keys then ask the protocol for the value with no entry
 * (ConcurrencyControl.readUnchangingRef): one entry and one validation fewer per row looked up
 * in TPC-C's and YCSB's tables (docs/benchmarks/2026-12-insert-only.md). Absent keys keep the
 * stripe protocol above, and the transaction's own inserts their entries.
 */

/**
 * A transactional hash map with primitive {@code long} keys: {@link TxHashMap}'s guarantees without
 * boxing. Inside a transaction, {@link #get}, {@link #containsKey} and the value returned by the
 * writing operations are validated at commit, including the fact that a key was absent, so inserts
 * and deletes are serializable with lookups (no phantoms on point keys). Values must not be null
 * and should be immutable: the map versions the reference it holds.
 *
 * <p>Lookups take no lock and allocate nothing; reading or updating a key already present allocates
 * nothing either. Prefer it to a {@code TxHashMap<Long, V>} for numeric and packed composite keys.
 *
 * <p>Two transactions that insert different keys hashing to the same absence stripe conflict, as do
 * a lookup of an absent key and an insert into its stripe; size the stripes with the expected number
 * of keys to keep that rare.
 *
 * <p>An {@linkplain #insertOnly insert-only} map is a table's index: a key, once inserted, keeps its
 * value for ever (the value is typically a record or another transactional object, changed in
 * place). Under {@code occ}, {@code global-lock}, {@code tictoc} and {@code mvcc} a lookup of a
 * present key then costs no access-set entry and no validation at commit; absent keys are
 * versioned as above.
 *
 * @param <V> value type
 */
// "exports": the supertype names LongNodeIndex.Node, from a package the module does not export;
// HashMapCore is package-private, so no client sees that type through this class.
@SuppressWarnings("exports")
public final class TxLongHashMap<V> extends HashMapCore<Node> {
    private final LongNodeIndex index;
    private final Single<V> single = new Single<>(this);

    /**
     * Receives the entries of {@link Single#forEach}.
     *
     * @param <V> value type
     */
    @FunctionalInterface
    public interface EntryConsumer<V> {
        /** Accepts one committed entry. */
        void accept(long key, V value);
    }

    /** Creates a map in {@code stm} sized for about a thousand keys. */
    public TxLongHashMap(Stm stm) {
        this(stm, 1024);
    }

    /**
     * Creates a map in {@code stm}.
     *
     * @param expectedSize the number of keys expected; sizes the index and the absence stripes
     */
    public TxLongHashMap(Stm stm, int expectedSize) {
        this(stm, expectedSize, false);
    }

    private TxLongHashMap(Stm stm, int expectedSize, boolean insertOnly) {
        super(stm, expectedSize, insertOnly);
        this.index = new LongNodeIndex(expectedSize);
    }

    /**
     * Creates an insert-only map in {@code stm}: a key, once its insert has committed, is mapped to
     * that value for ever. {@link #get}, {@link #containsKey} and {@link #putIfAbsent} work as in
     * any map, and {@link #put} inserts an absent key; {@code put} of a present key,
     * {@link #remove}, {@link #update} and {@link #merge} throw {@link UnsupportedOperationException}
     * and change nothing (so do the {@link #single()} view's). In exchange, under {@code occ} and
     * {@code global-lock} (which serialize at a commit point), {@code tictoc} and {@code mvcc}
     * (which only keep the commit timestamp at or above the insert's) a lookup of a present key
     * takes no access-set entry and is not validated at commit: nothing can invalidate it. Other
     * protocols read it as in any map. Absent keys are versioned as in any map, so inserts stay
     * serializable with lookups.
     *
     * @param expectedSize the number of keys expected; sizes the index and the absence stripes
     */
    public static <V> TxLongHashMap<V> insertOnly(Stm stm, int expectedSize) {
        return new TxLongHashMap<>(stm, expectedSize, true);
    }

    /** @return whether this map is {@linkplain #insertOnly insert-only} */
    public boolean isInsertOnly() {
        return insertOnly;
    }

    /** @return the value for {@code key} as of this transaction, or null if absent */
    @SuppressWarnings("unchecked")
    public V get(Txn txn, long key) {
        TxnContext ctx = TxnContext.of(txn, stm);
        if (insertOnly && !ctx.hasInserts(insertMark)) {
            Node n = index.get(key);
            Object v = unchangingValue(ctx, n);
            return (V) (v != null ? v : valueAt(locateFrom(ctx, key, n)));
        }
        return (V) valueAt(locate(ctx, key));
    }

    /**
     * Looks up {@code count} keys at once: {@code into[i]} becomes the value of {@code keys[i]} as of
     * this transaction, or null if it is absent, for each {@code i < count} — what {@code count}
     * calls of {@link #get} in that order return, with the same read dependencies. On a table larger
     * than the CPU's caches it is faster than those calls: it walks the index for every key before
     * it reads any of them, and since those walks do not depend on one another the CPU overlaps
     * their cache misses instead of taking them one after the other. Allocates nothing in steady
     * state.
     *
     * @throws IndexOutOfBoundsException if {@code count} is negative or exceeds either array's
     *                                   length (nothing is read)
     */
    @SuppressWarnings("unchecked")
    public void getAll(Txn txn, long[] keys, int count, V[] into) {
        Objects.checkFromIndexSize(0, count, keys.length);
        Objects.checkFromIndexSize(0, count, into.length);
        TxnContext ctx = TxnContext.of(txn, stm);
        NodeBuffer nodes = ctx.borrow(NodeBuffer.KIND); // empty: every borrow is a buffer of its own
        for (int i = 0; i < count; i++) {
            nodes.add(index.get(keys[i]));
        }
        // As get, from the nodes found: the insert-only fast path unless this attempt inserted.
        boolean unchanging = insertOnly && !ctx.hasInserts(insertMark);
        for (int i = 0; i < count; i++) {
            Node n = (Node) nodes.get(i);
            Object v = unchanging ? unchangingValue(ctx, n) : null;
            into[i] = (V) (v != null ? v
                    : unchanging ? valueAt(locateFrom(ctx, keys[i], n)) : valueAt(locate(ctx, keys[i])));
        }
    }

    /** @return whether {@code key} is present as of this transaction */
    public boolean containsKey(Txn txn, long key) {
        return get(txn, key) != null;
    }

    /**
     * Maps {@code key} to {@code value}; returns the previous value or null. In an
     * {@linkplain #insertOnly insert-only} map, throws {@link UnsupportedOperationException} if the
     * key is present.
     */
    public V put(Txn txn, long key, V value) {
        return store(txn, key, value, false);
    }

    /** Maps {@code key} to {@code value} unless present; returns the present value or null. */
    public V putIfAbsent(Txn txn, long key, V value) {
        return store(txn, key, value, true);
    }

    /** Removes {@code key}; returns the removed value or null if it was absent. */
    @SuppressWarnings("unchecked")
    public V remove(Txn txn, long key) {
        if (insertOnly) {
            throw refused("remove");
        }
        TxnContext ctx = TxnContext.of(txn, stm);
        Entry e = locate(ctx, key);
        if (e != null && ctx.hasInserts(absenceMark)) {
            checkObservedAbsence(ctx, e, stripeFor(key));
        }
        return (V) removeAt(ctx, e, null);
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
    public boolean update(Txn txn, long key, ValueUpdater<V> updater) {
        Objects.requireNonNull(updater, "updater");
        if (insertOnly) {
            throw refused("update");
        }
        TxnContext ctx = TxnContext.of(txn, stm);
        return updateAt(ctx, locateForUpdate(ctx, key), null, updater);
    }

    /**
     * Inserts {@code value} if {@code key} is absent, otherwise schedules {@code updater} as in
     * {@link #update}. Only the absence check of a missing key is a read dependency.
     */
    public void merge(Txn txn, long key, V value, ValueUpdater<V> updater) {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(updater, "updater");
        if (insertOnly) {
            throw refused("merge");
        }
        TxnContext ctx = TxnContext.of(txn, stm);
        if (!mergeAt(ctx, locateForUpdate(ctx, key), null, value, updater)) {
            insert(ctx, key, value);
        }
    }

    /**
     * @return the number of keys present as of this transaction, as {@link TxHashMap#size(Txn)}:
     *         phantom-safe, reads every key (O(size))
     */
    public int size(Txn txn) {
        return iterate(TxnContext.of(txn, stm), null, false);
    }

    /** @return true if no key is present as of this transaction (phantom-safe, O(size)) */
    public boolean isEmpty(Txn txn) {
        return size(txn) == 0;
    }

    /**
     * Passes every key present as of this transaction and its value to {@code action}, in no
     * particular order; phantom-safe, as {@link TxHashMap#forEach(Txn, java.util.function.BiConsumer)}.
     */
    public void forEach(Txn txn, EntryConsumer<? super V> action) {
        Objects.requireNonNull(action, "action");
        iterate(TxnContext.of(txn, stm), action, false);
    }

    /** {@link #forEach(Txn, EntryConsumer)} over the keys only (for {@link TxLongHashSet}). */
    void forEachKey(Txn txn, java.util.function.LongConsumer action) {
        Objects.requireNonNull(action, "action");
        iterate(TxnContext.of(txn, stm), action, true);
    }

    /** @return the non-transactional view, for loading and inspection */
    public Single<V> single() {
        return single;
    }

    /** @return the store this map belongs to */
    public Stm stm() {
        return stm;
    }

    /**
     * Diagnostics for tests: reports the first absence stripe or node whose metadata the protocol
     * finds non-quiescent (e.g. still locked), a linked node that is retired or has no value, or a
     * key linked twice; null if all is well. Call only while no transaction runs.
     */
    public String checkQuiescent() {
        ConcurrencyControl cc = stm.concurrencyControl();
        String[] problem = {checkStripes(cc)};
        if (problem[0] != null) {
            return problem[0];
        }
        java.util.Set<Long> seen = new java.util.HashSet<>();
        index.forEach(n -> {
            if (problem[0] != null) {
                return;
            }
            String p = checkLinked(cc, n);
            if (p == null && !seen.add(n.key)) {
                p = "linked twice";
            }
            if (p == null && index.get(n.key) != n) {
                p = "linked but not found by a lookup";
            }
            if (p != null) {
                problem[0] = "key " + n.key + ": " + p;
            }
        });
        if (problem[0] == null && seen.size() != index.size()) {
            problem[0] = "index counts " + index.size() + " keys but links " + seen.size();
        }
        return problem[0];
    }

    // ------------------------------------------------------------------ internals

    @SuppressWarnings("unchecked")
    private V store(Txn txn, long key, V value, boolean onlyIfAbsent) {
        Objects.requireNonNull(value, "value");
        TxnContext ctx = TxnContext.of(txn, stm);
        Entry e;
        if (insertOnly && !ctx.hasInserts(insertMark)) {
            Node n = index.get(key);
            Object v = unchangingValue(ctx, n);
            if (v != null) {
                if (onlyIfAbsent) {
                    return (V) v;
                }
                throw presentKey(key);
            }
            e = locateFrom(ctx, key, n);
        } else {
            e = locate(ctx, key);
        }
        if (e == null) {
            insert(ctx, key, value);
            return null;
        }
        if (insertOnly && !onlyIfAbsent && valueOf(e) != null) {
            throw presentKey(key);
        }
        if (ctx.hasInserts(absenceMark) && (!onlyIfAbsent || valueOf(e) == null)) {
            checkObservedAbsence(ctx, e, stripeFor(key));
        }
        return (V) storeAt(ctx, e, null, value, onlyIfAbsent);
    }

    /**
     * Like {@link #locate} but does not read a node this transaction has not touched yet: returns
     * its fresh entry (neither READ nor WRITE). Returns null if the key was observed absent, and the
     * (writing) entry if this transaction deleted it: see {@link HashMapCore#absentHere}.
     */
    private Entry locateForUpdate(TxnContext ctx, long key) {
        Entry e = ctx.hasInserts(insertMark) ? ownInsert(ctx, key) : null;
        if (e == null) {
            e = untouchedEntry(ctx, index.get(key));
            if (e == null) {
                e = locate(ctx, key);
            }
        }
        return e;
    }

    private TxItem stripeFor(long key) {
        return stripes[LongNodeIndex.indexFor(LongNodeIndex.hash(key), stripes.length)];
    }

    /**
     * Finds the entry that decides {@code key}'s value in this transaction: the entry of its node
     * (read if not yet read) or of this transaction's pending insert, or null if the key is absent
     * (the stripe version is then recorded).
     */
    private Entry locate(TxnContext ctx, long key) {
        if (ctx.hasInserts(insertMark)) {
            // Our own buffered insert wins over a node another transaction published since
            // (that commit bumped the stripe we observed, so this attempt will abort anyway).
            Entry own = ownInsert(ctx, key);
            if (own != null) {
                return own;
            }
        }
        return locateFrom(ctx, key, index.get(key));
    }

    /**
     * {@link #locate} once this transaction's own inserts are ruled out, from {@code n}, what a
     * lookup of {@code key} just found (null: no node linked): the insert-only fast path hands
     * over its lookup, so a protocol that declines the entry-free read costs no second walk.
     */
    private Entry locateFrom(TxnContext ctx, long key, Node n) {
        for (;;) {
            if (n == null) {
                ctx.observe(stripeFor(key));
                n = index.get(key);
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
            n = index.get(key);
        }
    }

    /** @return the entry of this transaction's buffered insert of {@code key}, or null */
    private Entry ownInsert(TxnContext ctx, long key) {
        Entry se = ctx.find(stripeFor(key));
        if (se != null) {
            for (Node p = (Node) se.pendingRef(); p != null; p = p.pendingNext) {
                if (p.key == key) {
                    return ctx.find(p);
                }
            }
        }
        return null;
    }

    private void insert(TxnContext ctx, long key, Object value) {
        Entry se = ctx.find(stripeFor(key));
        // locate() observed the stripe, so its entry exists.
        Node fresh = new Node(key, domain);
        fresh.pendingNext = (Node) se.pendingRef();
        bufferInsert(ctx, se, fresh, null, value);
    }

    // ------------------------------------------------------------------ HashMapCore hooks

    @Override
    boolean link(Node node) {
        return index.putIfAbsent(node) == null;
    }

    @Override
    void unlink(Node node) {
        index.remove(node);
    }

    @Override
    void reserveInsert() {
        index.reserve(1);
    }

    @Override
    boolean keyLinked(Node node) {
        return index.get(node.key) != null;
    }

    @Override
    void clearPendingNext(Node node) {
        node.pendingNext = null;
    }

    @Override
    ChainedIndex index() {
        return index;
    }

    @Override
    Node pendingNextOf(Node node) {
        return node.pendingNext;
    }

    @Override
    @SuppressWarnings("unchecked")
    void deliver(Node node, Object value, Object action, boolean keysOnly) {
        if (keysOnly) {
            ((java.util.function.LongConsumer) action).accept(node.key);
        } else {
            ((EntryConsumer<? super V>) action).accept(node.key, (V) value);
        }
    }

    @Override
    Object keyOf(Node node) {
        return node.key; // boxed: error messages only
    }

    /**
     * Non-transactional single operations for loading and inspection: each is atomic on its own and
     * linearizable with transactions. Calling them inside a transaction of the same store throws
     * {@link IllegalStateException}.
     *
     * @param <V> value type
     */
    public static final class Single<V> {
        private final TxLongHashMap<V> map;

        private Single(TxLongHashMap<V> map) {
            this.map = map;
        }

        /** @return the committed value for {@code key}, or null */
        @SuppressWarnings("unchecked")
        public V get(long key) {
            NonTx.checkOutside(map.stm);
            ConcurrencyControl cc = map.stm.concurrencyControl();
            for (;;) {
                Node n = map.index.get(key);
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
        public boolean containsKey(long key) {
            return get(key) != null;
        }

        /**
         * Maps {@code key} to {@code value}; returns the previous value or null. In an insert-only
         * map, throws {@link UnsupportedOperationException} if the key is present.
         */
        @SuppressWarnings("unchecked")
        public V put(long key, V value) {
            Objects.requireNonNull(value, "value");
            NonTx.checkOutside(map.stm);
            ConcurrencyControl cc = map.stm.concurrencyControl();
            for (;;) {
                Node n = map.index.get(key);
                if (n != null) {
                    if (map.insertOnly && presentNonTx(cc, n)) {
                        throw presentKey(key);
                    }
                    Object old = replaceNonTx(cc, n, value);
                    if (old != RETRY) {
                        return (V) old;
                    }
                } else if (map.insertNonTx(cc, map.stripeFor(key), new Node(key, map.domain), value)) {
                    return null;
                }
            }
        }

        /** Removes {@code key}; returns the removed value or null. */
        @SuppressWarnings("unchecked")
        public V remove(long key) {
            if (map.insertOnly) {
                throw refused("remove");
            }
            NonTx.checkOutside(map.stm);
            ConcurrencyControl cc = map.stm.concurrencyControl();
            for (;;) {
                Node n = map.index.get(key);
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
        public void forEach(EntryConsumer<? super V> action) {
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
