package io.jato.collections.internal.sorted;

import io.jato.stm.spi.Scratch;

import java.util.Arrays;

/**
 * One transaction's buffered inserts into one index, sorted by key: how a transaction finds its own
 * inserts (point operations and scans) before they are in the tree. Hung off the index's anchor
 * entry; pooled ({@link #KIND}), so inserting transactions allocate no bookkeeping in steady state.
 */
final class Pending implements Scratch.Pooled {
    static final Scratch<Pending> KIND = Scratch.of(Pending::new);

    Slot[] slots = new Slot[8];
    int size;

    void insertAt(int i, Slot s) {
        if (size == slots.length) {
            slots = Arrays.copyOf(slots, size * 2);
        }
        System.arraycopy(slots, i, slots, i + 1, size - i);
        slots[i] = s;
        size++;
    }

    @Override
    public void recycle() {
        Arrays.fill(slots, 0, size, null);
        size = 0;
    }
}
