package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

/**
 * A transactional {@code long} cell: {@link TxRef} specialised so that no path boxes. Use
 * {@link TxCounter} instead when transactions mostly add without looking at the value.
 */
public final class TxLong {
    private final Stm stm;
    private final LongItem cell;
    private final Single single = new Single(this);

    /** Creates a cell in {@code stm} holding {@code initial}. */
    public TxLong(Stm stm, long initial) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.cell = new LongItem(initial, stm.protocolDomain());
    }

    /** @return the value as of this transaction */
    public long get(Txn txn) {
        return TxnContext.of(txn, stm).readLong(cell);
    }

    /** Sets the value; visible to others when the transaction commits. */
    public void set(Txn txn, long value) {
        TxnContext.of(txn, stm).writeLong(cell, value);
    }

    /** Adds {@code delta} after reading the value (a read dependency); returns the new value. */
    public long addAndGet(Txn txn, long delta) {
        TxnContext ctx = TxnContext.of(txn, stm);
        long v = ctx.readLong(cell) + delta;
        ctx.writeLong(cell, v);
        return v;
    }

    /**
     * Diagnostics for tests: null if the protocol finds this object's metadata quiescent (no lock
     * held, version word sane), else what is wrong. Call only while no transaction runs.
     */
    public String checkQuiescent() {
        return stm.concurrencyControl().checkQuiescent(cell);
    }

    /** @return the non-transactional view */
    public Single single() {
        return single;
    }

    /** Non-transactional single operations (see {@link TxRef.Single}). */
    public static final class Single {
        private final TxLong owner;

        private Single(TxLong owner) {
            this.owner = owner;
        }

        public long get() {
            NonTx.checkOutside(owner.stm);
            return owner.stm.concurrencyControl().loadLong(owner.cell);
        }

        public void set(long value) {
            NonTx.checkOutside(owner.stm);
            var cc = owner.stm.concurrencyControl();
            long w = cc.lockNonTx(owner.cell);
            try {
                cc.installLong(owner.cell, value);
            } finally {
                cc.unlockNonTx(owner.cell, w, true, false);
            }
        }
    }
}
