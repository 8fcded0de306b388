package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.internal.MixedClock;

/*
 * Several protocols in one store (docs/mixed-protocols.md has the design and the argument).
 *
 * Every item carries the domain of the protocol it is bound to (TxItem's top hash bits), so each
 * hook dispatches on the item's domain to that protocol's instance: an item is only ever locked,
 * versioned and validated by its own protocol, and the commit driver's phases run unchanged over
 * the whole access set, so every write of every protocol is locked before any read of any
 * protocol is validated.
 *
 * Commit timestamps. A transaction that touched one protocol commits exactly as it would in a
 * store of that protocol alone. One that touched several ("spanning") takes its commit timestamp
 * from the store's MixedClock, after every lock is held and before any read is validated, at least
 * the largest timestamp its timestamp-ordered protocols proposed; those protocols then use that
 * agreed timestamp, the others their own. The clock orders spanning transactions the way commit-
 * point protocols order everything (real time of the serialization point) and the way timestamp
 * protocols order everything (timestamps), which rules out a cycle through two protocols.
 *
 * Used only when a store is built with more than one protocol: a store of one protocol calls its
 * protocol directly, and its hook calls stay monomorphic. Here they are polymorphic by design.
 * Every overridable hook of ConcurrencyControl is overridden (MixedControlTest checks it): an
 * inherited default would run for every protocol instead of the item's own.
 */

/** The concurrency control of a store whose objects are bound to several protocols. */
final class MixedControl extends ConcurrencyControl {
    private final String name;
    /** By domain; domain 0 is the store's default protocol. */
    private final ConcurrencyControl[] children;
    private final ProtocolContext[] contexts;
    private final boolean[] byTimestamp;
    private final MixedClock clock = new MixedClock();

    /** Per transaction: which domains it touched and each domain's commit timestamp. Owner thread only. */
    static final class State extends ThreadPadding {
        /** Bit d: the attempt read, observed, wrote or locked an item of domain d. */
        int touched;
        /** Bit d: the attempt wrote an item of domain d (from onWrite and lock; recomputed at commit). */
        int wrote;
        /** The commit timestamp each domain's protocol uses, valid from commitTimestamp on. */
        final long[] ts;
        /** Each domain's own per-transaction state (also in the context's childStates). */
        final Object[] states;

        State(int domains) {
            ts = new long[domains];
            states = new Object[domains];
        }
    }

    MixedControl(String name, ConcurrencyControl[] children, ProtocolContext[] contexts) {
        this.name = name;
        this.children = children.clone();
        this.contexts = contexts.clone();
        this.byTimestamp = new boolean[children.length];
        for (int d = 0; d < children.length; d++) {
            byTimestamp[d] = children[d].ordersByTimestamp();
        }
    }

    /** @return the protocol instance of domain {@code d} */
    ConcurrencyControl child(int d) {
        return children[d];
    }

    /** @return the clock of spanning commits (tests) */
    MixedClock clock() {
        return clock;
    }

    private static State state(TxnContext txn) {
        return (State) txn.ccState();
    }

    private ConcurrencyControl of(TxItem item) {
        return children[item.domain()];
    }

    /** Marks {@code item}'s domain touched and returns its protocol. */
    private ConcurrencyControl touch(TxnContext txn, TxItem item) {
        int d = item.domain();
        state(txn).touched |= 1 << d;
        return children[d];
    }

    private ConcurrencyControl touchWrite(TxnContext txn, TxItem item) {
        int d = item.domain();
        State s = state(txn);
        s.touched |= 1 << d;
        s.wrote |= 1 << d;
        return children[d];
    }

    private static long tsOf(TxnContext txn, TxItem item) {
        return state(txn).ts[item.domain()];
    }

    @Override
    public String name() {
        return name;
    }

    /** A store's control, never mixed into another: how its children order is asked of each. */
    @Override
    public boolean ordersByTimestamp() {
        return false;
    }

    /** Only if every protocol of the store does: a read-only transaction may read any domain. */
    @Override
    public boolean validatesEveryRead() {
        for (ConcurrencyControl c : children) {
            if (!c.validatesEveryRead()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Never: the core's word log bypasses the per-domain dispatch of the read and validate hooks.
     * The two word hooks are therefore never called on a mixed store.
     */
    @Override
    public boolean logsReadWords() {
        return false;
    }

    @Override
    public long stableWord(TxItem item) {
        throw new UnsupportedOperationException("a store of several protocols does not log read words");
    }

    @Override
    public AbortCause validateWord(TxItem item, long word) {
        throw new UnsupportedOperationException("a store of several protocols does not log read words");
    }

    @Override
    public Object newTxnState(TxnContext txn) {
        State s = new State(children.length);
        Object[] states = s.states;
        // Each child's state is in place before the next child is created, so a child's
        // newTxnState may already read its own (or none) through ccState(slot).
        txn.childStates = states;
        int registered = 0;
        try {
            for (int d = 0; d < children.length; d++) {
                states[d] = children[d].newTxnState(txn);
                contexts[d].registerTxnState(states[d]);
                registered = d + 1;
            }
        } catch (Throwable t) {
            // The context will not exist: a state left registered would be seen as live forever
            // (an MVCC horizon that never advances). Take back the ones already registered.
            for (int d = 0; d < registered; d++) {
                try {
                    if (contexts[d].unregisterTxnState(states[d])) {
                        children[d].retireTxnState(states[d]);
                    }
                } catch (Throwable b) {
                    CommitDriver.addSuppressed(t, b);
                }
            }
            throw t;
        }
        return s;
    }

    @Override
    public void retireTxnState(Object state) {
        Object[] states = ((State) state).states;
        for (int d = 0; d < children.length; d++) {
            if (contexts[d].unregisterTxnState(states[d])) {
                children[d].retireTxnState(states[d]);
            }
        }
    }

    @Override
    public void begin(TxnContext txn) {
        State s = state(txn);
        s.touched = 0;
        s.wrote = 0;
        int d = 0;
        try {
            for (; d < children.length; d++) {
                children[d].begin(txn);
            }
        } catch (Throwable t) {
            // begin must leave nothing acquired when it throws: finish the children that began.
            for (int k = 0; k < d; k++) {
                try {
                    children[k].finish(txn, false, AbortCause.INTERNAL_FAILURE);
                } catch (Throwable b) {
                    CommitDriver.addSuppressed(t, b);
                }
            }
            throw t;
        }
    }

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        return touch(txn, item).readRef(txn, item, e);
    }

    /**
     * Asks the item's protocol; a value answered without an entry still counts as touching that
     * protocol. A transaction whose only read of a commit-point protocol is such a read must be a
     * spanning one when it also touches a timestamp-ordered protocol: the clock then orders it
     * after the insert it saw (docs/mixed-protocols.md, "The argument").
     */
    @Override
    public Object readUnchangingRef(TxnContext txn, RefItem item) {
        Object v = of(item).readUnchangingRef(txn, item);
        if (v != null) {
            state(txn).touched |= 1 << item.domain();
        }
        return v;
    }

    /**
     * Dispatched to the item's protocol like any read, for completeness: no protocol of Jato serves
     * snapshot reads in a store of several protocols (a read-only transaction may span them).
     */
    @Override
    public Object readRefAtSnapshot(TxnContext txn, RefItem item) {
        return touch(txn, item).readRefAtSnapshot(txn, item);
    }

    /** As {@link #readRefAtSnapshot}. */
    @Override
    public long readLongAtSnapshot(TxnContext txn, LongItem item) {
        return touch(txn, item).readLongAtSnapshot(txn, item);
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        return touch(txn, item).readLong(txn, item, e);
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        touch(txn, item).observe(txn, item, e);
    }

    @Override
    public AbortCause onWrite(TxnContext txn, Entry e) {
        return touchWrite(txn, e.item).onWrite(txn, e);
    }

    @Override
    public boolean isCurrent(TxnContext txn, Entry e) {
        return of(e.item).isCurrent(txn, e);
    }

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        return touchWrite(txn, e.item).lock(txn, e);
    }

    /**
     * Asks every touched protocol for its commit timestamp. With one protocol touched that is the
     * answer. With several, the clock gives a value above every earlier spanning commit's and at
     * least every timestamp-ordered protocol's proposal; those protocols use it, the others keep
     * their own.
     */
    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        State s = state(txn);
        // The write set decides which protocols write (a write whose entry a protocol locked at
        // read time never reaches onWrite or lock).
        int wrote = 0;
        for (int k = 0, n = txn.writeCount(); k < n; k++) {
            wrote |= 1 << txn.writeAt(k).item.domain();
        }
        s.wrote = wrote;
        int touched = s.touched |= wrote;
        long agreed = 0;
        for (int d = 0; d < children.length; d++) {
            if ((touched & 1 << d) != 0) {
                long t = children[d].commitTimestamp(txn, (wrote & 1 << d) == 0);
                s.ts[d] = t;
                if (byTimestamp[d]) {
                    agreed = Math.max(agreed, t);
                }
            }
        }
        if (Integer.bitCount(touched) > 1) {
            agreed = clock.next(agreed);
            for (int d = 0; d < children.length; d++) {
                if ((touched & 1 << d) != 0 && byTimestamp[d]) {
                    s.ts[d] = agreed;
                }
            }
        }
        return agreed;
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        return of(e.item).validate(txn, e, tsOf(txn, e.item));
    }

    @Override
    public AbortCause prepare(TxnContext txn, long commitTimestamp) {
        State s = state(txn);
        for (int d = 0; d < children.length; d++) {
            if ((s.touched & 1 << d) != 0) {
                AbortCause c = children[d].prepare(txn, s.ts[d]);
                if (c != null) {
                    return c;
                }
            }
        }
        return null;
    }

    @Override
    public void install(TxnContext txn, Entry e, long commitTimestamp) {
        of(e.item).install(txn, e, tsOf(txn, e.item));
    }

    @Override
    public void installRef(RefItem item, Object value) {
        of(item).installRef(item, value);
    }

    @Override
    public void installLong(LongItem item, long value) {
        of(item).installLong(item, value);
    }

    @Override
    public Object lockedRef(RefItem item) {
        return of(item).lockedRef(item);
    }

    @Override
    public long lockedLong(LongItem item) {
        return of(item).lockedLong(item);
    }

    @Override
    public boolean keepsDeleted(TxnContext txn, Entry e) {
        return of(e.item).keepsDeleted(txn, e);
    }

    @Override
    public void retire(TxnContext txn, Entry e, long commitTimestamp) {
        of(e.item).retire(txn, e, tsOf(txn, e.item));
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        of(e.item).publish(txn, e, tsOf(txn, e.item));
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        of(e.item).unlock(txn, e);
    }

    @Override
    public void unlockChanged(TxnContext txn, Entry e, long commitTimestamp) {
        of(e.item).unlockChanged(txn, e, tsOf(txn, e.item));
    }

    /** Every protocol finishes, each in its own try; the first failure is rethrown after all ran. */
    @Override
    public void finish(TxnContext txn, boolean committed, AbortCause cause) {
        Throwable failure = null;
        for (ConcurrencyControl c : children) {
            try {
                c.finish(txn, committed, cause);
            } catch (Throwable t) {
                failure = failure == null ? t : CommitDriver.addSuppressed(failure, t);
            }
        }
        if (failure != null) {
            throw CommitDriver.sneakyThrow(failure);
        }
    }

    @Override
    public long lockNonTx(TxItem item) {
        return of(item).lockNonTx(item);
    }

    @Override
    public long tryLockNonTx(TxItem item) {
        return of(item).tryLockNonTx(item);
    }

    @Override
    public void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire) {
        of(item).unlockNonTx(item, lockedWord, changed, retire);
    }

    @Override
    public Object loadRef(RefItem item) {
        return of(item).loadRef(item);
    }

    @Override
    public long loadLong(LongItem item) {
        return of(item).loadLong(item);
    }

    @Override
    public boolean isLocked(TxItem item) {
        return of(item).isLocked(item);
    }

    @Override
    public String checkQuiescent(TxItem item) {
        return of(item).checkQuiescent(item);
    }

    @Override
    public boolean isRetired(TxItem item) {
        return of(item).isRetired(item);
    }
}
