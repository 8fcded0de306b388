package io.jato.durable.internal;

import io.jato.stm.spi.TxItem;

/**
 * The commit-order item of a stripe of keys of one durable map. Every transaction that writes a
 * key of the stripe also writes this item (a version-only custom write), so the protocol locks it
 * with the transaction's other writes; with the lock held the commit takes the next sequence number
 * for each of its writes to the stripe. Sequence numbers therefore follow commit order per key,
 * whatever order the logger later drains the threads' buffers in, and recovery applies a key's
 * write only if its number is above the one it has.
 */
public final class LogStripe extends TxItem {
    /**
     * The last sequence number given to a write of this stripe. Written and read only by the holder
     * of this item's lock (a commit's check phase, the checkpointer under lockNonTx, recovery before
     * the store opens); the lock's acquire and release order it.
     */
    long seq;

    LogStripe(int domain) {
        super(domain);
    }
}
