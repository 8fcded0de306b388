package io.jato.collections.internal.sorted;

import java.util.Arrays;

/*
 * Why spares at all: a split links its new leaves with the leaf (and, as it climbs, inner nodes)
 * locked, and nothing may allocate there (an OutOfMemoryError would leave a node locked or half
 * linked). So the inner nodes a split might need are allocated before it changes anything: for
 * each level up to two above the root seen then, one per new part (each part may split one node
 * per level, and a root growth at a level replaces a split there). One level is what the split
 * itself can add; the second covers a concurrent root growth while this split links its parts.
 * Only if the tree grew two levels meanwhile (two root splits, each after its root filled with
 * children, all inside this split's linking) does take() allocate under the split's locks.
 *
 * Why they are recycled: a split almost never uses them (a parent fills up once per `capacity`
 * splits below it), yet a fresh set costs (levels x parts) inner nodes with two arrays each. In
 * TPC-C those unused spares were a third of everything the workload allocated. So an index keeps
 * the spares of its last split (TreeStructure.spares) and the next split takes them over, replacing
 * only the nodes that were used.
 */

/**
 * Inner nodes prepared before a split changes anything, so that linking the split's parts never
 * allocates; and the split's planning arrays. Owned by one split at a time: {@link TreeStructure} hands a set from one split to the
 * next through a volatile field (take by swap, give back by release store), so a set is never
 * used by two threads at once and its plain fields are published by that hand-over.
 */
final class SplitSpares {
    private final boolean longKeys;
    private final int capacity;
    private final int domain;
    /** Per level (index 0 unused): a stack of unused inner nodes of that level, never reachable from the tree. */
    private Inner[][] byLevel = new Inner[0][];
    /** Per level: how many of {@code byLevel[level]}'s first entries are unused nodes. */
    private int[] available = new int[0];
    /** A split's cut positions, reused: only its owner reads or writes it. */
    private int[] cuts = new int[0];
    /** Whether each cut is a prefix boundary, reused like {@link #cuts}. */
    private boolean[] prefixCuts = new boolean[0];

    SplitSpares(boolean longKeys, int capacity, int domain) {
        this.longKeys = longKeys;
        this.capacity = capacity;
        this.domain = domain;
    }

    /**
     * Tops the set up for a split into {@code parts} new parts of a tree whose root is at
     * {@code rootLevel}: at least {@code parts} unused nodes at every level from 1 to
     * {@code rootLevel + 2}. Allocates only what earlier splits used. Call before the split changes
     * anything: an {@code OutOfMemoryError} here leaves this set consistent (each allocated node
     * is counted as it is stored), and the tree untouched.
     */
    void prepare(int rootLevel, int parts) {
        int levels = rootLevel + 3;
        if (byLevel.length < levels) {
            Inner[][] nb = Arrays.copyOf(byLevel, levels);
            int[] na = Arrays.copyOf(available, levels);
            byLevel = nb;
            available = na;
        }
        for (int level = 1; level < levels; level++) {
            Inner[] stack = byLevel[level];
            if (stack == null || stack.length < parts) {
                Inner[] grown = stack == null ? new Inner[parts] : Arrays.copyOf(stack, parts);
                byLevel[level] = grown;
                stack = grown;
            }
            for (int i = available[level]; i < parts; i++) {
                stack[i] = new Inner(level, longKeys, capacity, domain);
                available[level] = i + 1;
            }
        }
    }

    /** @return an array of at least {@code n} cut positions (contents undefined: the planner writes before it reads) */
    int[] cuts(int n) {
        if (cuts.length < n) {
            cuts = new int[Math.max(n, cuts.length * 2)];
        }
        return cuts;
    }

    /** @return an array of at least {@code n} flags, the first {@code n} false */
    boolean[] prefixCuts(int n) {
        if (prefixCuts.length < n) {
            prefixCuts = new boolean[Math.max(n, prefixCuts.length * 2)];
        } else {
            Arrays.fill(prefixCuts, 0, n, false);
        }
        return prefixCuts;
    }

    /** @return an unused inner node of {@code level}; allocates only if {@link #prepare} did not foresee the need */
    Inner take(int level) {
        if (level < byLevel.length) {
            int n = available[level];
            if (n > 0) {
                Inner[] stack = byLevel[level];
                Inner node = stack[n - 1];
                stack[n - 1] = null;
                available[level] = n - 1;
                return node;
            }
        }
        return new Inner(level, longKeys, capacity, domain);
    }

    /** @return how many unused nodes this set holds */
    int unused() {
        int n = 0;
        for (int a : available) {
            n += a;
        }
        return n;
    }
}
