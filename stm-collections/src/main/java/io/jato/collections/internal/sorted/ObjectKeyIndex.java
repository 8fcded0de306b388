package io.jato.collections.internal.sorted;

import io.jato.stm.Stm;

import java.util.Comparator;
import java.util.function.UnaryOperator;

/**
 * The index over object keys ordered by a comparator (natural ordering if none is given). A
 * {@link ClassCastException} from a comparison becomes an {@link IllegalArgumentException} that
 * names both key types. The optional prefix layout takes a function from a key to the first key of
 * its prefix. The facade implements {@link #emit} for its visitor type.
 */
public abstract class ObjectKeyIndex extends SortedIndex {
    private static final Comparator<Object> NATURAL = ObjectKeyIndex::compareNaturally;

    private final Comparator<Object> comparator;
    private final boolean natural;
    /** Null for no layout. */
    private final UnaryOperator<Object> prefixStart;

    /**
     * @param comparator  the key order, or null for natural ordering
     * @param prefixStart null for no prefix layout, else key &rarr; the first key of its prefix
     */
    @SuppressWarnings("unchecked")
    protected ObjectKeyIndex(Stm stm, int capacity, Comparator<?> comparator, UnaryOperator<?> prefixStart,
                             boolean insertOnly) {
        super(stm, false, capacity, prefixStart != null, insertOnly);
        this.natural = comparator == null;
        this.comparator = natural ? NATURAL : (Comparator<Object>) comparator;
        this.prefixStart = (UnaryOperator<Object>) prefixStart;
    }

    @SuppressWarnings("unchecked")
    private static int compareNaturally(Object a, Object b) {
        return ((Comparable<Object>) a).compareTo(b);
    }

    /** Compares two keys, naming both types if the order cannot compare them. */
    final int compare(Object a, Object b) {
        try {
            return comparator.compare(a, b);
        } catch (ClassCastException e) {
            throw new IllegalArgumentException("keys of types " + a.getClass().getName() + " and "
                    + b.getClass().getName() + " cannot be compared by this map's "
                    + (natural ? "natural ordering (keys must be mutually Comparable)" : "comparator")
                    + ": " + e.getMessage(), e);
        }
    }

    @Override
    final int cmp(long a, Object oa, long b, Object ob) {
        // A null is only ever a torn read, which the caller's validation discards.
        return oa == null || ob == null ? 0 : compare(oa, ob);
    }

    @Override
    final int compareAt(Node n, int i, long k, Object ok) {
        Object[] keys = n.okeys;
        Object x = i < keys.length ? keys[i] : null;
        if (x == null) {
            return TORN;
        }
        int c = compare(x, ok);
        // A comparator may return Integer.MIN_VALUE (TORN); only the sign matters.
        return c == TORN ? -1 : c;
    }

    @Override
    final boolean samePrefix(Slot a, Slot b) {
        return compare(a.prefix, b.prefix) == 0;
    }

    @Override
    final boolean startsBelowPrefix(Leaf l, Slot first) {
        return l.loInf || cmp(0L, l.olo, 0L, first.prefix) < 0;
    }

    @Override
    final void setLowFence(Leaf leaf, Slot s, boolean cut) {
        leaf.olo = cut ? s.prefix : s.okey;
    }

    @Override
    final Object admit(long k, Object ok) {
        // The type check TreeMap makes: a key must at least compare with itself.
        compare(ok, ok);
        if (prefixStart == null) {
            return null;
        }
        Object p = prefixStart.apply(ok);
        if (p == null) {
            throw new IllegalArgumentException("the prefix layout's function returned null for key " + ok);
        }
        if (compare(p, ok) > 0) {
            throw new IllegalArgumentException("the prefix layout's function returned " + p + " for key " + ok
                    + ", which is greater than the key: it must return the first key of the key's prefix");
        }
        return p;
    }

    @Override
    final String describe(long k, Object ok) {
        return String.valueOf(ok);
    }
}
