package io.jato.protocols.tictoc;

import io.jato.stm.spi.ThreadPadding;

/** Per-transaction TicToc state; owned by one thread. */
final class TicTocTxnState extends ThreadPadding {
    /** True once the first lock of this attempt ran the preemptive-abort check. */
    boolean prechecked;
    /** Snapshot isolation: the timestamp every read is validated at. */
    long commitRts;
    /**
     * The largest wts of the items this attempt read with no entry (readUnchangingRef): the
     * commit timestamp must not be below it, and nothing else about such a read needs checking.
     */
    long unchangingWts;
}
