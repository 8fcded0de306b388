package io.jato.protocols.mvcc;

import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

import static io.jato.protocols.tictoc.TicTocWord.wts;

/**
 * {@link MvccControl}'s collector of committed deletes. MVCC keeps a deleted map entry linked
 * (holding {@code NO_VERSION}) so that an older snapshot still finds the key; each committing
 * thread notes its kept deletes in its own {@link KeptDeletes}, and whichever thread finishes an
 * attempt while some are kept unlinks, through the data type's {@link TxParticipant#unlinkDeleted},
 * every kept delete the horizon has passed: one collector at a time, holding no item lock.
 * Thread-safe.
 */
final class DeleteCollector {
    private final ProtocolContext context;
    private final MvccClock clock;
    /** Deletes kept linked in every thread's list: incremented by a committing install, decremented by collectors. */
    private final AtomicInteger kept = new AtomicInteger();
    /** Held by the one thread that unlinks kept deletes at a time. */
    private final ReentrantLock collecting = new ReentrantLock();
    /** The kept delete being unlinked and the horizon it was found under: written and read by the holder of {@link #collecting}. */
    private TxItem unlinkingItem;
    private long unlinkingBound;
    /** Kept deletes of threads that died before they could be unlinked; collected like the others. */
    private final KeptDeletes orphans = new KeptDeletes();

    DeleteCollector(ProtocolContext context, MvccClock clock) {
        this.context = context;
        this.clock = clock;
    }

    /** A committing install kept one more delete (noted in its thread's list). */
    void added() {
        kept.incrementAndGet();
    }

    /** @return how many committed deletes are kept linked now */
    int kept() {
        return kept.get();
    }

    /** A dead thread's list: its kept deletes are collected with the others from now on. */
    void adopt(KeptDeletes list) {
        list.moveTo(orphans);
    }

    /**
     * Unlinks the kept deletes of every thread of the store that no snapshot can see before, if
     * any are kept and no other thread collects now: called by whichever thread finishes an
     * attempt, holding no item locks.
     */
    void collectIfAny() {
        if (kept.get() == 0 || !collecting.tryLock()) {
            return; // another thread collects now; the next finish tries again
        }
        try {
            collectLocked();
        } finally {
            collecting.unlock();
        }
    }

    private void collectLocked() {
        clock.advance();
        long h = clock.horizon();
        List<Object> states = context.txnStates();
        for (int i = 0, n = states.size(); i < n; i++) {
            MvccTxnState st = (MvccTxnState) states.get(i);
            if (st == null) {
                continue; // a vacant slot of the registry
            }
            int done = st.kept.unlinkUpTo(h, this);
            if (done > 0) {
                kept.addAndGet(-done);
            }
        }
        int done = orphans.unlinkUpTo(h, this);
        if (done > 0) {
            kept.addAndGet(-done);
        }
    }

    /**
     * Unlinks one kept delete through its participant, unless the item changed after
     * {@code horizon}: then a later write revived it, or a later delete (noted on its own) left it
     * deleted again, which a snapshot between the two must still see present. The check runs
     * inside the participant's non-transactional lock ({@link #isWrittenSinceUnlinking}), so no
     * write can slip between it and the unlink. Caller holds {@link #collecting}.
     */
    void unlinkKept(TxParticipant participant, TxItem item, long horizon) {
        unlinkingItem = item;
        unlinkingBound = horizon;
        try {
            participant.unlinkDeleted(item);
        } finally {
            unlinkingItem = null;
        }
    }

    /**
     * For {@link MvccControl#lockNonTx}, which just locked {@code item} at word {@code w}: true if
     * this thread is unlinking {@code item} as a kept delete and the item was written after the
     * horizon the delete was found under (not that delete's to unlink).
     */
    boolean isWrittenSinceUnlinking(TxItem item, long w) {
        return item == unlinkingItem && wts(w) > unlinkingBound && collecting.isHeldByCurrentThread();
    }
}
