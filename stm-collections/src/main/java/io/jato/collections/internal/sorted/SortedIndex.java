package io.jato.collections.internal.sorted;

import io.jato.collections.internal.InsertOnlyRefusals;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import java.util.concurrent.atomic.AtomicInteger;

/*
 * The engine behind TxSortedMap and TxLongSortedMap (the design essay is at the top of
 * io.jato.collections.TxSortedMap). One object, built as a chain of package-private abstract
 * layers, each one concept, with all state on the one object (like the transaction context's
 * chain in io.jato.stm.spi): a layer's fields are the object's own, and what a layer offers the
 * layers above is final, so a call between layers binds statically as it did within one class.
 * From the bottom:
 *  - SortedTree: the physical tree - its fields, the key kinds' comparisons, optimistic reads,
 *    linking and unlinking a slot in a leaf. Its header covers keys, readers, writers (and the
 *    lock order) and memory.
 *  - TreeStructure: the structure operations - fixing (splitting) a leaf, removing an empty leaf.
 *  - CommittedIndex: how the committed state changes - the commit participant (check, install,
 *    cleanup) and the non-transactional (single()) operations.
 *  - SortedIndex (this file): the transactional operations, scans and diagnostics; the type the
 *    facades hold, with every public method (its own and those it inherits).
 *  - LongKeyIndex, ObjectKeyIndex: the key kinds (comparisons, prefix layout).
 */

/**
 * A transactional ordered index over the store's protocol: a B+-tree whose leaves carry the
 * structure versions that make range scans and absent-key lookups serializable. Internal to
 * {@code io.jato.collections}; see {@code TxSortedMap} for what it guarantees.
 *
 * <p>The top of a class chain (listed above the class): this layer adds the transactional
 * operations, the scans and the diagnostics to the committed index below it. The facades use this
 * type only; the public methods it inherits are part of its interface as much as its own.
 */
public abstract class SortedIndex extends CommittedIndex {
    private static final AtomicInteger MARKS = new AtomicInteger();

    /** Default keys per leaf and separators per inner node. */
    public static final int DEFAULT_CAPACITY = 32;
    private static final int MIN_CAPACITY = 4;
    private static final int MAX_CAPACITY = 1024;

    /** Never locked or validated: its access-set entry holds the transaction's {@link Pending}. */
    private final TxItem anchor;
    /**
     * This index's bit for {@link TxnContext#markInserts}, set when a point lookup finds a key
     * absent: writes skip {@link #checkLookedUpAbsent} when it is clear. Taken from the top of the
     * word (the hash maps take theirs from the bottom); a shared bit only costs an extra lookup.
     */
    private final long absenceMark = 1L << (63 - (MARKS.getAndIncrement() & 63));

    SortedIndex(Stm stm, boolean longKeys, int capacity, boolean layout, boolean insertOnly) {
        super(stm, longKeys, capacity, layout, insertOnly);
        this.anchor = new TxItem(domain);
    }

    /** @return {@code capacity} if it is a valid node capacity */
    public static int checkCapacity(int capacity) {
        if (capacity < MIN_CAPACITY || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("node capacity must be in [" + MIN_CAPACITY + ", " + MAX_CAPACITY
                    + "], got " + capacity);
        }
        return capacity;
    }

    /** @return the store this index belongs to */
    public final Stm stm() {
        return stm;
    }

    /**
     * Checks a scan's arguments before anything is read.
     *
     * @return true if the range (or the limit) admits no entry, so there is nothing to read
     * @throws IllegalArgumentException if {@code limit < 0} or the range is inverted
     */
    public final boolean emptyRange(long fk, Object fo, boolean fInc, boolean fInf,
                                    long tk, Object to, boolean tInc, boolean tInf, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0, got " + limit);
        }
        if (fInf || tInf) {
            return limit == 0;
        }
        int c = cmp(fk, fo, tk, to);
        if (c > 0) {
            throw new IllegalArgumentException("inverted range: from " + describe(fk, fo) + " is greater than to "
                    + describe(tk, to));
        }
        return limit == 0 || (c == 0 && !(fInc && tInc));
    }

    /** Hands one entry to a visitor of the public API; returns whether the scan goes on. */
    protected abstract boolean emit(Object visitor, Slot s, Object value);

    // ------------------------------------------------------------------ transactional operations

    private static Object valueOf(Entry e) {
        Object v = e.has(Entry.WRITE) ? e.pendingRef() : e.readRef();
        // NO_VERSION: a multi-version protocol found no version of the slot visible to us.
        return v == ABSENT || v == REMOVED || v == ConcurrencyControl.NO_VERSION ? null : v;
    }

    /**
     * Reads slot {@code s} into the transaction (unless already read or written): its entry, or
     * null if the slot was deleted by a commit since it was found (look again).
     */
    private static Entry readSlot(TxnContext ctx, Slot s) {
        Entry e = ctx.entry(s);
        if ((e.flags() & (Entry.READ | Entry.WRITE)) == 0) {
            ctx.readRef(s, e);
        }
        return !e.has(Entry.WRITE) && e.readRef() == REMOVED ? null : e;
    }

    /** @return whether this index is insert-only (see {@link CommittedIndex#insertOnly}) */
    public final boolean isInsertOnly() {
        return insertOnly;
    }

    /** @return the value of {@code key} as of this transaction, or null */
    public final Object get(TxnContext ctx, long k, Object ok) {
        Slot own = ownInsert(ctx, k, ok);
        if (own != null) {
            return valueOf(ctx.find(own));
        }
        if (insertOnly) {
            for (;;) {
                Leaf l = descend(CONTAINS, k, ok);
                Slot s = probe(l, k, ok);
                if (s == RETRY) {
                    continue;
                }
                Object v = unchangingValue(ctx, s);
                if (v != null) {
                    return v;
                }
                // The protocol declined (or the key is absent): read as usual, from this probe.
                Entry e = locateLinked(ctx, k, ok, l, s);
                return e == null ? null : valueOf(e);
            }
        }
        Entry e = locateLinked(ctx, k, ok, null, null);
        return e == null ? null : valueOf(e);
    }

    /** @return whether {@code key} is present as of this transaction */
    public final boolean containsKey(TxnContext ctx, long k, Object ok) {
        return get(ctx, k, ok) != null;
    }

    /**
     * In an insert-only index: the committed value of linked slot {@code s} read without an
     * access-set entry, or null if there is no slot or the protocol declines (then read it as
     * usual). Such a value is the key's for ever: no transaction can replace or remove it.
     */
    private Object unchangingValue(TxnContext ctx, Slot s) {
        if (s == null) {
            return null;
        }
        Object v = ctx.readUnchangingRef(s);
        // A multi-version placeholder or a retired slot: not a value; the usual read decides.
        return v == REMOVED || v == ConcurrencyControl.NO_VERSION ? null : v;
    }

    /**
     * Finds the entry that decides {@code k}'s value in this transaction: its slot's (read now if
     * not yet read) or this transaction's pending insert's, or null if {@code k} is absent - then the
     * version of the leaf that covers it is recorded (observed before the leaf's content is read, so
     * any insert that the read missed changes the recorded version).
     */
    private Entry locate(TxnContext ctx, long k, Object ok) {
        Slot own = ownInsert(ctx, k, ok);
        if (own != null) {
            return ctx.find(own);
        }
        return locateLinked(ctx, k, ok, null, null);
    }

    /**
     * {@link #locate} once this transaction's own insert of {@code k} is ruled out, starting from
     * leaf {@code l} and what probing it for {@code k} found ({@code s}; null: absent from it), or
     * with a descent of its own if {@code l} is null: a lookup that tried an entry-free read hands
     * over its probe, so a protocol that declines costs no second descent.
     */
    private Entry locateLinked(TxnContext ctx, long k, Object ok, Leaf l, Slot s) {
        for (;;) {
            if (l == null) {
                l = descend(CONTAINS, k, ok);
                s = probe(l, k, ok);
                if (s == RETRY) {
                    l = null;
                    continue;
                }
            }
            if (s != null) {
                Entry e = readSlot(ctx, s);
                if (e != null) {
                    return e;
                }
                l = null;
                continue;
            }
            Entry le = ctx.entry(l);
            if (!le.has(Entry.READ)) {
                // Observe the leaf, then probe again: an insert the next read misses changes it.
                ctx.observe(le);
                l = null;
                continue;
            }
            noteAbsent(ctx, k, ok);
            return null;
        }
    }

    /** Records that a point lookup of this transaction found {@code k} absent (see {@link #checkLookedUpAbsent}). */
    private void noteAbsent(TxnContext ctx, long k, Object ok) {
        Entry ae = ctx.entry(anchor);
        Pending p = (Pending) ae.pendingRef();
        if (p == null) {
            p = ctx.borrow(Pending.KIND);
            ae.setPendingRef(p);
        }
        int i = absentBound(p, k, ok);
        if (i == p.absentSize || cmp(p.absentLong[i], p.absentObj[i], k, ok) != 0) {
            p.insertAbsentAt(i, k, ok);
        }
        ctx.markInserts(absenceMark);
    }

    /**
     * Before a write ({@code put}, {@code remove}) to {@code k}, found present at {@code e}: if a
     * point lookup of this transaction found {@code k} absent, another transaction inserted it
     * since, and the write would overwrite a value this transaction never saw, decided by the
     * absence it did see — a lost update (the insert's), which isolation levels that do not
     * validate absence (TicToc's repeatable read) would commit. The attempt aborts instead. A key
     * this transaction inserted itself is not checked; neither is the absence a scan saw (a
     * predicate: keys it did not find are phantoms where phantoms are allowed).
     */
    private void checkLookedUpAbsent(TxnContext ctx, Entry e, long k, Object ok) {
        if (!ctx.hasInserts(absenceMark) || e.has(Entry.INSERT)) {
            return;
        }
        Entry ae = ctx.find(anchor);
        Pending p = ae == null ? null : (Pending) ae.pendingRef();
        if (p == null || p.absentSize == 0) {
            return;
        }
        int i = absentBound(p, k, ok);
        if (i < p.absentSize && cmp(p.absentLong[i], p.absentObj[i], k, ok) == 0) {
            throw ctx.rollback(AbortCause.READ_VALIDATION);
        }
    }

    /** @return the first index of {@code p}'s absent keys with key &ge; k */
    private int absentBound(Pending p, long k, Object ok) {
        int lo = 0;
        int hi = p.absentSize;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cmp(p.absentLong[mid], p.absentObj[mid], k, ok) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Maps {@code k} to {@code value} (unless present and {@code onlyIfAbsent}); returns the previous
     * value. In an insert-only index, throws {@link UnsupportedOperationException} (changing
     * nothing) if the key is present and not {@code onlyIfAbsent}.
     */
    public final Object put(TxnContext ctx, long k, Object ok, Object value, boolean onlyIfAbsent) {
        for (;;) {
            Entry e;
            Leaf l = null;
            Pending p = pending(ctx);
            int i = p == null ? 0 : pendingBound(p, k, ok, false);
            if (i < (p == null ? 0 : p.size) && cmp(p.slots[i], k, ok) == 0) {
                e = ctx.find(p.slots[i]);
            } else {
                Slot s = RETRY;
                if (i > 0) {
                    // The leaf of this transaction's insert just below k (an order's previous
                    // line, say) covers k too, often: then probing it saves the descent. A leaf
                    // split or merged since answers RETRY, and the descent decides.
                    l = p.slots[i - 1].hint;
                    s = l == null ? RETRY : probe(l, k, ok);
                }
                if (s == RETRY) {
                    l = descend(CONTAINS, k, ok);
                    s = probe(l, k, ok);
                    if (s == RETRY) {
                        continue;
                    }
                }
                if (insertOnly) {
                    Object v = unchangingValue(ctx, s);
                    if (v != null) {
                        if (onlyIfAbsent) {
                            return v;
                        }
                        throw InsertOnlyRefusals.presentKey(describe(k, ok));
                    }
                }
                e = s == null ? null : readSlot(ctx, s);
                if (s != null && e == null) {
                    continue;
                }
            }
            if (e == null) {
                insert(ctx, l, k, ok, value);
                return null;
            }
            Object current = valueOf(e);
            if (insertOnly && current != null && !onlyIfAbsent) {
                throw InsertOnlyRefusals.presentKey(describe(k, ok));
            }
            if (current == null || !onlyIfAbsent) {
                checkLookedUpAbsent(ctx, e, k, ok);
                write(ctx, e, value);
            }
            return current;
        }
    }

    /**
     * Removes {@code k}; returns the removed value, or null if it was absent. In an insert-only
     * index, throws {@link UnsupportedOperationException} before anything is read.
     */
    public final Object remove(TxnContext ctx, long k, Object ok) {
        if (insertOnly) {
            throw InsertOnlyRefusals.refused("remove");
        }
        Entry e = locate(ctx, k, ok);
        if (e == null) {
            return null;
        }
        Object current = valueOf(e);
        if (current != null) {
            checkLookedUpAbsent(ctx, e, k, ok);
            write(ctx, e, ABSENT);
        }
        return current;
    }

    private void write(TxnContext ctx, Entry e, Object value) {
        if (e.has(Entry.WRITE)) {
            ctx.keepPending(e);
            e.setPendingRef(value);
        } else {
            ctx.writeCustom(e, participant, null, value);
        }
    }

    /**
     * Buffers the insert of an absent key into leaf {@code l}. The absence is not validated through
     * the leaf's version (two transactions inserting different keys into one leaf do not conflict):
     * the commit checks, with the leaf locked, that the leaf still covers the key and lacks it. The
     * leaf gets a new version at commit, which is what fails scans and lookups that missed the key.
     */
    private void insert(TxnContext ctx, Leaf l, long k, Object ok, Object value) {
        Object prefix = admit(k, ok);
        Entry le = ctx.entry(l);
        if (!le.has(Entry.WRITE)) {
            // First: in a read-only transaction this throws before anything is buffered.
            ctx.writeVersion(le);
            // A version-only write installs nothing: its pending long counts the room the
            // commit's checks reserve in the leaf for this transaction's inserts.
            le.setPendingLong(0);
        }
        Slot s = new Slot(k, ok, prefix, domain);
        s.hint = l;
        Entry se = ctx.appendInsert(s);
        ctx.writeCustom(se, participant, null, value);
        ctx.requestCheck(se, participant);
        Entry ae = ctx.entry(anchor);
        Pending p = (Pending) ae.pendingRef();
        if (ctx.keepPending(ae) && p != null) {
            // Inside a nested block: the block's inserts go into a copy, so that rolling the block
            // back restores the list it started from.
            p = ctx.borrow(Pending.KIND).copyOf(p);
            ae.setPendingRef(p);
        }
        if (p == null) {
            p = ctx.borrow(Pending.KIND);
            ae.setPendingRef(p);
        }
        p.insertAt(pendingBound(p, k, ok, false), s);
    }

    /** @return this transaction's pending inserts into this index, or null */
    private Pending pending(TxnContext ctx) {
        if (!ctx.hasInserts()) {
            return null;
        }
        Entry ae = ctx.find(anchor);
        return ae == null ? null : (Pending) ae.pendingRef();
    }

    /** @return this transaction's pending insert of {@code k}, or null */
    private Slot ownInsert(TxnContext ctx, long k, Object ok) {
        Pending p = pending(ctx);
        if (p == null) {
            return null;
        }
        int i = pendingBound(p, k, ok, false);
        return i < p.size && cmp(p.slots[i], k, ok) == 0 ? p.slots[i] : null;
    }

    /** @return the first index of {@code p} with key &gt; k ({@code upper}) or &ge; k */
    private int pendingBound(Pending p, long k, Object ok, boolean upper) {
        int lo = 0;
        int hi = p.size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = cmp(p.slots[mid], k, ok);
            if (c < 0 || (upper && c == 0)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    // ------------------------------------------------------------------ scans

    /**
     * Visits the present entries with keys in the range, in key order ({@code desc}: reversed),
     * until {@code limit} were visited or the visitor returns false. Transactional if {@code ctx}
     * is non-null: every leaf whose range the scan covers is observed before its content is read,
     * and every visited slot is read through the access set (so own writes are seen and pending
     * inserts merged in); otherwise reads committed values (weakly consistent).
     *
     * <p>Bounds: {@code fInf}/{@code tInf} mean unbounded on that side; the caller has checked that
     * the range is not inverted. A null {@code visitor} only finds the entries.
     *
     * @return the last entry visited, or null if none
     */
    public final Slot walk(TxnContext ctx, long fk, Object fo, boolean fInc, boolean fInf,
                           long tk, Object to, boolean tInc, boolean tInf,
                           int limit, boolean desc, Object visitor) {
        if (limit <= 0) {
            return null;
        }
        Pending pend = ctx == null ? null : pending(ctx);
        // The cursor: where the part of the range not yet visited starts, in the scan's direction.
        long ck = desc ? tk : fk;
        Object co = desc ? to : fo;
        boolean cInc = desc ? tInc : fInc;
        boolean cInf = desc ? tInf : fInf;
        int step = desc ? -1 : 1;
        int visited = 0;
        Slot last = null;
        Leaf l = null;
        leaves:
        for (int spins = 0;; spins++) {
            if (l == null) {
                l = descend(cInf ? (desc ? LAST : FIRST) : desc && !cInc ? BELOW : CONTAINS, ck, co);
            }
            if (ctx != null) {
                // Before the content is read: an insert the read misses changes this version.
                ctx.observe(ctx.entry(l));
            }
            long v = l.seqAcquire();
            if ((v & Node.LOCKED) != 0) {
                Node.pause(spins);
                continue;
            }
            if ((v & Node.OBSOLETE) != 0) {
                l = null;
                continue;
            }
            boolean covers = cInf ? (desc ? l.hiInf : l.loInf)
                    : desc && !cInc ? holdsBelow(l, ck, co) : contains(l, ck, co);
            int n = l.count;
            int p = !covers ? 0 : !desc ? (cInf ? 0 : bound(l, n, ck, co, !cInc))
                    : (cInf ? n : bound(l, n, ck, co, cInc)) - 1;
            boolean farInf = desc ? l.loInf : l.hiInf;
            long fl = desc ? l.lo : l.hi;
            Object fob = desc ? l.olo : l.ohi;
            Leaf next = l.next;
            if (!l.validate(v)) {
                continue;
            }
            if (!covers) {
                // Split or merged since the descent found it: find the cursor's leaf again.
                l = null;
                continue;
            }
            for (;;) {
                Slot ps = null;
                if (desc ? p >= 0 : p < n) {
                    Slot[] ss = l.slots;
                    ps = p < ss.length ? ss[p] : null;
                    if (ps == null || !l.validate(v)) {
                        // Changed under us: read the leaf again, from the cursor.
                        Node.pause(spins);
                        continue leaves;
                    }
                }
                Slot qs = pend == null ? null : nextPending(pend, ck, co, cInc, cInf, desc);
                if (qs != null && !farInf && (desc ? cmp(qs, fl, fob) < 0 : cmp(qs, fl, fob) >= 0)) {
                    qs = null; // belongs to a leaf further on
                }
                Slot s = ps;
                if (qs != null) {
                    int c = ps == null ? 0 : cmp(qs, ps);
                    if (c == 0 && ps != null) {
                        // Our insert wins over a key another commit published since (we will abort).
                        p += step;
                    }
                    if (ps == null || c == 0 || (desc ? c > 0 : c < 0)) {
                        s = qs;
                    }
                }
                if (s == null) {
                    break;
                }
                if (desc ? !fInf && beyond(s, fk, fo, fInc, -1) : !tInf && beyond(s, tk, to, tInc, 1)) {
                    return last;
                }
                if (s == ps) {
                    p += step;
                }
                ck = s.lkey;
                co = s.okey;
                cInc = false;
                cInf = false;
                Object value = ctx == null ? committedValue(s)
                        : insertOnly && s == ps ? unchangingOrRead(ctx, s) : valueOf(readOrOwn(ctx, s));
                if (value != null) {
                    last = s;
                    if (visitor != null && !emit(visitor, s, value)) {
                        return last;
                    }
                    if (++visited >= limit) {
                        return last;
                    }
                }
            }
            // This leaf is done. Does the range end in it?
            if (farInf || (desc ? !fInf && cmp(fk, fo, fl, fob) >= 0 : !tInf && endsBefore(tk, to, tInc, fl, fob))) {
                return last;
            }
            ck = fl;
            co = fob;
            cInf = false;
            cInc = !desc;
            l = desc ? null : next;
        }
    }

    /** @return true if {@code s} lies beyond the bound {@code b} in direction {@code dir} */
    private boolean beyond(Slot s, long bk, Object bo, boolean inclusive, int dir) {
        int c = Integer.signum(cmp(s, bk, bo)) * dir;
        return c > 0 || (c == 0 && !inclusive);
    }

    /** @return true if every key up to the bound {@code to} lies below the fence {@code hi} */
    private boolean endsBefore(long tk, Object to, boolean tInc, long hk, Object ho) {
        int c = cmp(tk, to, hk, ho);
        return c < 0 || (c == 0 && !tInc);
    }

    private static Entry readOrOwn(TxnContext ctx, Slot s) {
        Entry e = ctx.entry(s);
        if ((e.flags() & (Entry.READ | Entry.WRITE)) == 0) {
            ctx.readRef(s, e);
        }
        return e;
    }

    /**
     * A scan's read of linked slot {@code s} of an insert-only index: without an entry if the
     * protocol allows it. The leaves the scan observed still catch inserts into its range.
     */
    private Object unchangingOrRead(TxnContext ctx, Slot s) {
        Object v = unchangingValue(ctx, s);
        return v != null ? v : valueOf(readOrOwn(ctx, s));
    }

    private Object committedValue(Slot s) {
        Object v = cc.loadRef(s);
        return v == REMOVED || v == ConcurrencyControl.NO_VERSION ? null : v;
    }

    /** @return the first pending insert beyond the cursor in the scan's direction, or null */
    private Slot nextPending(Pending p, long ck, Object co, boolean cInc, boolean cInf, boolean desc) {
        if (p.size == 0) {
            return null;
        }
        if (!desc) {
            int i = cInf ? 0 : pendingBound(p, ck, co, !cInc);
            return i < p.size ? p.slots[i] : null;
        }
        int i = (cInf ? p.size : pendingBound(p, ck, co, cInc)) - 1;
        return i >= 0 ? p.slots[i] : null;
    }

    // ------------------------------------------------------------------ diagnostics

    /**
     * For tests, while no transaction or operation runs: null if every item is quiescent for the
     * protocol and the tree satisfies its invariants, else the first problem found. Invariants: keys
     * strictly ascending in every node and within each leaf's fences; separators route exactly the
     * fences' ranges; leaves all at level 0, chained left to right in key order, fences tiling the
     * whole key space; no node locked or obsolete; no leaf above capacity; with a layout, one prefix
     * per leaf and no leaf reaching below the first key of its keys' prefix; every linked slot alive
     * (not retired, not removed).
     */
    public final String checkQuiescent() {
        String p = cc.checkQuiescent(anchor);
        if (p != null) {
            return "anchor: " + p;
        }
        Leaf[] expectedNext = new Leaf[1];
        p = checkNode(rootAcquire(), true, 0L, null, true, 0L, null, expectedNext, rootAcquire().level);
        if (p != null) {
            return p;
        }
        if (expectedNext[0] == null) {
            return "no leaf reached";
        }
        return expectedNext[0].next != null ? "the last leaf has a next leaf" : null;
    }

    /** Checks the subtree {@code n} whose range is [lo, hi); {@code prevLeaf[0]} is the last leaf visited. */
    private String checkNode(Node n, boolean loInf, long lo, Object olo, boolean hiInf, long hi, Object ohi,
                             Leaf[] prevLeaf, int level) {
        if (n == null) {
            return "null child";
        }
        if (n.level != level) {
            return "node at level " + n.level + " where level " + level + " was expected";
        }
        if (n.isLockedNow() || n.isObsoleteNow()) {
            return "node " + (n.isLockedNow() ? "still locked" : "obsolete but linked") + " at level " + level;
        }
        if (n.count > capacity) {
            return "node at level " + level + " holds " + n.count + " keys, capacity " + capacity;
        }
        for (int i = 0; i < n.count; i++) {
            long k = longKeys ? n.lkeys[i] : 0L;
            Object ok = longKeys ? null : n.okeys[i];
            if (!longKeys && ok == null) {
                return "null key at level " + level;
            }
            if (i > 0 && cmp(longKeys ? n.lkeys[i - 1] : 0L, longKeys ? null : n.okeys[i - 1], k, ok) >= 0) {
                return "keys not ascending at level " + level + " near " + describe(k, ok);
            }
            if ((!loInf && cmp(k, ok, lo, olo) < 0) || (!hiInf && cmp(k, ok, hi, ohi) >= 0)) {
                return "key " + describe(k, ok) + " at level " + level + " outside its range";
            }
        }
        if (n.level == 0) {
            return checkLeaf((Leaf) n, loInf, lo, olo, hiInf, hi, ohi, prevLeaf);
        }
        Inner in = (Inner) n;
        for (int i = 0; i <= in.count; i++) {
            boolean cLoInf = i == 0 ? loInf : false;
            long cLo = i == 0 ? lo : longKeys ? in.lkeys[i - 1] : 0L;
            Object cOlo = i == 0 ? olo : longKeys ? null : in.okeys[i - 1];
            boolean cHiInf = i == in.count ? hiInf : false;
            long cHi = i == in.count ? hi : longKeys ? in.lkeys[i] : 0L;
            Object cOhi = i == in.count ? ohi : longKeys ? null : in.okeys[i];
            String p = checkNode(in.children[i], cLoInf, cLo, cOlo, cHiInf, cHi, cOhi, prevLeaf, level - 1);
            if (p != null) {
                return p;
            }
        }
        for (int i = in.count + 1; i < in.children.length; i++) {
            if (in.children[i] != null) {
                return "stale child beyond the count at level " + level;
            }
        }
        return null;
    }

    private String checkLeaf(Leaf l, boolean loInf, long lo, Object olo, boolean hiInf, long hi, Object ohi,
                             Leaf[] prevLeaf) {
        String where = "leaf [" + (l.loInf ? "-inf" : describe(l.lo, l.olo)) + ", "
                + (l.hiInf ? "+inf" : describe(l.hi, l.ohi)) + ")";
        if (l.loInf != loInf || l.hiInf != hiInf || (!loInf && cmp(l.lo, l.olo, lo, olo) != 0)
                || (!hiInf && cmp(l.hi, l.ohi, hi, ohi) != 0)) {
            return where + ": fences differ from the range its parents route to it ["
                    + (loInf ? "-inf" : describe(lo, olo)) + ", " + (hiInf ? "+inf" : describe(hi, ohi)) + ")";
        }
        Leaf prev = prevLeaf[0];
        if (prev == null ? !loInf : prev.next != l) {
            return where + ": not chained after the previous leaf";
        }
        prevLeaf[0] = l;
        if (cc.isRetired(l)) {
            return where + ": linked but retired";
        }
        String p = cc.checkQuiescent(l);
        if (p != null) {
            return where + ": " + p;
        }
        int n = l.count;
        if (layout && n > 1 && !samePrefix(l.slots[0], l.slots[n - 1])) {
            return where + ": keys of several prefixes";
        }
        if (layout && n > 0 && startsBelowPrefix(l, l.slots[0])) {
            return where + ": starts below the first key of its keys' prefix";
        }
        for (int i = 0; i < n; i++) {
            Slot s = l.slots[i];
            if (s == null || cmp(s.lkey, s.okey, longKeys ? l.lkeys[i] : 0L, longKeys ? null : l.okeys[i]) != 0) {
                return where + ": slot " + i + " does not match its key";
            }
            p = cc.checkQuiescent(s);
            if (p == null && cc.isRetired(s)) {
                p = "retired slot still linked";
            }
            if (p == null) {
                Object v = cc.loadRef(s);
                if (v == null || v == REMOVED || v == ABSENT) {
                    p = "linked slot without a value";
                }
            }
            if (p != null) {
                return where + ", key " + describe(s.lkey, s.okey) + ": " + p;
            }
        }
        for (int i = n; i < l.slots.length; i++) {
            if (l.slots[i] != null) {
                return where + ": stale slot beyond the count";
            }
        }
        return null;
    }
}
