package io.jato.collections.internal.sorted;

/**
 * A leaf: up to capacity keys with their {@link Slot}s, its key range {@code [lo, hi)} and the next
 * leaf. The leaf is also the transactional structure item of that range: scans and absent lookups
 * record its version, and every commit that inserts a key into it, every split and every merge gives
 * it a new version (see {@link SortedIndex}).
 */
final class Leaf extends Node {
    Slot[] slots;
    /** The leaf to the right (keys from {@link #hi}), or null for the last leaf. */
    Leaf next;
    /** Lower fence, inclusive (long form); meaningless if {@link #loInf}. */
    long lo;
    /** Upper fence, exclusive (long form); meaningless if {@link #hiInf}. */
    long hi;
    /** Lower fence (object form). */
    Object olo;
    /** Upper fence (object form). */
    Object ohi;
    boolean loInf;
    boolean hiInf;
    /**
     * With a prefix layout: the lower fence is the first key of a prefix, so this leaf must never be
     * merged into its left neighbour (that would let one leaf span two prefixes).
     */
    boolean loCut;

    Leaf(boolean longKeys, int capacity, int domain) {
        super(0, longKeys, capacity, domain);
        slots = new Slot[capacity];
    }

    /**
     * Gives the leaf the (empty) arrays of {@code donor}, a leaf allocated before the caller locked
     * this one (under its seqlock: readers of the old arrays retry). Allocates nothing.
     */
    void takeArrays(Leaf donor) {
        slots = donor.slots;
        lkeys = donor.lkeys;
        okeys = donor.okeys;
    }
}
