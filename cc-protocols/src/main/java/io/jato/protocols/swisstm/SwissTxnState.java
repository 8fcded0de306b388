package io.jato.protocols.swisstm;

import io.jato.stm.spi.ThreadPadding;
import io.jato.stm.spi.TxnContext;

/**
 * Per-context SwissTM state. The owner thread writes every field; other threads (a contention
 * manager deciding whom to abort) read {@link #id}, {@link #txn}, {@link #attempt} and
 * {@link #greedy}, the last two volatile and written by the owner with volatile stores.
 */
final class SwissTxnState extends ThreadPadding {
    /** The write-lock owner id this context's locks carry (unique in the store, never 0). */
    final long id;
    /** The context, so that a contention manager can ask it to abort ({@link TxnContext#requestAbort}). */
    final TxnContext txn;
    /** The running attempt's id ({@link TxnContext#attemptId()}), published at begin. */
    volatile long attempt;
    /** Greedy timestamp: {@link SwissTmControl#TIMID} until enough writes; kept across retries. */
    volatile long greedy;
    /** The commit counter value the reads so far are known consistent at. */
    long validTs;
    /** Writes this attempt (the two-phase contention manager's switch). */
    int writes;
    /** The commit took a timestamp from the commit counter (it writes). */
    boolean writer;

    SwissTxnState(long id, TxnContext txn) {
        this.id = id;
        this.txn = txn;
    }
}
