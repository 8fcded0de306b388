package io.jato.protocols.tictoc;

import io.jato.stm.spi.ThreadPadding;

/** Per-transaction TicToc state; owned by one thread. */
final class TicTocTxnState extends ThreadPadding {
    /** True once the first lock of this attempt ran the preemptive-abort check. */
    boolean prechecked;
    /** Snapshot isolation: the timestamp every read is validated at. */
    long commitRts;
}
