package io.jato.protocols.suite.faulty;

import io.jato.protocols.suite.ForwardingControl;
import io.jato.stm.AbortCause;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import java.util.Arrays;
import java.util.Objects;

/**
 * A protocol instance that delegates every call to a real one and throws an armed {@code Throwable}
 * at the k-th call of an armed {@link Hook}, {@link When before or after} delegating. Only calls
 * made by the thread that armed it count and fire, so other threads of the same store (a
 * concurrent reader) run the real protocol untouched. The fault fires once; every later call
 * delegates.
 *
 * <p>Where a hook may throw is chosen by what the contract lets the core repair. {@code begin}
 * throws only before delegating: a begin that throws must leave nothing acquired. {@code unlock}
 * and {@code finish} throw only after delegating: the item or store lock is then released and the
 * core must still run every other unlock, finish and cleanup and surface the throwable; a protocol
 * that throws before releasing its own lock leaves it held, which no driver can repair. The commit
 * hooks ({@code onWrite}, {@code lock}, {@code commitTimestamp}, {@code validate}, {@code install}, {@code publish}),
 * the value hooks the installs and commit-time updaters call ({@code lockedRef}/{@code lockedLong},
 * {@code installRef}/{@code installLong}) and the execution-time reads ({@code readRef},
 * {@code readLong}, {@code observe}, and a snapshot's {@code readRefAtSnapshot}/{@code readLongAtSnapshot})
 * throw on either side. {@code unlockChanged} never throws (its
 * contract forbids it).
 */
public final class FaultyControl extends ForwardingControl {

    /** The hooks a fault can be armed at. */
    public enum Hook {
        BEGIN(When.BEFORE),
        /** The execution-time reads: {@code readRef}, {@code readLong} and {@code observe}. */
        READ(When.BEFORE, When.AFTER),
        /** {@code onWrite}: an eager protocol's write lock, taken at the write (after: the lock is held). */
        ON_WRITE(When.BEFORE, When.AFTER),
        LOCK(When.BEFORE, When.AFTER),
        COMMIT_TIMESTAMP(When.BEFORE, When.AFTER),
        VALIDATE(When.BEFORE, When.AFTER),
        PREPARE(When.BEFORE, When.AFTER),
        INSTALL(When.BEFORE, When.AFTER),
        /** {@code lockedRef} and {@code lockedLong}: commit-time updaters and built-in installs read the locked value. */
        LOCKED_VALUE(When.BEFORE, When.AFTER),
        /** {@code installRef} and {@code installLong}: every value write of a commit's installs. */
        INSTALL_VALUE(When.BEFORE, When.AFTER),
        PUBLISH(When.BEFORE, When.AFTER),
        UNLOCK(When.AFTER),
        FINISH(When.AFTER),
        /**
         * {@code lockNonTx} and {@code tryLockNonTx}: a non-transactional operation's item locks
         * (before only: a lock call that throws must have taken nothing, or no caller could
         * release it). No transaction calls them; the transactional fault suites skip this hook.
         */
        NON_TX_LOCK(When.BEFORE);

        private final When[] whens;

        Hook(When... whens) {
            this.whens = whens;
        }

        /** @return where this hook may throw: before delegating, after, or both */
        public When[] whens() {
            return whens.clone();
        }
    }

    /** Whether the fault fires before the real protocol's call or after it returned. */
    public enum When {
        BEFORE, AFTER
    }

    // The plan and the counters are used by the armed thread only (arm on the thread that runs
    // the transaction; read the results on it, or after joining it).
    private volatile Thread armed;
    private Hook hook;
    private int k;
    private When when;
    private Throwable throwable;
    /** Run instead of throwing, if set ({@link #armAction}). */
    private Runnable action;
    private final int[] calls = new int[Hook.values().length];
    private int unlockChangedCalls;
    private boolean fired;
    private int firedAttempt = -1;
    private boolean finishCommitted;
    private int installsAtFire;
    private int installPositionAtFire;
    private int commitDomains;

    FaultyControl(ConcurrencyControl inner) {
        super(Objects.requireNonNull(inner, "inner"));
    }

    /** @return the real protocol instance every call is delegated to */
    public ConcurrencyControl inner() {
        return inner;
    }

    /**
     * Arms a fault for the calling thread: the {@code k}-th call (from 1) of {@code hook} from now on
     * throws {@code t}, {@code when} relative to the real call. Resets the call counters.
     *
     * @throws IllegalArgumentException if {@code hook} cannot throw {@code when} (see the class comment)
     */
    public void arm(Hook hook, int k, When when, Throwable t) {
        if (!Arrays.asList(hook.whens).contains(when)) {
            throw new IllegalArgumentException(hook + " does not throw " + when + " delegating");
        }
        if (k < 1) {
            throw new IllegalArgumentException("k counts from 1, got " + k);
        }
        this.hook = hook;
        this.k = k;
        this.when = when;
        this.throwable = Objects.requireNonNull(t, "t");
        this.action = null;
        resetCounters();
        armed = Thread.currentThread();
    }

    /**
     * Arms an action for the calling thread: at the {@code k}-th call (from 1) of {@code hook} from
     * now on, {@code action} runs before the real call, which then proceeds (nothing is thrown).
     * Stages a schedule inside a commit: e.g. another thread's step between a commit's locks and
     * its validation. Resets the call counters.
     */
    public void armAction(Hook hook, int k, Runnable action) {
        if (k < 1) {
            throw new IllegalArgumentException("k counts from 1, got " + k);
        }
        this.hook = hook;
        this.k = k;
        this.when = When.BEFORE;
        this.throwable = null;
        this.action = Objects.requireNonNull(action, "action");
        resetCounters();
        armed = Thread.currentThread();
    }

    /** Counts the calling thread's hook calls from now on without ever firing. */
    public void countOnly() {
        this.hook = null;
        this.throwable = null;
        this.action = null;
        resetCounters();
        armed = Thread.currentThread();
    }

    /** Stops counting and firing. */
    public void disarm() {
        armed = null;
        hook = null;
        throwable = null;
        action = null;
    }

    private void resetCounters() {
        Arrays.fill(calls, 0);
        unlockChangedCalls = 0;
        fired = false;
        firedAttempt = -1;
        finishCommitted = false;
        installsAtFire = 0;
        installPositionAtFire = -1;
        commitDomains = 0;
    }

    /** @return how many times the armed thread called {@code h} since {@link #arm} or {@link #countOnly} */
    public int calls(Hook h) {
        return calls[h.ordinal()];
    }

    /** @return how many times the armed thread's commits called {@link #unlockChanged} */
    public int unlockChangedCalls() {
        return unlockChangedCalls;
    }

    /** @return true once the armed fault has been thrown */
    public boolean fired() {
        return fired;
    }

    /** @return the attempt (from 0) of the transaction the fault was thrown in, or -1 */
    public int firedAttempt() {
        return firedAttempt;
    }

    /** @return how many {@code install} calls the armed thread had made when the fault fired (0: not installing yet) */
    public int installsAtFire() {
        return installsAtFire;
    }

    /**
     * @return the protocol domains ({@link Items#domain}; bit d: domain d) of the items in the access
     *         set when the armed thread's last commit asked this protocol for its commit timestamp,
     *         or 0. Two bits or more: a transaction spanning protocols, which a store mixing them
     *         commits at a timestamp of its spanning-commit clock ({@code docs/mixed-protocols.md}).
     */
    public int commitDomains() {
        return commitDomains;
    }

    /**
     * @return the position in the write set, which the commit installs in order, of the entry
     *         whose {@code install} fired, or -1: 0 where nothing of the commit was installed before
     *         it, not even another protocol's entries in a store mixing protocols
     */
    public int installPositionAtFire() {
        return installPositionAtFire;
    }

    /** @return the {@code committed} argument of the {@code finish} call that fired */
    public boolean finishCommitted() {
        return finishCommitted;
    }

    /** True while the armed thread runs the wrapped protocol's finish (written and read by that thread only). */
    private boolean inInnerFinish;

    /** Counts a call of {@code h}; @return true if this call is the one that must throw. */
    private boolean hit(Hook h) {
        if (Thread.currentThread() != armed || inInnerFinish) {
            return false;
        }
        int n = ++calls[h.ordinal()];
        boolean hit = h == hook && n == k && !fired;
        if (hit && action != null) {
            fired = true;
            Runnable a = action;
            action = null;
            a.run();
            return false;
        }
        return hit;
    }

    private RuntimeException fire(TxnContext txn) {
        fired = true;
        firedAttempt = txn == null ? -1 : txn.attempt();
        installsAtFire = calls[Hook.INSTALL.ordinal()];
        throw FaultyControl.<RuntimeException>sneaky(throwable);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }

    // ------------------------------------------------------------------ faultable hooks

    @Override
    public long lockNonTx(TxItem item) {
        if (hit(Hook.NON_TX_LOCK)) {
            throw fire(null);
        }
        return inner.lockNonTx(item);
    }

    @Override
    public long tryLockNonTx(TxItem item) {
        if (hit(Hook.NON_TX_LOCK)) {
            throw fire(null);
        }
        return inner.tryLockNonTx(item);
    }

    @Override
    public void begin(TxnContext txn) {
        if (hit(Hook.BEGIN)) {
            throw fire(txn);
        }
        inner.begin(txn);
    }

    @Override
    public AbortCause onWrite(TxnContext txn, Entry e) {
        boolean hit = hit(Hook.ON_WRITE);
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        AbortCause c = inner.onWrite(txn, e);
        if (hit) {
            throw fire(txn);
        }
        return c;
    }

    @Override
    public AbortCause lock(TxnContext txn, Entry e) {
        boolean hit = hit(Hook.LOCK);
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        AbortCause c = inner.lock(txn, e);
        if (hit) {
            throw fire(txn);
        }
        return c;
    }

    @Override
    public long commitTimestamp(TxnContext txn, boolean readOnly) {
        boolean hit = hit(Hook.COMMIT_TIMESTAMP);
        if (Thread.currentThread() == armed) {
            commitDomains = domains(txn);
        }
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        long ts = inner.commitTimestamp(txn, readOnly);
        if (hit) {
            throw fire(txn);
        }
        return ts;
    }

    private static int positionOf(TxnContext txn, Entry e) {
        for (int k = 0, n = txn.writeCount(); k < n; k++) {
            if (txn.writeAt(k) == e) {
                return k;
            }
        }
        return -1;
    }

    private static int domains(TxnContext txn) {
        int d = 0;
        for (int k = 0, n = txn.writeCount(); k < n; k++) {
            d |= 1 << Items.domain(txn.writeAt(k).item());
        }
        for (int k = 0, n = txn.readCount(); k < n; k++) {
            d |= 1 << Items.domain(txn.readAt(k).item());
        }
        return d;
    }

    @Override
    public AbortCause validate(TxnContext txn, Entry e, long commitTimestamp) {
        boolean hit = hit(Hook.VALIDATE);
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        AbortCause c = inner.validate(txn, e, commitTimestamp);
        if (hit) {
            throw fire(txn);
        }
        return c;
    }

    @Override
    public void install(TxnContext txn, Entry e, long commitTimestamp) {
        boolean hit = hit(Hook.INSTALL);
        if (hit) {
            installPositionAtFire = positionOf(txn, e);
        }
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        inner.install(txn, e, commitTimestamp);
        if (hit) {
            throw fire(txn);
        }
    }

    @Override
    public void publish(TxnContext txn, Entry e, long commitTimestamp) {
        boolean hit = hit(Hook.PUBLISH);
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        inner.publish(txn, e, commitTimestamp);
        if (hit) {
            throw fire(txn);
        }
    }

    @Override
    public AbortCause prepare(TxnContext txn, long commitTimestamp) {
        boolean hit = hit(Hook.PREPARE);
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        AbortCause c = inner.prepare(txn, commitTimestamp);
        if (hit) {
            throw fire(txn);
        }
        return c;
    }

    @Override
    public void unlock(TxnContext txn, Entry e) {
        boolean hit = hit(Hook.UNLOCK);
        inner.unlock(txn, e);
        if (hit) {
            throw fire(txn);
        }
    }

    @Override
    public void finish(TxnContext txn, boolean committed, AbortCause cause) {
        boolean hit = hit(Hook.FINISH);
        // What the wrapped protocol's finish calls back (an MVCC collector unlinking kept deletes
        // through the data types) is its housekeeping, not a call of this commit: not a target.
        boolean outer = Thread.currentThread() == armed && !inInnerFinish;
        if (outer) {
            inInnerFinish = true;
        }
        try {
            inner.finish(txn, committed, cause);
        } finally {
            if (outer) {
                inInnerFinish = false;
            }
        }
        if (hit) {
            finishCommitted = committed;
            throw fire(txn);
        }
    }

    @Override
    public Object readRef(TxnContext txn, RefItem item, Entry e) {
        boolean hit = hit(Hook.READ);
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        Object v = inner.readRef(txn, item, e);
        if (hit) {
            throw fire(txn);
        }
        return v;
    }

    @Override
    public long readLong(TxnContext txn, LongItem item, Entry e) {
        boolean hit = hit(Hook.READ);
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        long v = inner.readLong(txn, item, e);
        if (hit) {
            throw fire(txn);
        }
        return v;
    }

    @Override
    public Object readRefAtSnapshot(TxnContext txn, RefItem item) {
        boolean hit = hit(Hook.READ);
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        Object v = inner.readRefAtSnapshot(txn, item);
        if (hit) {
            throw fire(txn);
        }
        return v;
    }

    @Override
    public long readLongAtSnapshot(TxnContext txn, LongItem item) {
        boolean hit = hit(Hook.READ);
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        long v = inner.readLongAtSnapshot(txn, item);
        if (hit) {
            throw fire(txn);
        }
        return v;
    }

    @Override
    public void observe(TxnContext txn, TxItem item, Entry e) {
        boolean hit = hit(Hook.READ);
        if (hit && when == When.BEFORE) {
            throw fire(txn);
        }
        inner.observe(txn, item, e);
        if (hit) {
            throw fire(txn);
        }
    }

    @Override
    public Object lockedRef(RefItem item) {
        boolean hit = hit(Hook.LOCKED_VALUE);
        if (hit && when == When.BEFORE) {
            throw fire(null);
        }
        Object v = inner.lockedRef(item);
        if (hit) {
            throw fire(null);
        }
        return v;
    }

    @Override
    public long lockedLong(LongItem item) {
        boolean hit = hit(Hook.LOCKED_VALUE);
        if (hit && when == When.BEFORE) {
            throw fire(null);
        }
        long v = inner.lockedLong(item);
        if (hit) {
            throw fire(null);
        }
        return v;
    }

    @Override
    public void installRef(RefItem item, Object value) {
        boolean hit = hit(Hook.INSTALL_VALUE);
        if (hit && when == When.BEFORE) {
            throw fire(null);
        }
        inner.installRef(item, value);
        if (hit) {
            throw fire(null);
        }
    }

    @Override
    public void installLong(LongItem item, long value) {
        boolean hit = hit(Hook.INSTALL_VALUE);
        if (hit && when == When.BEFORE) {
            throw fire(null);
        }
        inner.installLong(item, value);
        if (hit) {
            throw fire(null);
        }
    }

    @Override
    public void unlockChanged(TxnContext txn, Entry e, long commitTimestamp) {
        if (Thread.currentThread() == armed) {
            unlockChangedCalls++;
        }
        inner.unlockChanged(txn, e, commitTimestamp);
    }

    // ------------------------------------------------------------------ plain delegation (ForwardingControl)

    @Override
    public String name() {
        return FaultyProtocol.NAME;
    }
}
