package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

/**
 * A transactional {@code long} cell: {@link TxRef} specialised so that no path boxes. {@link #add}
 * is a commit-time add (no read dependency); {@link #addAndGet} reads. {@link TxCounter} adds
 * commit-time updaters ({@link TxCounter#update}).
 */
public final class TxLong {
    private final Stm stm;
    private final LongItem cell;
    private final Single single;

    /** Creates a cell in {@code stm} holding {@code initial}. */
    public TxLong(Stm stm, long initial) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.cell = new LongItem(initial, stm.protocolDomain());
        this.single = new Single(this);
    }

    /** @return the value as of this transaction */
    public long get(Txn txn) {
        return TxnContext.of(txn, stm).readLong(cell);
    }

    /** Sets the value; visible to others when the transaction commits. */
    public void set(Txn txn, long value) {
        TxnContext.of(txn, stm).writeLong(cell, value);
    }

    /**
     * Adds {@code delta} at commit, without reading the cell: a commit-time add, as
     * {@link TxCounter#add}. Transactions that only {@code add} to a cell never invalidate each
     * other; they serialize on its short commit lock. A later {@link #get} in the same transaction
     * reads the cell (taking the dependency) and includes the pending add.
     */
    public void add(Txn txn, long delta) {
        TxnContext.of(txn, stm).addLong(cell, delta);
    }

    /**
     * Reads the value, adds {@code delta} and returns the sum: a read dependency, unlike
     * {@link #add}, so a concurrent commit to the cell makes this transaction retry. Use it when
     * the transaction needs the result; use {@link #add} when it does not.
     */
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

    /**
     * Non-transactional single operations, with the atomic operations of
     * {@link java.util.concurrent.atomic.AtomicLong}: each is atomic on its own and linearizable
     * with transactions; calling one inside a transaction of the same store throws
     * {@link IllegalStateException}.
     */
    public static final class Single extends LongCellView {
        private Single(TxLong owner) {
            super(owner.stm, owner.cell);
        }
    }
}
