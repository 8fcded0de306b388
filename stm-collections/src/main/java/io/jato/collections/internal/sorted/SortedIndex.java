package io.jato.collections.internal.sorted;

import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/*
 * The engine behind TxSortedMap and TxLongSortedMap (the design essay is at the top of
 * io.jato.collections.TxSortedMap). This header covers the physical tree.
 *
 * Keys. One engine serves both key kinds: every key travels as a pair (long k, Object ok) of which
 * the subclass reads one half (LongKeyIndex the long, ObjectKeyIndex the object), and a node keeps
 * either a long[] or an Object[] of keys. So the long map never boxes, the object map never
 * converts, and the algorithms below exist once. The subclass supplies comparisons, binary search
 * and the prefix layout.
 *
 * Readers (optimistic lock coupling, Leis et al. 2016). A descent reads the root, then at each inner
 * node: its seqlock word, the child for the key, the child's word, and the parent's word again (the
 * child was still the parent's when its word was read). A leaf is read the same way and its fences
 * are checked: a leaf that no longer covers the key (split, merged, obsolete) sends the reader back
 * to the root. Readers never write shared memory.
 *
 * Writers. Every physical change holds the node's seqlock bit, and the only changes are:
 *  - link/unlink a slot in a leaf: the commit install of an insert or delete, or a single()
 *    operation. One leaf lock, no structure change (a leaf may grow past its capacity for a moment).
 *  - fix a leaf (split it into leaves of at most `capacity` keys, cutting at prefix boundaries
 *    first), then link the new leaves into the parents, splitting full inner nodes upwards.
 *  - remove an empty leaf: its range goes to a neighbour, its parent drops the child (and inner
 *    nodes left without children above it go too).
 * Fixes and removals are structure operations, run after the commit that caused them (the
 * participant's cleanup) or by single(): they lock the leaf's transactional item with lockNonTx and
 * release it as changed, so every transaction that observed the leaf's range before the change fails
 * validation - a split or merge is a phantom hazard even though no key changes. Locks are taken in a
 * fixed order - transactional item first, then leaves left to right, then inner nodes bottom-up -
 * and nobody waits for a transactional lock while holding a seqlock, so there is no deadlock.
 *
 * Memory. Java's collector reclaims unlinked nodes; a reader holding a stale pointer finds the node
 * obsolete (or its fences wrong) and restarts. Slots of deleted keys are retired like hash-map nodes.
 */

/**
 * A transactional ordered index over the store's protocol: a B+-tree whose leaves carry the
 * structure versions that make range scans and absent-key lookups serializable. Internal to
 * {@code io.jato.collections}; see {@code TxSortedMap} for what it guarantees.
 */
public abstract class SortedIndex {
    /** Pending value of a buffered delete. */
    static final Object ABSENT = new Object();
    /** Committed value of a deleted slot: it is unlinked and retired. */
    static final Object REMOVED = new Object();
    /** Returned by {@link #compareAt} for an empty key slot: the read is torn. */
    static final int TORN = Integer.MIN_VALUE;
    /**
     * Returned by {@link #probe} when the leaf no longer covers the key. A sentinel only, compared
     * by identity and never handed to a transaction or the protocol, so its domain is irrelevant.
     */
    private static final Slot RETRY = new Slot(0L, null, null, 0);

    private static final int CONTAINS = 0;
    private static final int BELOW = 1;
    private static final int FIRST = 2;
    private static final int LAST = 3;

    /** Default keys per leaf and separators per inner node. */
    public static final int DEFAULT_CAPACITY = 32;
    private static final int MIN_CAPACITY = 4;
    /**
     * Room beyond {@code capacity} in the arrays of a leaf likely to take ascending inserts (the
     * tree's first leaf, and the last part of a split when the key that overflowed the leaf went
     * there). A commit inserting into such a leaf when it is full then links into this room
     * instead of doubling the arrays in {@link #reserveRoom} (arrays the split right after drops):
     * in TPC-C, whose order tables grow by appends, that copying was 13-16% of what a worker
     * allocated. The price is 16 slots and keys (192 bytes with long keys) in those leaves only:
     * under appends one leaf per ascending run, under random inserts about half of the splits'
     * last parts. Other leaves are allocated at capacity and still grow when a commit overflows them.
     */
    static final int ASCENDING_SLACK = 16;
    private static final int MAX_CAPACITY = 1024;

    /** Attempts a removal of an empty leaf makes before leaving it (it is harmless, just empty). */
    private static final int REMOVE_ATTEMPTS = 4;

    private static final VarHandle ROOT;
    private static final VarHandle SPARES;
    private static final AtomicInteger MARKS = new AtomicInteger();

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ROOT = lookup.findVarHandle(SortedIndex.class, "root", Node.class);
            SPARES = lookup.findVarHandle(SortedIndex.class, "spares", SplitSpares.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Stm stm;
    final ConcurrencyControl cc;
    /** Most keys in a leaf after a fix, and most separators in an inner node. */
    final int capacity;
    final boolean longKeys;
    /** Keys of different prefixes never share a leaf. */
    final boolean layout;
    /**
     * The protocol domain of every item of this index: the anchor, every leaf (and, for uniformity,
     * inner node) and every slot that splits and inserts ever create. Asked of the store once, so
     * that the whole map is bound to one protocol: a scan validates leaves and slots together.
     */
    final int domain;
    /** Replaced only by the holder of the old root's seqlock; accessed through {@code ROOT}. */
    @SuppressWarnings("unused")
    private volatile Node root;
    /**
     * The unused inner nodes of the last split, for the next one; null while a split holds them.
     * Taken by swap ({@link #takeSpares}) and given back with a release store once the split has
     * linked its parts, so a set is owned by one split at a time. Accessed through {@code SPARES}.
     */
    @SuppressWarnings("unused")
    private volatile SplitSpares spares;
    /** Never locked or validated: its access-set entry holds the transaction's {@link Pending}. */
    private final TxItem anchor;
    /**
     * Diagnostics: how often link() had to grow a leaf's arrays itself (under the leaf's seqlock).
     * Written under a leaf lock, racily across leaves; a test's single thread reads it exactly.
     */
    private int linkGrowths;
    /** Diagnostics: how often a commit's {@link #reserveRoom} grew a leaf's arrays; written and read as {@link #linkGrowths}. */
    private int roomGrowths;
    /**
     * This index's bit for {@link TxnContext#markInserts}, set when a point lookup finds a key
     * absent: writes skip {@link #checkLookedUpAbsent} when it is clear. Taken from the top of the
     * word (the hash maps take theirs from the bottom); a shared bit only costs an extra lookup.
     */
    private final long absenceMark = 1L << (63 - (MARKS.getAndIncrement() & 63));
    private final Participant participant;

    SortedIndex(Stm stm, boolean longKeys, int capacity, boolean layout) {
        this.stm = stm;
        this.cc = stm.concurrencyControl();
        this.domain = stm.protocolDomain();
        this.anchor = new TxItem(domain);
        this.longKeys = longKeys;
        this.capacity = capacity;
        this.layout = layout;
        Leaf first = new Leaf(longKeys, capacity + ASCENDING_SLACK, domain);
        first.loInf = true;
        first.hiInf = true;
        first.loCut = true;
        ROOT.setRelease(this, first);
        this.participant = new Participant(this);
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

    // ------------------------------------------------------------------ key kind (subclasses)

    /** Compares two keys; may return anything if either object half is a torn (null) read. */
    abstract int cmp(long a, Object oa, long b, Object ob);

    /**
     * Compares key {@code i} of {@code n} with {@code k}.
     *
     * @return the comparison, or {@link #TORN} if there is no key {@code i} in the key array (only
     *         in a torn read: the count and the array were read at different times)
     */
    abstract int compareAt(Node n, int i, long k, Object ok);

    /**
     * @return the first index {@code i < count} of {@code n}'s keys with key &gt; k ({@code upper})
     *         or key &ge; k; some index in {@code [0, count]} if the read is torn
     */
    final int bound(Node n, int count, long k, Object ok, boolean upper) {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = compareAt(n, mid, k, ok);
            if (c == TORN) {
                return mid;
            }
            if (c < 0 || (upper && c == 0)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** @return true if the two slots' keys have the same prefix (only with a layout) */
    abstract boolean samePrefix(Slot a, Slot b);

    /**
     * @return true if leaf {@code l}'s range starts below the first key of {@code first}'s prefix
     *         (only with a layout; null-safe for torn reads, which may answer anything)
     */
    abstract boolean startsBelowPrefix(Leaf l, Slot first);

    /** Sets {@code leaf}'s lower fence to {@code s}'s key, or to the first key of its prefix if {@code cut}. */
    abstract void setLowFence(Leaf leaf, Slot s, boolean cut);

    /**
     * Checks a key about to be inserted (type, prefix function) and returns what the slot keeps of
     * its prefix. Throws {@link IllegalArgumentException} naming the problem.
     */
    abstract Object admit(long k, Object ok);

    /** @return the key as text, for messages */
    abstract String describe(long k, Object ok);

    /** Hands one entry to a visitor of the public API; returns whether the scan goes on. */
    protected abstract boolean emit(Object visitor, Slot s, Object value);

    private int cmp(Slot a, Slot b) {
        return cmp(a.lkey, a.okey, b.lkey, b.okey);
    }

    private int cmp(Slot a, long k, Object ok) {
        return cmp(a.lkey, a.okey, k, ok);
    }

    // ------------------------------------------------------------------ physical reads

    private Node rootAcquire() {
        return (Node) ROOT.getAcquire(this);
    }

    /** Optimistic descent to the leaf for {@code mode}; the caller reads the leaf and checks its fences. */
    private Leaf descend(int mode, long k, Object ok) {
        restart:
        for (int spins = 0;; spins++) {
            Node n = rootAcquire();
            long v = n.seqAcquire();
            if ((v & (Node.LOCKED | Node.OBSOLETE)) != 0) {
                Node.pause(spins);
                continue;
            }
            while (n.level > 0) {
                Inner in = (Inner) n;
                int c = in.count;
                int i = mode == FIRST ? 0 : mode == LAST ? c
                        : bound(in, c, k, ok, mode == CONTAINS);
                Node[] ch = in.children;
                Node child = i < ch.length ? ch[i] : null;
                // The parent is validated once, after the child's word is read: that covers the
                // pointer too (a stale child is harmless to read in Java, and is discarded).
                long cv = child == null ? Node.LOCKED : child.seqAcquire();
                if ((cv & (Node.LOCKED | Node.OBSOLETE)) != 0 || !in.validate(v)) {
                    Node.pause(spins);
                    continue restart;
                }
                n = child;
                v = cv;
            }
            return (Leaf) n;
        }
    }

    /** @return true if {@code k} lies in {@code l}'s range */
    private boolean contains(Leaf l, long k, Object ok) {
        return (l.loInf || cmp(l.lo, l.olo, k, ok) <= 0) && (l.hiInf || cmp(k, ok, l.hi, l.ohi) < 0);
    }

    /** @return true if the keys just below {@code k} lie in {@code l}'s range */
    private boolean holdsBelow(Leaf l, long k, Object ok) {
        return (l.loInf || cmp(l.lo, l.olo, k, ok) < 0) && (l.hiInf || cmp(k, ok, l.hi, l.ohi) <= 0);
    }

    /**
     * Reads {@code l} for {@code k}: the slot of {@code k}, null if {@code k} is absent from it, or
     * {@link #RETRY} if {@code l} does not cover {@code k} (any more).
     */
    private Slot probe(Leaf l, long k, Object ok) {
        for (int spins = 0;; spins++) {
            long v = l.seqAcquire();
            if ((v & Node.LOCKED) != 0) {
                Node.pause(spins);
                continue;
            }
            if ((v & Node.OBSOLETE) != 0) {
                return RETRY;
            }
            boolean in = contains(l, k, ok);
            Slot s = null;
            if (in) {
                int n = l.count;
                int i = bound(l, n, k, ok, false);
                Slot[] ss = l.slots;
                if (i < n && i < ss.length) {
                    Slot c = ss[i];
                    if (c != null && cmp(c, k, ok) == 0) {
                        s = c;
                    }
                }
            }
            if (l.validate(v)) {
                return in ? s : RETRY;
            }
        }
    }

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

    /** @return the value of {@code key} as of this transaction, or null */
    public final Object get(TxnContext ctx, long k, Object ok) {
        Entry e = locate(ctx, k, ok);
        return e == null ? null : valueOf(e);
    }

    /** @return whether {@code key} is present as of this transaction */
    public final boolean containsKey(TxnContext ctx, long k, Object ok) {
        Entry e = locate(ctx, k, ok);
        return e != null && valueOf(e) != null;
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
        for (;;) {
            Leaf l = descend(CONTAINS, k, ok);
            Slot s = probe(l, k, ok);
            if (s == RETRY) {
                continue;
            }
            if (s != null) {
                Entry e = readSlot(ctx, s);
                if (e != null) {
                    return e;
                }
                continue;
            }
            Entry le = ctx.entry(l);
            if (!le.has(Entry.READ)) {
                ctx.observe(le);
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

    /** Maps {@code k} to {@code value} (unless present and {@code onlyIfAbsent}); returns the previous value. */
    public final Object put(TxnContext ctx, long k, Object ok, Object value, boolean onlyIfAbsent) {
        for (;;) {
            Entry e;
            Leaf l = null;
            Slot own = ownInsert(ctx, k, ok);
            if (own != null) {
                e = ctx.find(own);
            } else {
                l = descend(CONTAINS, k, ok);
                Slot s = probe(l, k, ok);
                if (s == RETRY) {
                    continue;
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
            if (current == null || !onlyIfAbsent) {
                checkLookedUpAbsent(ctx, e, k, ok);
                write(ctx, e, value);
            }
            return current;
        }
    }

    /** Removes {@code k}; returns the removed value, or null if it was absent. */
    public final Object remove(TxnContext ctx, long k, Object ok) {
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
                Object value = ctx == null ? committedValue(s) : valueOf(readOrOwn(ctx, s));
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

    // ------------------------------------------------------------------ commit: check, install, cleanup

    /** The index's half of the commit protocol. */
    private static final class Participant implements TxParticipant {
        private final SortedIndex index;

        Participant(SortedIndex index) {
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

    /**
     * Locks (seqlock) the leaf that covers {@code k}, starting from {@code hint}.
     *
     * @return the locked leaf, which covers {@code k} and is not obsolete
     */
    private Leaf lockLeafFor(long k, Object ok, Leaf hint) {
        Leaf l = hint;
        for (;;) {
            if (l == null) {
                l = descend(CONTAINS, k, ok);
            }
            if (l.lock()) {
                if (contains(l, k, ok)) {
                    return l;
                }
                l.unlockUnchanged();
            }
            l = null;
        }
    }

    /**
     * Links slot {@code s} into its leaf (physically; the transactional side is the caller's).
     *
     * @return true if the leaf now needs a fix (too many keys, or several prefixes)
     */
    private boolean link(Slot s) {
        Leaf l = lockLeafFor(s.lkey, s.okey, s.hint);
        boolean changed = false;
        try {
            int n = l.count;
            int i = bound(l, n, s.lkey, s.okey, false);
            if (i < n && cmp(l.slots[i], s) == 0) {
                throw new IllegalStateException("sorted map invariant broken: key " + describe(s.lkey, s.okey)
                        + " is present at insert although its absence was checked at commit");
            }
            if (n == l.slots.length) {
                // A commit's check reserved room (reserveRoom), so only a non-transactional insert
                // gets here. Both arrays are allocated before either is assigned: an
                // OutOfMemoryError leaves the leaf as it was (and unlocked, below).
                linkGrowths++;
                int cap = Math.max(capacity, n * 2);
                Slot[] grown = Arrays.copyOf(l.slots, cap);
                long[] lk = longKeys ? Arrays.copyOf(l.lkeys, cap) : null;
                Object[] ok = longKeys ? null : Arrays.copyOf(l.okeys, cap);
                l.slots = grown;
                if (longKeys) {
                    l.lkeys = lk;
                } else {
                    l.okeys = ok;
                }
            }
            changed = true;
            return insertAt(l, s, i, n);
        } finally {
            if (changed) {
                l.unlock();
            } else {
                l.unlockUnchanged();
            }
        }
    }

    /** @return how often linking a slot had to grow a leaf (diagnostics: 0 for transactional inserts) */
    public final int linkGrowths() {
        return linkGrowths;
    }

    /** @return how often a commit had to grow a leaf's arrays to make room for its inserts (diagnostics) */
    public final int roomGrowths() {
        return roomGrowths;
    }

    /**
     * Test seam: when set, runs just before {@link #reserveRoom} allocates (tests make it throw an
     * {@code OutOfMemoryError}); null otherwise. Read only when a leaf must grow.
     */
    static volatile Runnable roomFault;

    /**
     * Grows leaf {@code l}'s arrays to hold {@code slots} entries if they are smaller. The caller
     * holds the leaf's transactional item, so no slot is linked or unlinked meanwhile. The arrays
     * are allocated before the seqlock is taken: an {@code OutOfMemoryError} changes nothing.
     */
    void reserveRoom(Leaf l, int slots) {
        int len = l.slots.length;
        if (slots <= len) {
            return;
        }
        Runnable fault = roomFault;
        if (fault != null) {
            fault.run();
        }
        int cap = Math.max(slots, len * 2);
        Slot[] grown = new Slot[cap];
        long[] lk = longKeys ? new long[cap] : null;
        Object[] ok = longKeys ? null : new Object[cap];
        if (!l.lock()) {
            // Obsolete: cannot happen while the caller holds the leaf's item; link() then grows.
            return;
        }
        try {
            // Whole arrays, not just the live prefix: a reader racing with a count it read
            // before must still meet the (stale, non-null) keys it would have met.
            roomGrowths++;
            System.arraycopy(l.slots, 0, grown, 0, len);
            if (longKeys) {
                System.arraycopy(l.lkeys, 0, lk, 0, len);
                l.lkeys = lk;
            } else {
                System.arraycopy(l.okeys, 0, ok, 0, len);
                l.okeys = ok;
            }
            l.slots = grown;
        } finally {
            l.unlock();
        }
    }

    /** Shifts {@code s} into locked leaf {@code l} at {@code i} (room for it exists); returns whether the leaf needs a fix. */
    private boolean insertAt(Leaf l, Slot s, int i, int n) {
        System.arraycopy(l.slots, i, l.slots, i + 1, n - i);
        l.slots[i] = s;
        if (longKeys) {
            System.arraycopy(l.lkeys, i, l.lkeys, i + 1, n - i);
            l.lkeys[i] = s.lkey;
        } else {
            System.arraycopy(l.okeys, i, l.okeys, i + 1, n - i);
            l.okeys[i] = s.okey;
        }
        l.count = n + 1;
        return needsFix(l, l.slots, n + 1);
    }

    /**
     * A leaf needs a fix if it holds more than {@code capacity} keys or, with a layout, keys of more
     * than one prefix, or keys of a prefix whose first key lies inside its range (then its range
     * reaches into lower prefixes: a scan of those would observe it, and the inserts under this
     * prefix that change it would abort such scans).
     *
     * @param ss the leaf's slots, read once; null entries (a torn read) answer false
     */
    private boolean needsFix(Leaf l, Slot[] ss, int n) {
        if (n > capacity) {
            return true;
        }
        if (!layout || n == 0 || n > ss.length) {
            return false;
        }
        Slot first = ss[0];
        Slot last = ss[n - 1];
        return first != null && last != null && (!samePrefix(first, last) || startsBelowPrefix(l, first));
    }

    /**
     * Unlinks slot {@code s} from its leaf.
     *
     * @return true if the leaf is now empty (a candidate for removal)
     */
    private boolean unlink(Slot s) {
        Leaf l = lockLeafFor(s.lkey, s.okey, null);
        int n;
        try {
            n = l.count;
            int i = bound(l, n, s.lkey, s.okey, false);
            if (i >= n || l.slots[i] != s) {
                throw new IllegalStateException("sorted map invariant broken: deleted key " + describe(s.lkey, s.okey)
                        + " is not in the leaf that covers it");
            }
            removeAt(l, i, n);
        } catch (Throwable t) {
            l.unlockUnchanged();
            throw t;
        }
        l.unlock();
        return n == 1;
    }

    /** Removes slot {@code i} of locked leaf {@code l} (no allocation). */
    private void removeAt(Leaf l, int i, int n) {
        System.arraycopy(l.slots, i + 1, l.slots, i, n - i - 1);
        // Keys keep their last (duplicate) entry: a torn read never meets a null key.
        if (longKeys) {
            System.arraycopy(l.lkeys, i + 1, l.lkeys, i, n - i - 1);
        } else {
            System.arraycopy(l.okeys, i + 1, l.okeys, i, n - i - 1);
        }
        l.slots[n - 1] = null;
        l.count = n - 1;
    }

    // ------------------------------------------------------------------ structure: fix (split)

    /**
     * Runs a structure operation on leaf {@code l} with its transactional item locked (lockNonTx),
     * so that no commit changes the leaf meanwhile; the item gets a new version (and, for a removal,
     * is retired) if the operation changed the leaf.
     *
     * @param op returns 1 if it changed the leaf, 0 if nothing was to be done, -1 to look again
     * @return the operation's result, or -1 if the leaf was retired before it could run
     */
    private int withItemLocked(Leaf l, boolean retire, ToIntFunction<Leaf> op) {
        long w = cc.lockNonTx(l);
        if (w == ConcurrencyControl.RETIRED_ITEM) {
            return -1;
        }
        int r = 0;
        try {
            r = op.applyAsInt(l);
        } finally {
            cc.unlockNonTx(l, w, r > 0, retire && r > 0);
        }
        return r;
    }

    /** Splits the leaf holding {@code trigger}'s key until every part is within capacity and of one prefix. */
    final void fixLeaf(Slot trigger) {
        long k = trigger.lkey;
        Object ok = trigger.okey;
        for (;;) {
            Leaf l = descend(CONTAINS, k, ok);
            long v = l.seqAcquire();
            boolean check = (v & (Node.LOCKED | Node.OBSOLETE)) == 0 && contains(l, k, ok);
            boolean needed = check && needsFix(l, l.slots, l.count);
            if (check && l.validate(v) && !needed) {
                return;
            }
            if (withItemLocked(l, false, locked -> splitLocked(locked, k, ok, trigger)) >= 0) {
                return;
            }
        }
    }

    /**
     * With {@code l}'s transactional item locked: splits it if it covers {@code k} and needs it.
     *
     * @return 1 if split, 0 if nothing was needed, -1 if {@code l} does not cover {@code k} (look again)
     */
    private int splitLocked(Leaf l, long k, Object ok, Slot trigger) {
        if (!l.lock()) {
            return -1;
        }
        // Everything the split allocates is allocated before the first store into a reachable
        // node: an OutOfMemoryError up to there leaves the tree as it was and the leaf unlocked.
        // The new leaves stay unreachable until linked, and inner nodes come from spares.
        Leaf[] parts;
        int m;
        int n;
        SplitSpares spares;
        Leaf donor;
        int[] cuts;
        boolean[] prefixCut;
        try {
            if (!contains(l, k, ok)) {
                l.unlockUnchanged();
                return -1;
            }
            n = l.count;
            if (!needsFix(l, l.slots, n)) {
                l.unlockUnchanged();
                return 0;
            }
            spares = takeSpares();
            cuts = spares.cuts(n);
            prefixCut = spares.prefixCuts(n);
            m = planCuts(l, n, trigger, cuts, prefixCut);
            // The key whose insert overflowed the leaf goes to the last part: inserts ascend here
            // (appends), so that part will take the next ones.
            boolean ascending = m > 0 && bound(l, n, trigger.lkey, trigger.okey, false) >= cuts[m - 1];
            parts = newParts(l, n, m, cuts, prefixCut, ascending);
            donor = new Leaf(longKeys, capacity, domain);
            spares.prepare(rootAcquire().level, m);
        } catch (Throwable t) {
            l.unlockUnchanged();
            throw t;
        }
        linkParts(l, n, m, cuts, parts, donor, spares);
        // What linking did not use serves the next split (SplitSpares says why).
        SPARES.setRelease(this, spares);
        return 1;
    }

    /**
     * Fills {@code cuts}/{@code prefixCut} with where the leaf's {@code n} slots are cut.
     *
     * @return the number of cuts
     */
    private int planCuts(Leaf l, int n, Slot trigger, int[] cuts, boolean[] prefixCut) {
        // Cut points: the first key's prefix start if the leaf reaches below it (the left part is
        // then empty), every prefix boundary, then runs longer than capacity in even parts - or, when
        // the insert that overflowed was the leaf's last key (ascending inserts), full parts first.
        int m = 0;
        if (layout && startsBelowPrefix(l, l.slots[0])) {
            prefixCut[m] = true;
            cuts[m++] = 0;
        }
        boolean packLeft = l.slots[n - 1] == trigger;
        int runStart = 0;
        for (int i = 1; i <= n; i++) {
            boolean boundary = i < n && layout && !samePrefix(l.slots[i - 1], l.slots[i]);
            if (i == n || boundary) {
                int len = i - runStart;
                int parts = (len + capacity - 1) / capacity;
                for (int j = 1; j < parts; j++) {
                    cuts[m++] = runStart + (packLeft ? j * capacity : (int) ((long) len * j / parts));
                }
                if (boundary) {
                    prefixCut[m] = true;
                    cuts[m++] = i;
                }
                runStart = i;
            }
        }
        return m;
    }

    /**
     * @param ascending whether inserts ascend into {@code l}: the last part then gets
     *                  {@link #ASCENDING_SLACK} room beyond capacity
     * @return the leaf {@code l} followed by its {@code m} new right parts, locked and not yet reachable
     */
    private Leaf[] newParts(Leaf l, int n, int m, int[] cuts, boolean[] prefixCut, boolean ascending) {
        Slot[] all = l.slots;
        Leaf oldNext = l.next;
        Leaf[] parts = new Leaf[m + 1];
        parts[0] = l;
        for (int j = 0; j < m; j++) {
            int from = cuts[j];
            int to = j + 1 < m ? cuts[j + 1] : n;
            Leaf r = newLeaf(all, from, to, ascending && j == m - 1 ? capacity + ASCENDING_SLACK : capacity);
            // Locked until linked everywhere: nobody may split it while we still link its siblings.
            r.initLocked();
            setLowFence(r, all[from], prefixCut[j]);
            r.loCut = prefixCut[j];
            parts[j + 1] = r;
        }
        for (int j = 1; j <= m; j++) {
            Leaf r = parts[j];
            if (j < m) {
                r.hi = parts[j + 1].lo;
                r.ohi = parts[j + 1].olo;
            } else {
                r.hi = l.hi;
                r.ohi = l.ohi;
                r.hiInf = l.hiInf;
            }
            r.next = j < m ? parts[j + 1] : oldNext;
        }
        return parts;
    }

    /** Makes the new parts reachable: no allocation (arrays from {@code donor}, inner nodes from {@code spares}). */
    private void linkParts(Leaf l, int n, int m, int[] cuts, Leaf[] parts, Leaf donor, SplitSpares spares) {
        Slot[] all = l.slots;
        // The left part keeps l's identity (and lower fence); fresh arrays drop the moved entries.
        l.takeArrays(donor);
        fill(l, all, 0, cuts[0]);
        l.hi = parts[1].lo;
        l.ohi = parts[1].olo;
        l.hiInf = false;
        l.next = parts[1];
        for (int j = 1; j <= m; j++) {
            insertIntoParent(parts[j - 1], parts[j].lo, parts[j].olo, parts[j], spares);
        }
        for (int j = m; j >= 0; j--) {
            parts[j].unlock();
        }
    }

    /** @return the last split's spares if no other split holds them, else a new, empty set */
    private SplitSpares takeSpares() {
        SplitSpares s = (SplitSpares) SPARES.getAndSet(this, null);
        return s != null ? s : new SplitSpares(longKeys, capacity, domain);
    }

    /** @return how many unused inner nodes are kept for the next split (diagnostics) */
    public final int keptSpares() {
        SplitSpares s = (SplitSpares) SPARES.getAcquire(this);
        return s == null ? 0 : s.unused();
    }

    /** @return a new unlinked leaf with arrays of {@code length} holding {@code all[from, to)} (at most {@code capacity} slots) */
    private Leaf newLeaf(Slot[] all, int from, int to, int length) {
        Leaf r = new Leaf(longKeys, length, domain);
        fill(r, all, from, to);
        return r;
    }

    /** Copies {@code all[from, to)} into the empty arrays of {@code r}. */
    private void fill(Leaf r, Slot[] all, int from, int to) {
        System.arraycopy(all, from, r.slots, 0, to - from);
        for (int i = from; i < to; i++) {
            if (longKeys) {
                r.lkeys[i - from] = all[i].lkey;
            } else {
                r.okeys[i - from] = all[i].okey;
            }
        }
        r.count = to - from;
    }

    /**
     * Links {@code right} (just split off {@code left}, which the caller holds locked) into the tree
     * under separator {@code sep}, splitting full inner nodes upwards.
     */
    private void insertIntoParent(Node left, long sk, Object so, Node right, SplitSpares spares) {
        for (int spins = 0;; spins++) {
            if (rootAcquire() == left) {
                // Only the holder of the root's lock replaces the root.
                Inner r = spares.take(left.level + 1);
                setKey(r, 0, sk, so);
                r.children[0] = left;
                r.children[1] = right;
                r.count = 1;
                ROOT.setRelease(this, r);
                return;
            }
            Inner parent = findParent(left, sk, so);
            if (parent == null || !parent.lock()) {
                Node.pause(spins);
                continue;
            }
            int c = parent.count;
            int i = bound(parent, c, sk, so, true);
            if (parent.children[i] != left) {
                // The parent split (or the root grew) since we found it.
                parent.unlockUnchanged();
                Node.pause(spins);
                continue;
            }
            if (c < capacity) {
                insertChild(parent, i, sk, so, right);
                parent.unlock();
                return;
            }
            // Full: move the upper half to a new node, then link that node one level up.
            int mid = c / 2;
            Inner upper = spares.take(parent.level);
            int moved = c - mid - 1;
            copyKeys(parent, mid + 1, upper, 0, moved);
            System.arraycopy(parent.children, mid + 1, upper.children, 0, moved + 1);
            upper.count = moved;
            long uk = longKeys ? parent.lkeys[mid] : 0L;
            Object uo = longKeys ? null : parent.okeys[mid];
            Arrays.fill(parent.children, mid + 1, c + 1, null);
            parent.count = mid;
            if (i <= mid) {
                insertChild(parent, i, sk, so, right);
            } else {
                insertChild(upper, i - mid - 1, sk, so, right);
            }
            insertIntoParent(parent, uk, uo, upper, spares);
            parent.unlock();
            return;
        }
    }

    /** Inserts separator {@code sep} at {@code i} and {@code right} as child {@code i + 1}. */
    private void insertChild(Inner n, int i, long sk, Object so, Node right) {
        int c = n.count;
        copyKeys(n, i, n, i + 1, c - i);
        setKey(n, i, sk, so);
        System.arraycopy(n.children, i + 1, n.children, i + 2, c - i);
        n.children[i + 1] = right;
        n.count = c + 1;
    }

    private void copyKeys(Node from, int fi, Node to, int ti, int len) {
        if (longKeys) {
            System.arraycopy(from.lkeys, fi, to.lkeys, ti, len);
        } else {
            System.arraycopy(from.okeys, fi, to.okeys, ti, len);
        }
    }

    private void setKey(Node n, int i, long k, Object ok) {
        if (longKeys) {
            n.lkeys[i] = k;
        } else {
            n.okeys[i] = ok;
        }
    }

    /** @return the inner node that has {@code child} as a child on the way to key {@code k} (optimistic), or null */
    private Inner findParent(Node child, long k, Object ok) {
        for (int spins = 0;; spins++) {
            Node n = rootAcquire();
            long v = n.seqAcquire();
            if ((v & (Node.LOCKED | Node.OBSOLETE)) != 0 || n.level <= child.level) {
                return null;
            }
            boolean ok2 = true;
            while (n.level > child.level + 1) {
                Inner in = (Inner) n;
                int i = bound(in, in.count, k, ok, true);
                Node[] ch = in.children;
                Node next = i < ch.length ? ch[i] : null;
                if (next == null || !in.validate(v)) {
                    ok2 = false;
                    break;
                }
                long nv = next.seqAcquire();
                if ((nv & (Node.LOCKED | Node.OBSOLETE)) != 0 || !in.validate(v)) {
                    ok2 = false;
                    break;
                }
                n = next;
                v = nv;
            }
            if (ok2) {
                return (Inner) n;
            }
            Node.pause(spins);
        }
    }

    // ------------------------------------------------------------------ structure: remove an empty leaf

    /** Removes the leaf that covers {@code k} if it is empty and removable; gives up quietly otherwise. */
    final void removeEmptyLeaf(long k, Object ok) {
        for (int attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
            Leaf l = descend(CONTAINS, k, ok);
            long v = l.seqAcquire();
            boolean empty = l.count == 0;
            if ((v & (Node.LOCKED | Node.OBSOLETE)) != 0 || !l.validate(v)) {
                continue;
            }
            if (!empty) {
                return;
            }
            if (withItemLocked(l, true, this::removeLocked) >= 0) {
                return;
            }
        }
    }

    /**
     * With {@code l}'s transactional item locked: unlinks {@code l} if it is empty and not needed.
     * Its range goes to the left neighbour (extending its upper fence) when {@code l} is not the
     * first child of the lowest ancestor with two children, else to the right neighbour (extending
     * its lower fence); with a prefix layout, never across a prefix boundary.
     *
     * @return 1 if removed, 0 if it must stay, -1 if the tree changed meanwhile (try again)
     */
    private int removeLocked(Leaf l) {
        Node[] path = new Node[rootAcquire().level + 2];
        int[] idx = new int[path.length];
        int d = findPath(l, path, idx);
        if (d < 0) {
            return -1;
        }
        int a = d - 1;
        while (a >= 0 && path[a].count == 0) {
            a--;
        }
        if (a < 0) {
            return 0; // the only leaf
        }
        boolean mergeLeft = idx[a] > 0;
        Leaf prev = null;
        Leaf next = null;
        int locked = 0;
        Node[] held = new Node[d + 3];
        boolean done = false;
        try {
            if (!l.loInf) {
                prev = descend(BELOW, l.lo, l.olo);
                if (!prev.lock()) {
                    return -1;
                }
                held[locked++] = prev;
                if (prev.next != l) {
                    return -1;
                }
            }
            if (!l.lock()) {
                return -1;
            }
            held[locked++] = l;
            if (l.count != 0) {
                return 0;
            }
            if (!mergeLeft) {
                next = l.next;
                if (next == null || !next.lock()) {
                    return -1;
                }
                held[locked++] = next;
                if (next.loCut) {
                    return 0;
                }
            } else if (l.loCut || prev == null) {
                return 0;
            }
            for (int j = d - 1; j >= a; j--) {
                Node n = path[j];
                if (!n.lock()) {
                    return -1;
                }
                held[locked++] = n;
                Inner in = (Inner) n;
                if (in.children[idx[j]] != path[j + 1] || (j > a && in.count != 0) || (j == a && in.count == 0)) {
                    return -1;
                }
            }
            Inner anc = (Inner) path[a];
            int i = idx[a];
            if (mergeLeft) {
                removeChild(anc, i - 1, i);
                prev.hi = l.hi;
                prev.ohi = l.ohi;
                prev.hiInf = l.hiInf;
            } else {
                removeChild(anc, 0, 0);
                next.lo = l.lo;
                next.olo = l.olo;
                next.loInf = l.loInf;
                next.loCut = l.loCut;
            }
            if (prev != null) {
                prev.next = l.next;
            }
            done = true;
            return 1;
        } finally {
            // Unlinked nodes (l and the inner nodes between it and the ancestor) stay obsolete.
            for (int j = locked - 1; j >= 0; j--) {
                Node h = held[j];
                if (!done) {
                    h.unlockUnchanged();
                } else if (h == prev || h == next || h == path[a]) {
                    h.unlock();
                } else {
                    h.unlockObsolete();
                }
            }
        }
    }

    /** Removes separator {@code ki} and child {@code ci} of {@code n}. */
    private void removeChild(Inner n, int ki, int ci) {
        int c = n.count;
        copyKeys(n, ki + 1, n, ki, c - ki - 1);
        System.arraycopy(n.children, ci + 1, n.children, ci, c - ci);
        n.children[c] = null;
        n.count = c - 1;
    }

    /**
     * Fills {@code path[0..d]} with the nodes from the root down to {@code l} and {@code idx[j]}
     * with the index of {@code path[j+1]} in {@code path[j]}. Optimistic: the caller verifies the
     * links under the nodes' locks.
     *
     * @return {@code d}, or -1 if the walk did not reach {@code l}
     */
    private int findPath(Leaf l, Node[] path, int[] idx) {
        boolean first = l.loInf;
        long k = l.lo;
        Object ok = l.olo;
        Node n = rootAcquire();
        int d = 0;
        long v = n.seqAcquire();
        while (n.level > 0) {
            if ((v & (Node.LOCKED | Node.OBSOLETE)) != 0 || d >= path.length - 1) {
                return -1;
            }
            Inner in = (Inner) n;
            int i = first ? 0 : bound(in, in.count, k, ok, true);
            Node[] ch = in.children;
            Node child = i < ch.length ? ch[i] : null;
            if (child == null || !in.validate(v)) {
                return -1;
            }
            path[d] = in;
            idx[d] = i;
            d++;
            n = child;
            v = n.seqAcquire();
        }
        if (n != l) {
            return -1;
        }
        path[d] = l;
        return d;
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

    /** Maps {@code k} to {@code value} unless present and {@code onlyIfAbsent}; returns the previous value. */
    public final Object singlePut(long k, Object ok, Object value, boolean onlyIfAbsent) {
        Object prefix = admit(k, ok);
        for (;;) {
            Slot s = findSlot(k, ok);
            if (s != null) {
                Object old = replaceCommitted(s, value, onlyIfAbsent);
                if (old != RETRY) {
                    return old;
                }
                continue;
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

    /** Removes {@code k}; returns the removed value or null. */
    public final Object singleRemove(long k, Object ok) {
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
