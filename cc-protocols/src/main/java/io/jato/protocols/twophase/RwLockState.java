package io.jato.protocols.twophase;

import io.jato.stm.spi.ThreadPadding;
import io.jato.stm.spi.TxnContext;

/**
 * The per-transaction state {@link RwLocks} needs: the wait-die age, the number of shared locks
 * the attempt holds and whether it runs escalated. Owned by one thread (its context's); protocols
 * that take {@link RwLockWord} locks extend it with their own fields.
 */
public class RwLockState extends ThreadPadding {
    /** The context this state belongs to (its transaction's age and remote-abort requests); set by {@link #begin}. */
    TxnContext txn;
    /**
     * Wait-die age this attempt's locks record: 0 until its first lock, then derived from the
     * transaction's age ({@link TxnContext#age}, which survives retries and is the same in every
     * protocol of the store).
     */
    long age;
    /** Shared locks this attempt holds (entries flagged {@code Entry.PROTOCOL_FLAG_0}). */
    int shared;
    /** This attempt runs escalated (the store's escalation token): it waits for every lock. */
    boolean escalated;

    /** For subclasses and {@link TwoPhaseControl}. */
    public RwLockState() {
    }

    /** Resets the state for a new attempt of {@code txn}: no lock held, the age not yet looked up. */
    public final void begin(TxnContext txn) {
        if (this.txn != txn) {
            this.txn = txn;
        }
        age = 0;
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
