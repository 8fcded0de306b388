package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.spi.LongItem;

import java.util.function.LongUnaryOperator;

/**
 * The single operations that the non-transactional views of {@link TxLong} and {@link TxCounter}
 * share: {@link java.util.concurrent.atomic.AtomicLong}'s operations on one {@code long} cell,
 * each atomic on its own and linearizable with transactions; calling one inside a transaction of
 * the same store throws {@link IllegalStateException}.
 */
abstract class LongCellView {
    final Stm stm;
    final LongItem cell;

    LongCellView(Stm stm, LongItem cell) {
        this.stm = stm;
        this.cell = cell;
    }

    /** @return the committed value */
    public final long get() {
        return SingleOps.getLong(stm, cell);
    }

    /** Sets the committed value. */
    public final void set(long value) {
        SingleOps.setLong(stm, cell, value);
    }

    /** Sets the committed value and returns the one before. */
    public final long getAndSet(long value) {
        return SingleOps.updateLong(stm, cell, old -> value, 0, false);
    }

    /**
     * Sets the value to {@code update} if it equals {@code expect}.
     *
     * @return true if it was set; false leaves the value and its version as they were
     */
    public final boolean compareAndSet(long expect, long update) {
        return SingleOps.casLong(stm, cell, expect, update);
    }

    /** Adds {@code delta} atomically; returns the value before. */
    public final long getAndAdd(long delta) {
        return SingleOps.updateLong(stm, cell, null, delta, false);
    }

    /** Adds {@code delta} atomically; returns the value after. */
    public final long addAndGet(long delta) {
        return SingleOps.updateLong(stm, cell, null, delta, true);
    }

    /**
     * Replaces the value by {@code updateFunction} applied to it, atomically (the function runs
     * once, with the cell locked: keep it short, and do not use the store in it; if it throws,
     * nothing changes).
     *
     * @return the value before
     */
    public final long getAndUpdate(LongUnaryOperator updateFunction) {
        return SingleOps.updateLong(stm, cell, SingleOps.updater(updateFunction), 0, false);
    }

    /** As {@link #getAndUpdate}, returning the value after. */
    public final long updateAndGet(LongUnaryOperator updateFunction) {
        return SingleOps.updateLong(stm, cell, SingleOps.updater(updateFunction), 0, true);
    }
}
