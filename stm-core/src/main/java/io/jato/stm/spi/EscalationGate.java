package io.jato.stm.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/*
 * The store's escalation token (docs/lock-family.md, "No starvation"). A transaction that aborted
 * Stm.Builder.escalateAfter times in a row takes it before its next attempt and keeps it until the
 * transaction ends; starving transactions queue for it in ticket order. While one holds it:
 *  - every other writing commit reads the owner once, after its lock phase, and aborts (LOCK_BUSY),
 *    then waits, holding nothing, until the token is free before its next attempt;
 *  - protocols give the owner priority (TxnContext.isEscalated): it waits for locks others hold
 *    instead of aborting, and nobody waits for it.
 * The owner's write is followed by a full fence before its attempt reads anything, and a committer
 * reads the owner after its lock CASes: either the committer sees the owner and aborts, or the
 * owner's reads see the committer's locks (and wait for its publish). Nobody else writes here, so
 * nobody starving costs each writing commit one volatile load of a line that never changes.
 */

/** A store's escalation token; thread-safe. The fields are padded: every writing commit reads {@code owner}. */
final class EscalationGate extends ThreadPadding {
    private static final VarHandle NEXT;
    private static final VarHandle SERVING;
    private static final VarHandle OWNER;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            NEXT = l.findVarHandle(EscalationGate.class, "next", long.class);
            SERVING = l.findVarHandle(EscalationGate.class, "serving", long.class);
            OWNER = l.findVarHandle(EscalationGate.class, "owner", TxnContext.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Polls before a waiter parks between polls. */
    private static final int SPINS_BEFORE_PARK = 256;
    private static final long PARK_NANOS = 20_000;

    /**
     * The transaction holding the token, or null. Written by the holder only (volatile store on
     * taking and before releasing it), read by every writing commit (volatile load).
     */
    @SuppressWarnings("unused") // accessed through OWNER
    private volatile TxnContext owner;
    /** The next ticket to hand out; atomically incremented by each starving transaction. */
    @SuppressWarnings("unused") // accessed through NEXT
    private volatile long next;
    /** The ticket whose holder may take the token; incremented (volatile) by the releasing holder. */
    @SuppressWarnings("unused") // accessed through SERVING
    private volatile long serving;
    @SuppressWarnings("unused")
    private long pad1, pad2, pad3, pad4, pad5, pad6, pad7, pad8;

    /** @return true if a transaction other than {@code txn} holds the token (one volatile load) */
    boolean heldByOther(TxnContext txn) {
        Object o = OWNER.getVolatile(this);
        return o != null && o != txn;
    }

    /** Takes the token for {@code txn}, waiting for the starving transactions ahead of it. */
    void acquire(TxnContext txn) {
        long ticket = (long) NEXT.getAndAdd(this, 1L);
        for (int spins = 0; (long) SERVING.getVolatile(this) != ticket; spins++) {
            pause(spins);
        }
        OWNER.setVolatile(this, txn);
        // The attempt's reads must not move before the owner store (the committers' Dekker pair).
        VarHandle.fullFence();
    }

    /** Gives the token back; called by its holder only. */
    void release() {
        OWNER.setVolatile(this, null);
        SERVING.getAndAdd(this, 1L);
    }

    /** Waits, holding nothing, while another transaction holds the token. */
    void awaitFree(TxnContext txn) {
        for (int spins = 0; heldByOther(txn); spins++) {
            pause(spins);
        }
    }

    private static void pause(int spins) {
        if (spins < SPINS_BEFORE_PARK) {
            LockBitWords.pause(spins);
        } else {
            LockSupport.parkNanos(PARK_NANOS);
        }
    }
}
