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
    /** The soft write locks this attempt holds, in the order taken; cleared at finish. Grows, never shrinks. */
    SoftLocks[] heldWrites = new SoftLocks[8];
    /** How many of {@link #heldWrites} are in use. */
    int heldWriteCount;
    /** This attempt's commit holds a write lock (later locks spin briefly). */
    boolean holdsLock;

    MaatTxnState(int slot) {
        this.slot = slot;
        this.bit = slot < 0 ? 0L : 1L << slot;
    }

    /** Records a soft read lock this attempt took (its bit is set). Allocates only when the list doubles. */
    void hold(SoftLocks locks) {
        if (heldCount == held.length) {
            held = Arrays.copyOf(held, held.length * 2);
        }
        held[heldCount++] = locks;
    }

    /** Records a soft write lock this attempt took (its bit is set). Allocates only when the list doubles. */
    void holdWrite(SoftLocks locks) {
        if (heldWriteCount == heldWrites.length) {
            heldWrites = Arrays.copyOf(heldWrites, heldWrites.length * 2);
        }
        heldWrites[heldWriteCount++] = locks;
    }

    /** @return true if this attempt holds a soft lock of either kind */
    boolean holdsSoftLocks() {
        return heldCount != 0 || heldWriteCount != 0;
    }

    /** Clears this slot's bit on every soft lock taken, each once per attempt, item and kind. */
    void releaseAll() {
        SoftLocks[] h = held;
        for (int i = 0, n = heldCount; i < n; i++) {
            h[i].unlockRead(bit);
            h[i] = null;
        }
        heldCount = 0;
        if (heldWriteCount != 0) {
            SoftLocks[] w = heldWrites;
            for (int i = 0, n = heldWriteCount; i < n; i++) {
                w[i].unlockWrite(bit);
                w[i] = null;
            }
            heldWriteCount = 0;
        }
    }
}
