package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.TxnRunnable;

import java.util.Arrays;
import java.util.function.Consumer;

/*
 * The hooks one attempt registered (Txn.beforeCommit / afterCommit / afterRollback), in three
 * growable arrays that a context keeps and reuses: registering allocates only while an array grows
 * to the largest number of hooks one transaction uses. The retry loop runs them; the context only
 * counts registrations, so a transaction that registers nothing pays one field check.
 */

/** The before-commit, after-commit and after-rollback hooks of one attempt. Owner thread only. */
final class TxnHooks {
    private TxnRunnable[] before = new TxnRunnable[4];
    private int beforeCount;
    private Runnable[] after = new Runnable[4];
    private int afterCount;
    private Object[] rollback = new Object[4];
    private int rollbackCount;

    void addBefore(TxnRunnable hook) {
        if (beforeCount == before.length) {
            before = Arrays.copyOf(before, beforeCount * 2);
        }
        before[beforeCount++] = hook;
    }

    void addAfter(Runnable hook) {
        if (afterCount == after.length) {
            after = Arrays.copyOf(after, afterCount * 2);
        }
        after[afterCount++] = hook;
    }

    void addRollback(Consumer<? super AbortCause> hook) {
        if (rollbackCount == rollback.length) {
            rollback = Arrays.copyOf(rollback, rollbackCount * 2);
        }
        rollback[rollbackCount++] = hook;
    }

    /**
     * Runs the before-commit hooks in order, including those registered while they run; each
     * runs once. Exceptions propagate (they are the body's).
     */
    void runBefore(TxnContext txn) {
        for (int i = 0; i < beforeCount; i++) {
            TxnRunnable h = before[i];
            before[i] = null;
            h.run(txn);
        }
        beforeCount = 0;
    }

    /**
     * Runs every after-commit hook, each in its own try; returns the first failure with the later
     * ones suppressed into it, or null. Clears the list first of all.
     */
    Throwable runAfter() {
        Throwable failure = null;
        for (int i = 0; i < afterCount; i++) {
            Runnable h = after[i];
            after[i] = null;
            try {
                h.run();
            } catch (Throwable t) {
                failure = failure == null ? t : CommitDriver.addSuppressed(failure, t);
            }
        }
        afterCount = 0;
        return failure;
    }

    /** Runs every after-rollback hook with {@code cause}, each in its own try; as {@link #runAfter}. */
    Throwable runRollback(AbortCause cause) {
        return runRollbackFrom(0, cause);
    }

    /**
     * Runs the after-rollback hooks registered past {@code from} (a nested block that rolled
     * back) with {@code cause}, each in its own try, and drops them; as {@link #runAfter}.
     */
    @SuppressWarnings("unchecked")
    Throwable runRollbackFrom(int from, AbortCause cause) {
        Throwable failure = null;
        for (int i = from; i < rollbackCount; i++) {
            Consumer<? super AbortCause> h = (Consumer<? super AbortCause>) rollback[i];
            rollback[i] = null;
            try {
                h.accept(cause);
            } catch (Throwable t) {
                failure = failure == null ? t : CommitDriver.addSuppressed(failure, t);
            }
        }
        rollbackCount = Math.min(rollbackCount, from);
        return failure;
    }

    /** Writes the three list lengths (before, after, rollback) into {@code into}. */
    void counts(int[] into) {
        into[0] = beforeCount;
        into[1] = afterCount;
        into[2] = rollbackCount;
    }

    /** Drops the registrations past the given lengths (a nested block rolled back). */
    void truncate(int beforeLength, int afterLength, int rollbackLength) {
        if (beforeCount > beforeLength) {
            Arrays.fill(before, beforeLength, beforeCount, null);
            beforeCount = beforeLength;
        }
        if (afterCount > afterLength) {
            Arrays.fill(after, afterLength, afterCount, null);
            afterCount = afterLength;
        }
        if (rollbackCount > rollbackLength) {
            Arrays.fill(rollback, rollbackLength, rollbackCount, null);
            rollbackCount = rollbackLength;
        }
    }

    /** Drops every registration (an attempt ended): no user object stays referenced. */
    void clear() {
        Arrays.fill(before, 0, beforeCount, null);
        beforeCount = 0;
        Arrays.fill(after, 0, afterCount, null);
        afterCount = 0;
        Arrays.fill(rollback, 0, rollbackCount, null);
        rollbackCount = 0;
    }
}
