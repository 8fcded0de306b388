package io.jato.protocols.maat;

import io.jato.stm.spi.ThreadPadding;

import java.util.Arrays;

/**
 * One context's MaaT state. {@link #range} is read and narrowed by other threads (see
 * {@link MaatRange}); every other field belongs to the owner thread. {@link #slot} is final for the
 * state's life and handed back when its thread dies ({@link MaatControl#retireTxnState}).
 */
final class MaatTxnState extends ThreadPadding {
    /** The soft-lock slot, or -1: more live contexts than slots (this one validates as TicToc). */
    final int slot;
    /** {@code 1L << slot}, or 0 without a slot. */
    final long bit;
    /** The upper bound others narrow and the timestamp this attempt freezes. */
    final MaatRange range = new MaatRange();
    /** The soft locks this attempt holds, in the order taken; cleared at finish. Grows, never shrinks. */
    SoftLocks[] held = new SoftLocks[32];
    /** How many of {@link #held} are in use. */
    int heldCount;
    /** This attempt's commit holds a write lock (later locks spin briefly). */
    boolean holdsLock;

    MaatTxnState(int slot) {
        this.slot = slot;
        this.bit = slot < 0 ? 0L : 1L << slot;
    }

    /** Records a soft lock this attempt took (its bit is set). Allocates only when the list doubles. */
    void hold(SoftLocks locks) {
        if (heldCount == held.length) {
            held = Arrays.copyOf(held, held.length * 2);
        }
        held[heldCount++] = locks;
    }

    /** Clears this slot's bit on every soft lock taken, each once per attempt and item. */
    void releaseAll() {
        SoftLocks[] h = held;
        for (int i = 0, n = heldCount; i < n; i++) {
            h[i].unlock(bit);
            h[i] = null;
        }
        heldCount = 0;
    }
}
