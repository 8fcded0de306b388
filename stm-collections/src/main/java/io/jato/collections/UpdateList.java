package io.jato.collections;

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

    long applyTo(long value) {
        long v = value;
        for (int i = 0; i < size; i++) {
            Object fn = fns[i];
            v = fn == null ? v + deltas[i] : ((LongUpdater) fn).apply(v);
        }
        return v;
    }

    Object applyTo(Object value, Object key) {
        return applyRefs(value, key, 0L);
    }

    /** As {@link #applyTo(Object, Object)} for a primitive key, which is boxed only for an error message. */
    Object applyTo(Object value, long key) {
        return applyRefs(value, null, key);
    }

    @SuppressWarnings("unchecked")
    private Object applyRefs(Object value, Object key, long longKey) {
        Object v = value;
        for (int i = 0; i < size; i++) {
            v = ((ValueUpdater<Object>) fns[i]).apply(v);
            if (v == null) {
                throw new NullPointerException("updater " + fns[i].getClass().getName() + " returned null for key "
                        + (key != null ? key : Long.valueOf(longKey)));
            }
        }
        return v;
    }

    @Override
    public void recycle() {
        Arrays.fill(fns, 0, size, null);
        size = 0;
    }
}
