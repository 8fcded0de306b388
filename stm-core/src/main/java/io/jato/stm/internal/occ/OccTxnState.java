package io.jato.stm.internal.occ;

/** Per-transaction OCC state; owned by one thread. */
final class OccTxnState extends io.jato.stm.internal.ThreadPadding {
    /** The largest TID this attempt read or locked. */
    long maxSeen;
    /** The TID of this thread's last committed writing transaction. */
    long lastTid;
    /** Whether this attempt's commit has locked an item yet (it then waits only briefly for more). */
    boolean holdsLock;
}
