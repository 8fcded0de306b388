package io.jato.protocols.suite.faulty;

import io.jato.protocols.suite.Quiescence;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

/**
 * A transactional item whose participant throws on request: the data-type half of fault
 * injection. {@link #join} makes it part of a transaction as a read (validated at commit) and a
 * custom write with a check and a cleanup, placed in the access set wherever the caller joins it,
 * so that its install runs before, between or after the installs of the real data types written
 * in the same transaction.
 *
 * <p>Armed for one thread ({@link #arm}); the fault fires once. {@link #conflictOnce} makes the next
 * check fail validation instead, so the attempt aborts (unlock, finish and cleanups on the abort
 * path) and is retried.
 */
public final class FaultyParticipant implements TxParticipant, Quiescence.Quiescent {

    /** Where the participant throws. */
    public enum Phase {
        /** From {@link TxParticipant#check}: a commit-time updater that throws. */
        CHECK,
        /** From {@link TxParticipant#install}: a data type's install that fails. */
        INSTALL,
        /** From {@link TxParticipant#cleanup}, after a commit or an abort. */
        CLEANUP
    }

    private final Stm stm;
    private final TxItem item;

    private volatile Thread armed;
    private Phase phase;
    private Throwable throwable;
    private int conflicts;
    private boolean fired;
    private int installs;
    private int cleanups;
    private boolean cleanupCommitted;

    /**
     * @param stm the store; the participant's item is bound to the protocol of this store object
     *            ({@link Stm#protocolDomain}: a view from {@link Stm#withProtocol} gives that view's
     *            protocol, a store with object protocols rotating the next one in turn)
     */
    public FaultyParticipant(Stm stm) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.item = new TxItem(stm.protocolDomain());
    }

    /** @return the participant's own item (its version shows whether a commit restored or replaced it) */
    public TxItem item() {
        return item;
    }

    /** Arms the calling thread's next {@code phase} call to throw {@code t} (once). */
    public void arm(Phase phase, Throwable t) {
        this.phase = Objects.requireNonNull(phase, "phase");
        this.throwable = Objects.requireNonNull(t, "t");
        this.fired = false;
        this.installs = 0;
        this.cleanups = 0;
        this.armed = Thread.currentThread();
    }

    /** Makes the calling thread's next check fail validation (the attempt aborts and is retried). */
    public void conflictOnce() {
        this.conflicts = 1;
        if (armed == null) {
            this.phase = null;
            this.throwable = null;
        }
        this.armed = Thread.currentThread();
    }

    /** Disarms every fault and pending conflict. */
    public void disarm() {
        armed = null;
        phase = null;
        throwable = null;
        conflicts = 0;
    }

    /** @return true once the armed fault was thrown */
    public boolean fired() {
        return fired;
    }

    /** @return how many installs the armed thread ran since {@link #arm} */
    public int installs() {
        return installs;
    }

    /** @return how many cleanups the armed thread ran since {@link #arm} */
    public int cleanups() {
        return cleanups;
    }

    /** @return the {@code committed} argument of the last cleanup the armed thread ran */
    public boolean cleanupCommitted() {
        return cleanupCommitted;
    }

    /** Joins the transaction: a read, a custom write, a check and a cleanup of the participant's item. */
    public void join(Txn txn) {
        TxnContext c = TxnContext.of(txn, stm);
        Entry e = c.entry(item);
        c.observe(e);
        c.writeCustom(e, this, null, null);
        c.requestCheck(e, this);
        c.requestCleanup(e, this);
    }

    private boolean mine() {
        return Thread.currentThread() == armed;
    }

    private void maybeFire(Phase p) {
        if (phase == p && !fired) {
            fired = true;
            throw FaultyParticipant.<RuntimeException>sneaky(throwable);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }

    @Override
    public boolean check(TxnContext txn, Entry entry) {
        if (!mine()) {
            return true;
        }
        if (conflicts > 0) {
            conflicts--;
            return false;
        }
        maybeFire(Phase.CHECK);
        return true;
    }

    @Override
    public void install(TxnContext txn, Entry entry, long commitTimestamp) {
        if (mine()) {
            installs++;
            maybeFire(Phase.INSTALL);
        }
    }

    @Override
    public void cleanup(TxnContext txn, Entry entry, boolean committed) {
        if (mine()) {
            cleanups++;
            cleanupCommitted = committed;
            maybeFire(Phase.CLEANUP);
        }
    }

    @Override
    public String checkQuiescent() {
        return stm.concurrencyControl().checkQuiescent(item);
    }
}
