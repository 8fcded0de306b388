package io.jato.stm.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/*
 * A bounded multi-producer multi-consumer queue over one array, after Dmitry Vyukov's bounded
 * MPMC queue: every cell carries a sequence number that says whose turn the cell is.
 *
 *   cell i, sequence s:   s == pos       free for the producer that claims position pos
 *                         s == pos + 1   holds the element the consumer at position pos takes
 *                         s == pos + cap free again, for the producer one lap later
 *
 * A producer reads the tail, checks its cell's sequence, claims the position by CAS on the tail,
 * writes the element and then releases the sequence pos + 1; a consumer does the same on the head
 * and releases pos + cap. The sequence's release/acquire pair carries the element (and everything
 * its producer wrote before offering it) to the consumer. No allocation, no lock, one CAS per
 * operation; the head and tail are padded apart because every producer or every consumer CASes
 * them. A full queue refuses an offer, an empty one answers null: neither waits.
 */

abstract class MpmcHeadPad {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

abstract class MpmcHead extends MpmcHeadPad {
    /** Next position to take; CASed by consumers. */
    volatile long head;
}

abstract class MpmcTailPad extends MpmcHead {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

abstract class MpmcTail extends MpmcTailPad {
    /** Next position to fill; CASed by producers. */
    volatile long tail;
}

abstract class MpmcRhsPad extends MpmcTail {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

/**
 * A bounded, lock-free, allocation-free queue for any number of producers and consumers (see the
 * design note at the top of this file). {@link #offer} and {@link #poll} never block and never
 * allocate; FIFO order between elements whose offers completed one before the other. Thread-safe:
 * an element offered by one thread and polled by another is handed over with release/acquire
 * ordering (what the producer wrote before the offer is visible to the consumer after the poll).
 *
 * @param <E> the element type
 */
public final class BoundedMpmcQueue<E> extends MpmcRhsPad {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle SEQ = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(MpmcHead.class, "head", long.class);
            TAIL = l.findVarHandle(MpmcTail.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int mask;
    /** Per cell: whose turn it is (see the design note). */
    private final long[] sequences;
    /** Per cell: the element, written by its producer before the sequence's release, cleared by its consumer. */
    private final Object[] cells;

    /**
     * @param capacity at least the number of elements the queue holds (rounded up to a power of two)
     * @throws IllegalArgumentException if {@code capacity} is below 1 or above 2^30
     */
    public BoundedMpmcQueue(int capacity) {
        if (capacity < 1 || capacity > 1 << 30) {
            throw new IllegalArgumentException("queue capacity must be in [1, 2^30], was " + capacity);
        }
        int cap = Math.max(2, Integer.highestOneBit(capacity - 1) << 1);
        this.mask = cap - 1;
        this.sequences = new long[cap];
        this.cells = new Object[cap];
        for (int i = 0; i < cap; i++) {
            sequences[i] = i;
        }
        VarHandle.releaseFence();
    }

    /** @return the number of elements the queue holds when full */
    public int capacity() {
        return mask + 1;
    }

    /**
     * Adds {@code e} at the tail unless the queue is full.
     *
     * @return false if the queue was full (then nothing changed)
     * @throws NullPointerException if {@code e} is null
     */
    public boolean offer(E e) {
        if (e == null) {
            throw new NullPointerException("element");
        }
        long[] seqs = sequences;
        for (long pos = (long) TAIL.getVolatile(this);;) {
            int i = (int) pos & mask;
            long dif = (long) SEQ.getAcquire(seqs, i) - pos;
            if (dif == 0) {
                if (TAIL.compareAndSet(this, pos, pos + 1)) {
                    CELL.set(cells, i, e);
                    SEQ.setRelease(seqs, i, pos + 1);
                    return true;
                }
                pos = (long) TAIL.getVolatile(this);
            } else if (dif < 0) {
                return false; // the cell of this lap still holds the element of the previous one: full
            } else {
                pos = (long) TAIL.getVolatile(this); // another producer claimed pos: read the tail again
            }
        }
    }

    /** @return the element at the head, removed, or null if the queue was empty */
    @SuppressWarnings("unchecked")
    public E poll() {
        long[] seqs = sequences;
        for (long pos = (long) HEAD.getVolatile(this);;) {
            int i = (int) pos & mask;
            long dif = (long) SEQ.getAcquire(seqs, i) - (pos + 1);
            if (dif == 0) {
                if (HEAD.compareAndSet(this, pos, pos + 1)) {
                    Object e = CELL.get(cells, i);
                    CELL.set(cells, i, null);
                    SEQ.setRelease(seqs, i, pos + mask + 1);
                    return (E) e;
                }
                pos = (long) HEAD.getVolatile(this);
            } else if (dif < 0) {
                return null; // the cell's producer has not published yet (or nothing was offered): empty
            } else {
                pos = (long) HEAD.getVolatile(this);
            }
        }
    }
}
