package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;

import java.util.Objects;
import java.util.function.LongUnaryOperator;
import java.util.function.UnaryOperator;

/*
 * The non-transactional single operations of the cells (TxRef, TxLong, TxCounter, the arrays'
 * elements), in one place: each locks the item with the protocol's non-transactional lock, reads
 * the committed value under it, installs the new one and unlocks with a new version — or with the
 * old word when nothing changed (a failed compare-and-set, an updater that threw), so readers of
 * the item are not disturbed. User functions run with the item locked, like commit-time updaters;
 * they must be quick and must not use the store.
 */

/** Atomic read-modify-write operations on one cell outside transactions (the {@code single()} views). */
final class SingleOps {
    private SingleOps() {
    }

    static Object getRef(Stm stm, RefItem cell) {
        NonTx.checkOutside(stm);
        return stm.concurrencyControl().loadRef(cell);
    }

    static long getLong(Stm stm, LongItem cell) {
        NonTx.checkOutside(stm);
        return stm.concurrencyControl().loadLong(cell);
    }

    /**
     * Replaces the value by {@code fn(old)} (or, with a null {@code fn}, by {@code value}).
     *
     * @return the value before, or with {@code returnNew} the value after
     */
    static Object updateRef(Stm stm, RefItem cell, UnaryOperator<Object> fn, Object value, boolean returnNew) {
        NonTx.checkOutside(stm);
        ConcurrencyControl cc = stm.concurrencyControl();
        long w = cc.lockNonTx(cell);
        boolean changed = false;
        Object old;
        Object now;
        try {
            old = cc.lockedRef(cell);
            now = fn == null ? value : fn.apply(old);
            cc.installRef(cell, now);
            changed = true;
        } finally {
            cc.unlockNonTx(cell, w, changed, false);
        }
        return returnNew ? now : old;
    }

    /** Sets the value to {@code update} if it is {@code expect} (compared by identity, as {@code AtomicReference}). */
    static boolean casRef(Stm stm, RefItem cell, Object expect, Object update) {
        NonTx.checkOutside(stm);
        ConcurrencyControl cc = stm.concurrencyControl();
        long w = cc.lockNonTx(cell);
        boolean changed = false;
        try {
            if (cc.lockedRef(cell) == expect) {
                cc.installRef(cell, update);
                changed = true;
            }
        } finally {
            cc.unlockNonTx(cell, w, changed, false);
        }
        return changed;
    }

    /**
     * Replaces the value by {@code fn(old)} (or, with a null {@code fn}, by {@code old + delta}).
     *
     * @return the value before, or with {@code returnNew} the value after
     */
    static long updateLong(Stm stm, LongItem cell, LongUnaryOperator fn, long delta, boolean returnNew) {
        NonTx.checkOutside(stm);
        ConcurrencyControl cc = stm.concurrencyControl();
        long w = cc.lockNonTx(cell);
        boolean changed = false;
        long old;
        long now;
        try {
            old = cc.lockedLong(cell);
            now = fn == null ? old + delta : fn.applyAsLong(old);
            cc.installLong(cell, now);
            changed = true;
        } finally {
            cc.unlockNonTx(cell, w, changed, false);
        }
        return returnNew ? now : old;
    }

    /** Sets the value. */
    static void setLong(Stm stm, LongItem cell, long value) {
        NonTx.checkOutside(stm);
        ConcurrencyControl cc = stm.concurrencyControl();
        long w = cc.lockNonTx(cell);
        try {
            cc.installLong(cell, value);
        } finally {
            cc.unlockNonTx(cell, w, true, false);
        }
    }

    /** Sets the value to {@code update} if it equals {@code expect}. */
    static boolean casLong(Stm stm, LongItem cell, long expect, long update) {
        NonTx.checkOutside(stm);
        ConcurrencyControl cc = stm.concurrencyControl();
        long w = cc.lockNonTx(cell);
        boolean changed = false;
        try {
            if (cc.lockedLong(cell) == expect) {
                cc.installLong(cell, update);
                changed = true;
            }
        } finally {
            cc.unlockNonTx(cell, w, changed, false);
        }
        return changed;
    }

    /** @return the first of {@code cells} whose metadata the protocol finds non-quiescent, described; or null */
    static String checkCells(ConcurrencyControl cc, TxItem[] cells) {
        for (int i = 0; i < cells.length; i++) {
            String p = cc.checkQuiescent(cells[i]);
            if (p != null) {
                return "element " + i + ": " + p;
            }
        }
        return null;
    }

    /** @return {@code fn}, or a NullPointerException naming it */
    static <F> F updater(F fn) {
        return Objects.requireNonNull(fn, "updateFunction");
    }
}
