package io.jato.protocols.twophase;

import io.jato.stm.spi.ThreadPadding;
import io.jato.stm.spi.TxnContext;

/**
 * The per-transaction state {@link RwLocks} needs: the wait-die age, the number of shared locks
 * the attempt holds and whether it runs escalated. Owned by one thread (its context's); protocols
 * that take {@link RwLockWord} locks extend it with their own fields.
 */
public class RwLockState extends ThreadPadding {
    /**
     * Wait-die age of the running transaction: 0 until its first lock, then taken from the store's
     * age counter and kept across its retries (reset when the next transaction begins).
     */
    long age;
    /** Shared locks this attempt holds (entries flagged {@code Entry.PROTOCOL_FLAG_0}). */
    int shared;
    /** This attempt runs escalated (the store's escalation token): it waits for every lock. */
    boolean escalated;

    /** For subclasses and {@link TwoPhaseControl}. */
    public RwLockState() {
    }

    /** Resets the state for a new attempt of {@code txn}: no lock held; the age survives retries. */
    public final void begin(TxnContext txn) {
        if (txn.attempt() == 0) {
            age = 0;
        }
        shared = 0;
        escalated = txn.isEscalated();
    }

    /** @return the number of shared locks the attempt still holds */
    public final int shared() {
        return shared;
    }

    /** Records that one shared lock was released (by {@link RwLocks#releaseShared}'s caller). */
    public final void releasedShared() {
        shared--;
    }

    /** @return true if the attempt runs escalated */
    public final boolean escalated() {
        return escalated;
    }
}
