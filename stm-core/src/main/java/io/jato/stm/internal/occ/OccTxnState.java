package io.jato.stm.internal.occ;

import io.jato.stm.spi.ThreadPadding;

/** Per-transaction OCC state; owned by one thread. */
final class OccTxnState extends ThreadPadding {
    /** The largest TID this attempt read or locked. */
    long maxSeen;
    /** The TID of this thread's last committed writing transaction. */
    long lastTid;
    /** Whether this attempt's commit has locked an item yet (it then waits only briefly for more). */
    boolean holdsLock;
}
