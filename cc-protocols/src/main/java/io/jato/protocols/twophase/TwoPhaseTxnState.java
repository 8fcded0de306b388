package io.jato.protocols.twophase;

import io.jato.stm.spi.ThreadPadding;

/** Per-transaction 2PL state; owned by one thread (its context's). */
final class TwoPhaseTxnState extends ThreadPadding {
    /**
     * Wait-die age of the running transaction: 0 until its first lock, then taken from the store's
     * age counter and kept across its retries (reset when the next transaction begins).
     */
    long age;
    /** Shared locks this attempt holds (entries flagged {@code Entry.PROTOCOL_FLAG_0}). */
    int shared;
    /** This attempt runs escalated (the store's escalation token): it waits for every lock. */
    boolean escalated;
}
