package io.jato.collections.internal.sorted;

import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.ToIntFunction;

/**
 * The structure operations of a {@link SortedIndex}, the layer of its class chain above
 * {@link SortedTree}: fixing a leaf (splitting it into leaves of at most {@code capacity} keys and,
 * with a layout, one prefix each, then linking the parts into the inner nodes, splitting full ones
 * upwards) and removing an empty leaf. The lock order and why a structure change is a phantom
 * hazard are in the header of SortedTree.java.
 *
 * <p>What the layers above rely on. {@link #fixLeaf} and {@link #removeEmptyLeaf} run after the
 * commit or {@code single()} operation that asked for them. Each locks the leaf's transactional
 * item (lockNonTx) and, if it changed the leaf, releases it with a new version (retired, for a
 * removed leaf), so every transaction that observed the leaf's range fails validation. A split
 * allocates everything before its first store into a reachable node (inner nodes come from the
 * spares), so an {@code OutOfMemoryError} leaves the tree as it was, with no node locked. A fix
 * returns when the leaf that covers the key needs no fix or has been split; a removal gives up
 * quietly when the leaf is not empty or must stay, or after a few attempts (an empty leaf is
 * harmless).
 */
abstract class TreeStructure extends SortedTree {
    /** Attempts a removal of an empty leaf makes before leaving it (it is harmless, just empty). */
    private static final int REMOVE_ATTEMPTS = 4;

    private static final VarHandle SPARES;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SPARES = lookup.findVarHandle(TreeStructure.class, "spares", SplitSpares.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The unused inner nodes of the last split, for the next one; null while a split holds them.
     * Taken by swap ({@link #takeSpares}) and given back with a release store once the split has
     * linked its parts, so a set is owned by one split at a time. Accessed through {@code SPARES}.
     */
    @SuppressWarnings("unused")
    private volatile SplitSpares spares;

    TreeStructure(Stm stm, boolean longKeys, int capacity, boolean layout) {
        super(stm, longKeys, capacity, layout);
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
}
