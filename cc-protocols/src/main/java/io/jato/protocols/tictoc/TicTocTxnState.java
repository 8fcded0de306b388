package io.jato.protocols.tictoc;

/** Per-transaction TicToc state; owned by one thread. */
final class TicTocTxnState extends TicTocTxnStatePadding {
    /** True once the first lock of this attempt ran the preemptive-abort check. */
    boolean prechecked;
    /** Snapshot isolation: the timestamp every read is validated at. */
    long commitRts;
}

/**
 * Leading padding: the state is written by its thread on every transaction, and a garbage
 * collection may copy another thread's state next to it (false sharing); see the core's
 * {@code ThreadPadding}.
 */
abstract class TicTocTxnStatePadding {
    int pad0;
    long pad1, pad2, pad3, pad4, pad5, pad6, pad7, pad8;
}
