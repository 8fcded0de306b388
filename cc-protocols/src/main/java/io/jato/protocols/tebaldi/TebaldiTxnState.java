package io.jato.protocols.tebaldi;

/** One thread's transaction state under {@code tebaldi}; owner thread only. */
final class TebaldiTxnState {
    /** The running transaction's group (1..G), chosen at its first attempt and kept across retries. */
    int group;
    /** 1 + the index of the 2pl node's child holding the group, or 0: takes no node locks. */
    int lockChild;
    /** The group is read-only: a write is refused. */
    boolean readOnly;
    /** The attempt holds a commit lock (then later commit locks spin only briefly). */
    boolean holdsLock;
    /** Node locks this attempt holds (entries flagged {@code PROTOCOL_FLAG_0}). */
    int nodeLocks;
    /** xorshift state for {@code untyped=random}; never 0. */
    long random;
}
