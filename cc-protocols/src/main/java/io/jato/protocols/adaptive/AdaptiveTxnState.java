package io.jato.protocols.adaptive;

import io.jato.protocols.twophase.RwLockState;

/** Per-transaction adaptive-lock state; owned by one thread (its context's). */
final class AdaptiveTxnState extends RwLockState {
    /** Counts this thread's committed pessimistic reads, to decay one score in {@code READ_DECAY_PERIOD}. */
    int reads;
}
