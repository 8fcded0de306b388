package io.jato.collections.internal.sorted;

import io.jato.stm.spi.Scratch;

import java.util.Arrays;

/**
 * One transaction's bookkeeping for one index, hung off the index's anchor entry; pooled
 * ({@link #KIND}), so transactions allocate none of it in steady state:
 * <ul>
 *   <li>its buffered inserts, sorted by key: how a transaction finds its own inserts (point
 *       operations and scans) before they are in the tree;</li>
 *   <li>the keys its point lookups found absent, sorted by key (each key once, in both forms,
 *       only one of which the index reads): a later write to such a key that finds it present
 *       aborts (see {@code SortedIndex#checkLookedUpAbsent}).</li>
 * </ul>
 */
final class Pending implements Scratch.Pooled {
    static final Scratch<Pending> KIND = Scratch.of(Pending::new);

    Slot[] slots = new Slot[8];
    int size;

    /** Keys looked up absent (long form); allocated on first use. */
    long[] absentLong;
    /** Keys looked up absent (object form); allocated on first use. */
    Object[] absentObj;
    int absentSize;

    void insertAt(int i, Slot s) {
        if (size == slots.length) {
            slots = Arrays.copyOf(slots, size * 2);
        }
        System.arraycopy(slots, i, slots, i + 1, size - i);
        slots[i] = s;
        size++;
    }

    void insertAbsentAt(int i, long k, Object ok) {
        if (absentLong == null) {
            absentLong = new long[8];
            absentObj = new Object[8];
        } else if (absentSize == absentLong.length) {
            absentLong = Arrays.copyOf(absentLong, absentSize * 2);
            absentObj = Arrays.copyOf(absentObj, absentSize * 2);
        }
        System.arraycopy(absentLong, i, absentLong, i + 1, absentSize - i);
        System.arraycopy(absentObj, i, absentObj, i + 1, absentSize - i);
        absentLong[i] = k;
        absentObj[i] = ok;
        absentSize++;
    }

    /** Makes this (fresh from the pool) a copy of {@code o}; returns this. */
    Pending copyOf(Pending o) {
        if (slots.length < o.size) {
            slots = new Slot[o.slots.length];
        }
        System.arraycopy(o.slots, 0, slots, 0, o.size);
        size = o.size;
        if (o.absentSize != 0) {
            if (absentLong == null || absentLong.length < o.absentSize) {
                absentLong = new long[o.absentLong.length];
                absentObj = new Object[o.absentLong.length];
            }
            System.arraycopy(o.absentLong, 0, absentLong, 0, o.absentSize);
            System.arraycopy(o.absentObj, 0, absentObj, 0, o.absentSize);
        }
        absentSize = o.absentSize;
        return this;
    }

    @Override
    public void recycle() {
        Arrays.fill(slots, 0, size, null);
        size = 0;
        if (absentSize != 0) {
            Arrays.fill(absentObj, 0, absentSize, null);
            absentSize = 0;
        }
    }
}
