package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

/**
 * A transactional counter whose {@link #add} is a commit-time update: it is recorded as an
 * operation and applied to the locked counter at commit, so it takes no read dependency. Two
 * transactions that only add to the same counter never invalidate each other; they serialize only
 * on the counter's short commit lock. A transaction that also {@link #get reads} the counter
 * depends on its value and sees its own pending adds.
 */
public final class TxCounter {
    private final Stm stm;
    private final LongItem cell;
    private final Single single = new Single(this);

    /** Creates a counter in {@code stm} starting at {@code initial}. */
    public TxCounter(Stm stm, long initial) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.cell = new LongItem(initial);
    }

    /** Creates a counter starting at zero. */
    public TxCounter(Stm stm) {
        this(stm, 0L);
    }

    /** Adds {@code delta} at commit, without reading the counter. */
    public void add(Txn txn, long delta) {
        TxnContext.of(txn, stm).addLong(cell, delta);
    }

    /** @return the counter's value as of this transaction, including this transaction's adds */
    public long get(Txn txn) {
        return TxnContext.of(txn, stm).readLong(cell);
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
        private final TxCounter owner;

        private Single(TxCounter owner) {
            this.owner = owner;
        }

        public long get() {
            NonTx.checkOutside(owner.stm);
            return owner.stm.concurrencyControl().loadLong(owner.cell);
        }

        /** Adds {@code delta} atomically. */
        public void add(long delta) {
            NonTx.checkOutside(owner.stm);
            var cc = owner.stm.concurrencyControl();
            long w = cc.lockNonTx(owner.cell);
            cc.installLong(owner.cell, cc.lockedLong(owner.cell) + delta);
            cc.unlockNonTx(owner.cell, w, true, false);
        }
    }
}
