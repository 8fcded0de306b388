package io.jato.collections.internal.sorted;

import io.jato.stm.Stm;

/**
 * The index over primitive {@code long} keys, ordered as signed longs: keys live unboxed in
 * {@code long[]} nodes and compare with one instruction. The optional prefix layout groups keys by
 * their high bits: keys equal after an arithmetic shift right by {@code suffixBits} share a prefix.
 * The facade implements {@link #emit} for its visitor type.
 */
public abstract class LongKeyIndex extends SortedIndex {
    /** 0 for no layout. */
    private final int suffixBits;

    /**
     * @param capacity   keys per leaf and separators per inner node
     * @param suffixBits 0 for no prefix layout, else the number of low bits that vary within a prefix
     */
    protected LongKeyIndex(Stm stm, int capacity, int suffixBits, boolean insertOnly) {
        super(stm, true, capacity, suffixBits > 0, insertOnly);
        this.suffixBits = suffixBits;
    }

    @Override
    final int cmp(long a, Object oa, long b, Object ob) {
        return Long.compare(a, b);
    }

    @Override
    final int compareAt(Node n, int i, long k, Object ok) {
        long[] keys = n.lkeys;
        if (i >= keys.length) {
            return TORN;
        }
        long x = keys[i];
        return x < k ? -1 : x == k ? 0 : 1;
    }

    @Override
    final boolean samePrefix(Slot a, Slot b) {
        return (a.lkey >> suffixBits) == (b.lkey >> suffixBits);
    }

    @Override
    final boolean startsBelowPrefix(Leaf l, Slot first) {
        return l.loInf || l.lo < (first.lkey >> suffixBits) << suffixBits;
    }

    @Override
    final void setLowFence(Leaf leaf, Slot s, boolean cut) {
        leaf.lo = cut ? (s.lkey >> suffixBits) << suffixBits : s.lkey;
    }

    @Override
    final Object admit(long k, Object ok) {
        return null;
    }

    @Override
    final String describe(long k, Object ok) {
        return Long.toString(k);
    }
}
