package io.jato.jmh.workloads;

import io.jato.stm.AbortCause;
import io.jato.stm.Stm;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Commits and aborted attempts, by cause, of one benchmark thread during one iteration, reported
 * by JMH beside the score as secondary results (summed over threads). The abort rate of a result
 * is {@code aborts / (commits + aborts)}, the runner's definition; a TPC-C new-order rolled back
 * on purpose (clause 2.4.2.3) counts as one {@code abortUser}.
 *
 * <p>Counting costs nothing per operation: the thread's own store counters
 * ({@link Stm#copyThreadCounters}, no lock, no allocation) are copied once before the iteration,
 * in its set-up, and once after it, in its tear-down, which JMH runs before it reads these fields.
 * The store is the one of the trial now running ({@link WorkloadTrial#running}): a fork runs one
 * trial at a time, and JMH runs every trial-level set-up, the database's included, before the
 * first iteration-level one.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class Attempts {
    /** Transactions committed. */
    public long commits;
    /** Attempts aborted, every cause. */
    public long aborts;
    /** {@link AbortCause#READ_VALIDATION}. */
    public long abortReadValidation;
    /** {@link AbortCause#READ_LOCKED}. */
    public long abortReadLocked;
    /** {@link AbortCause#LOCK_BUSY}. */
    public long abortLockBusy;
    /** {@link AbortCause#READ_BUSY}. */
    public long abortReadBusy;
    /** {@link AbortCause#DELETED}. */
    public long abortDeleted;
    /** {@link AbortCause#TIMESTAMP_ORDER}. */
    public long abortTimestampOrder;
    /** {@link AbortCause#REMOTE_ABORT}. */
    public long abortRemote;
    /** {@link AbortCause#INCONSISTENT_READ}. */
    public long abortInconsistentRead;
    /** {@link AbortCause#USER_ABORT}: rolled back on purpose by the body. */
    public long abortUser;
    /** {@link AbortCause#USER_EXCEPTION}. */
    public long abortUserException;
    /** {@link AbortCause#INTERNAL_FAILURE}. */
    public long abortInternal;
    /** {@link AbortCause#RETRY}: a body that called {@code txn.retry()} and waited. */
    public long abortRetry;

    private Stm stm;
    private final long[] before = new long[Stm.COUNTER_SLOTS];
    private final long[] after = new long[Stm.COUNTER_SLOTS];

    @Setup(Level.Iteration)
    public void start() {
        stm = WorkloadTrial.running().stm();
        stm.copyThreadCounters(before);
    }

    @TearDown(Level.Iteration)
    public void stop() {
        stm.copyThreadCounters(after);
        commits = delta(1);
        long all = 0;
        for (AbortCause c : AbortCause.values()) {
            long n = delta(2 + c.ordinal());
            all += n;
            switch (c) {
                case READ_VALIDATION -> abortReadValidation = n;
                case READ_LOCKED -> abortReadLocked = n;
                case LOCK_BUSY -> abortLockBusy = n;
                case READ_BUSY -> abortReadBusy = n;
                case DELETED -> abortDeleted = n;
                case TIMESTAMP_ORDER -> abortTimestampOrder = n;
                case REMOTE_ABORT -> abortRemote = n;
                case INCONSISTENT_READ -> abortInconsistentRead = n;
                case USER_ABORT -> abortUser = n;
                case USER_EXCEPTION -> abortUserException = n;
                case INTERNAL_FAILURE -> abortInternal = n;
                case RETRY -> abortRetry = n;
                default -> throw new IllegalStateException("abort cause " + c + " has no counter here: add one");
            }
        }
        aborts = all;
    }

    private long delta(int slot) {
        return after[slot] - before[slot];
    }
}
