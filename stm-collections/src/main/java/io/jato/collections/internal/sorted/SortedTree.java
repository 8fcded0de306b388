package io.jato.collections.internal.sorted;

import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/*
 * The physical tree of a SortedIndex: the bottom layer of its class chain (the layers are listed
 * at the top of SortedIndex.java). This header covers the physical tree.
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
 *  - link/unlink a slot in a leaf (here): the commit install of an insert or delete, or a single()
 *    operation. One leaf lock, no structure change (a leaf may grow past its capacity for a moment).
 *  - fix a leaf (TreeStructure; split it into leaves of at most `capacity` keys, cutting at prefix
 *    boundaries first), then link the new leaves into the parents, splitting full inner nodes upwards.
 *  - remove an empty leaf (TreeStructure): its range goes to a neighbour, its parent drops the child
 *    (and inner nodes left without children above it go too).
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
 * The physical B+-tree under a {@link SortedIndex}, the bottom layer of its class chain: the
 * tree's fields (root, capacity, key kind, prefix layout, protocol domain), the key kinds'
 * comparisons (the subclasses {@link LongKeyIndex} and {@link ObjectKeyIndex} supply them),
 * optimistic reads and the changes of one leaf: linking and unlinking a slot, making room for a
 * commit's inserts.
 *
 * <p>What the layers above rely on. A read ({@link #descend}, {@link #probe}) writes no shared
 * memory and answers from a validated snapshot of the nodes it read ({@link #probe}: the slot,
 * null, or {@link #RETRY} if the leaf no longer covers the key). The root is replaced only by the
 * holder of the old root's seqlock, with a release store ({@link #ROOT}). {@link #link} and
 * {@link #unlink} change one leaf under its seqlock and nothing else; {@link #link} allocates only
 * when no commit check made room with {@link #reserveRoom}. The transactional side (the slot's
 * value and version, holding the leaf's transactional item while the leaf must not change) is the
 * callers'. What a layer above calls here is final or static (the key kind's methods are final
 * in the two subclasses), so the JIT binds every such call statically.
 */
abstract class SortedTree {
    /** Returned by {@link #compareAt} for an empty key slot: the read is torn. */
    static final int TORN = Integer.MIN_VALUE;
    /**
     * Returned by {@link #probe} when the leaf no longer covers the key. A sentinel only, compared
     * by identity and never handed to a transaction or the protocol, so its domain is irrelevant.
     */
    static final Slot RETRY = new Slot(0L, null, null, 0);

    static final int CONTAINS = 0;
    static final int BELOW = 1;
    static final int FIRST = 2;
    static final int LAST = 3;

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

    static final VarHandle ROOT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ROOT = lookup.findVarHandle(SortedTree.class, "root", Node.class);
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
     * Diagnostics: how often link() had to grow a leaf's arrays itself (under the leaf's seqlock).
     * Written under a leaf lock, racily across leaves; a test's single thread reads it exactly.
     */
    private int linkGrowths;
    /** Diagnostics: how often a commit's {@link #reserveRoom} grew a leaf's arrays; written and read as {@link #linkGrowths}. */
    private int roomGrowths;

    SortedTree(Stm stm, boolean longKeys, int capacity, boolean layout) {
        this.stm = stm;
        this.cc = stm.concurrencyControl();
        this.domain = stm.protocolDomain();
        this.longKeys = longKeys;
        this.capacity = capacity;
        this.layout = layout;
        Leaf first = new Leaf(longKeys, capacity + ASCENDING_SLACK, domain);
        first.loInf = true;
        first.hiInf = true;
        first.loCut = true;
        ROOT.setRelease(this, first);
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

    final int cmp(Slot a, Slot b) {
        return cmp(a.lkey, a.okey, b.lkey, b.okey);
    }

    final int cmp(Slot a, long k, Object ok) {
        return cmp(a.lkey, a.okey, k, ok);
    }

    // ------------------------------------------------------------------ physical reads

    final Node rootAcquire() {
        return (Node) ROOT.getAcquire(this);
    }

    /** Optimistic descent to the leaf for {@code mode}; the caller reads the leaf and checks its fences. */
    final Leaf descend(int mode, long k, Object ok) {
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
    final boolean contains(Leaf l, long k, Object ok) {
        return (l.loInf || cmp(l.lo, l.olo, k, ok) <= 0) && (l.hiInf || cmp(k, ok, l.hi, l.ohi) < 0);
    }

    /** @return true if the keys just below {@code k} lie in {@code l}'s range */
    final boolean holdsBelow(Leaf l, long k, Object ok) {
        return (l.loInf || cmp(l.lo, l.olo, k, ok) < 0) && (l.hiInf || cmp(k, ok, l.hi, l.ohi) <= 0);
    }

    /**
     * Reads {@code l} for {@code k}: the slot of {@code k}, null if {@code k} is absent from it, or
     * {@link #RETRY} if {@code l} does not cover {@code k} (any more).
     */
    final Slot probe(Leaf l, long k, Object ok) {
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

    // ------------------------------------------------------------------ changes of one leaf

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
    final boolean link(Slot s) {
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
    final void reserveRoom(Leaf l, int slots) {
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
    final boolean needsFix(Leaf l, Slot[] ss, int n) {
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
    final boolean unlink(Slot s) {
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
}
