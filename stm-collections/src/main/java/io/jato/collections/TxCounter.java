package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

/**
 * A transactional counter whose {@link #add} and {@link #update} are commit-time updates: they are
 * recorded as operations and applied to the locked counter at commit, so they take no read
 * dependency. Two transactions that only add to or update the same counter never invalidate each
 * other; they serialize only on the counter's short commit lock, and their operations apply in
 * commit order. A transaction that also {@link #get reads} the counter depends on its value and
 * sees its own pending operations applied (from then on they behave as an ordinary read and write).
 */
public final class TxCounter {
    private static final Participant PARTICIPANT = new Participant();

    private final Stm stm;
    private final LongItem cell;
    private final Single single;

    /** Creates a counter in {@code stm} starting at {@code initial}. */
    public TxCounter(Stm stm, long initial) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.cell = new LongItem(initial, stm.protocolDomain());
        this.single = new Single(this);
    }

    /** Creates a counter starting at zero. */
    public TxCounter(Stm stm) {
        this(stm, 0L);
    }

    /** Adds {@code delta} at commit, without reading the counter. */
    public void add(Txn txn, long delta) {
        TxnContext c = TxnContext.of(txn, stm);
        Entry e = c.entry(cell);
        if (e.kind() == Entry.KIND_CUSTOM) {
            pendingOps(c, e).addDelta(delta);
            c.markUpdate(e, true);
        } else {
            c.addLong(e, delta);
        }
    }

    /**
     * Applies {@code updater} at commit to the counter's latest value, without reading it now (if
     * this transaction already read the counter, the updater is applied at once instead).
     */
    public void update(Txn txn, LongUpdater updater) {
        Objects.requireNonNull(updater, "updater");
        TxnContext c = TxnContext.of(txn, stm);
        Entry e = c.entry(cell);
        int f = e.flags();
        int kind = e.kind();
        if ((f & Entry.WRITE) != 0 && kind == Entry.KIND_CUSTOM) {
            pendingOps(c, e).add(updater);
            c.markUpdate(e, false);
        } else if ((f & Entry.READ) != 0 || ((f & Entry.WRITE) != 0 && kind == Entry.KIND_LONG)) {
            // The value is known already (and depended on): no reason to defer.
            c.writeLong(cell, updater.apply(c.readLong(cell)));
        } else {
            UpdateList ops = c.borrow(UpdateList.KIND);
            if ((f & Entry.WRITE) != 0 && kind == Entry.KIND_ADD_LONG) {
                ops.addDelta(e.pendingLong());
            }
            ops.add(updater);
            c.writeCustom(e, PARTICIPANT, null, ops);
            // Operations only (a pending add, if any, commutes; an updater need not).
            c.markUpdate(e, false);
            c.requestCheck(e, PARTICIPANT);
        }
    }

    /**
     * @return the pending operations of {@code e}, ready to be added to: inside a nested block that
     *         has not changed them yet, a copy that replaces them, so that a rollback of the block
     *         gets the original list back
     */
    private static UpdateList pendingOps(TxnContext c, Entry e) {
        UpdateList ops = (UpdateList) e.pendingRef();
        if (c.keepPending(e)) {
            ops = c.borrow(UpdateList.KIND).copyOf(ops);
            e.setPendingRef(ops);
        }
        return ops;
    }

    /** @return the counter's value as of this transaction, including this transaction's operations */
    public long get(Txn txn) {
        TxnContext c = TxnContext.of(txn, stm);
        Entry e = c.find(cell);
        if (e != null && e.kind() == Entry.KIND_CUSTOM) {
            // Pending updaters: read (taking the dependency), apply them, and keep the result as
            // an ordinary write.
            long v = ((UpdateList) e.pendingRef()).applyTo(c.readLong(cell));
            c.writeLong(cell, v);
            return v;
        }
        return c.readLong(cell);
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

    /** Runs pending updaters in the check phase (before anything is installed), then installs. */
    private static final class Participant implements TxParticipant {
        @Override
        public int operationCount(TxnContext txn, Entry e) {
            return e.kind() == Entry.KIND_CUSTOM ? ((UpdateList) e.pendingRef()).size() : 0;
        }

        @Override
        public Object operation(TxnContext txn, Entry e, int index) {
            if (e.kind() != Entry.KIND_CUSTOM) {
                throw new IndexOutOfBoundsException("operation " + index + " of 0");
            }
            return ((UpdateList) e.pendingRef()).operation(index);
        }

        @Override
        public boolean check(TxnContext txn, Entry e) {
            if (e.kind() == Entry.KIND_CUSTOM) {
                LongItem cell = (LongItem) e.item();
                e.setPendingLong(((UpdateList) e.pendingRef()).applyTo(txn.cc().lockedLong(cell)));
            }
            return true;
        }

        @Override
        public void install(TxnContext txn, Entry e, long commitTimestamp) {
            txn.cc().installLong((LongItem) e.item(), e.pendingLong());
        }
    }

    /**
     * Non-transactional single operations, with the atomic operations of
     * {@link java.util.concurrent.atomic.AtomicLong}: each is atomic on its own and linearizable
     * with transactions; calling one inside a transaction of the same store throws
     * {@link IllegalStateException}.
     */
    public static final class Single extends LongCellView {
        private Single(TxCounter owner) {
            super(owner.stm, owner.cell);
        }

        /** Adds {@code delta} atomically. */
        public void add(long delta) {
            SingleOps.updateLong(stm, cell, null, delta, false);
        }

        /** Applies {@code updater} atomically to the latest value. */
        public void update(LongUpdater updater) {
            Objects.requireNonNull(updater, "updater");
            SingleOps.updateLong(stm, cell, updater::apply, 0, false);
        }
    }
}
