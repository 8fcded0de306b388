package io.jato.collections;

import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.Scratch;

import java.util.Arrays;

/**
 * The pending commit-time updates of one counter or map entry, in program order: each is a
 * {@link LongUpdater}, a {@link ValueUpdater}, or (updater slot null) an addition of a delta.
 * Pooled per transaction ({@link #KIND}), so scheduling updates allocates nothing in steady state.
 */
final class UpdateList implements Scratch.Pooled {
    static final Scratch<UpdateList> KIND = Scratch.of(UpdateList::new);

    private Object[] fns = new Object[4];
    private long[] deltas = new long[4];
    private int size;

    void add(Object updater) {
        append(updater, 0L);
    }

    void addDelta(long delta) {
        if (size > 0 && fns[size - 1] == null) {
            deltas[size - 1] += delta;
        } else {
            append(null, delta);
        }
    }

    private void append(Object fn, long delta) {
        if (size == fns.length) {
            fns = Arrays.copyOf(fns, size * 2);
            deltas = Arrays.copyOf(deltas, size * 2);
        }
        fns[size] = fn;
        deltas[size++] = delta;
    }

    /** @return the number of pending operations */
    int size() {
        return size;
    }

    /** @return operation {@code i}: the updater, or the delta of an addition (as a {@code Long}) */
    Object operation(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("operation " + i + " of " + size);
        }
        Object fn = fns[i];
        return fn != null ? fn : Long.valueOf(deltas[i]);
    }

    long applyTo(long value) {
        long v = value;
        for (int i = 0; i < size; i++) {
            Object fn = fns[i];
            v = fn == null ? v + deltas[i] : ((LongUpdater) fn).apply(v);
        }
        return v;
    }

    /**
     * Applies the pending {@link ValueUpdater}s of a map node to {@code value}. The node's key is
     * asked of the map only for the error (a long key is boxed then, never on success).
     */
    @SuppressWarnings("unchecked")
    <N extends RefItem> Object applyTo(Object value, HashMapCore<N> map, N node) {
        Object v = value;
        for (int i = 0; i < size; i++) {
            v = ((ValueUpdater<Object>) fns[i]).apply(v);
            if (v == null) {
                throw returnedNull(fns[i], map.keyOf(node));
            }
        }
        return v;
    }

    /** The error for a value updater that returned null for {@code key}, applied now or at commit. */
    static NullPointerException returnedNull(Object updater, Object key) {
        return new NullPointerException("updater " + updater.getClass().getName() + " returned null for key " + key);
    }

    /** Makes this (fresh from the pool) a copy of {@code o}; returns this. */
    UpdateList copyOf(UpdateList o) {
        if (fns.length < o.size) {
            fns = new Object[o.fns.length];
            deltas = new long[o.fns.length];
        }
        System.arraycopy(o.fns, 0, fns, 0, o.size);
        System.arraycopy(o.deltas, 0, deltas, 0, o.size);
        size = o.size;
        return this;
    }

    @Override
    public void recycle() {
        Arrays.fill(fns, 0, size, null);
        size = 0;
    }
}
