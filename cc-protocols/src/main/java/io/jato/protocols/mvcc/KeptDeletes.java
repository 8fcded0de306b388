package io.jato.protocols.mvcc;

import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;

/**
 * The deletes one thread committed whose items stay linked ({@code keepsDeleted}) until no
 * snapshot can read a version before the delete: each item, the participant that unlinks it, and
 * the delete's commit timestamp, in commit order (a ring). The owning thread adds; any thread
 * collects ({@link #unlinkUpTo}). Every method holds the instance's monitor only for array work,
 * never while calling a participant, so a collector never blocks an owner that is installing.
 * {@link #reserve} grows the ring before a commit's install phase so that {@link #add}, called
 * from the install, never allocates.
 */
final class KeptDeletes {
    private TxItem[] items = new TxItem[8];
    private TxParticipant[] participants = new TxParticipant[8];
    private long[] timestamps = new long[8];
    /** Index of the oldest delete kept. */
    private int first;
    private int size;

    /** Makes room for {@code more} deletes (allocates; call before the install phase). */
    synchronized void reserve(int more) {
        int need = size + more;
        if (need > items.length) {
            int n = Math.max(need, items.length * 2);
            TxItem[] is = new TxItem[n];
            TxParticipant[] ps = new TxParticipant[n];
            long[] ts = new long[n];
            for (int i = 0; i < size; i++) {
                int at = (first + i) % items.length;
                is[i] = items[at];
                ps[i] = participants[at];
                ts[i] = timestamps[at];
            }
            items = is;
            participants = ps;
            timestamps = ts;
            first = 0;
        }
    }

    /** Notes a delete; room was reserved. */
    synchronized void add(TxItem item, TxParticipant participant, long ts) {
        int at = (first + size) % items.length;
        items[at] = item;
        participants[at] = participant;
        timestamps[at] = ts;
        size++;
    }

    synchronized int size() {
        return size;
    }

    /**
     * Unlinks, oldest first, every kept delete committed at or below {@code horizon} (a snapshot
     * at or above the horizon sees the delete, so nobody needs the version before it). Each
     * leaves the ring before its participant is called: one that throws loses only its own item,
     * which then stays linked answering "no version" (absent).
     *
     * @return how many left the ring
     */
    int unlinkUpTo(long horizon, DeleteCollector control) {
        int done = 0;
        for (;;) {
            TxItem item;
            TxParticipant p;
            synchronized (this) {
                if (size == 0 || timestamps[first] > horizon) {
                    return done;
                }
                item = items[first];
                p = participants[first];
                items[first] = null;
                participants[first] = null;
                first = (first + 1) % items.length;
                size--;
            }
            done++;
            control.unlinkKept(p, item, horizon);
        }
    }

    /**
     * Moves every delete kept here to {@code heir} (a dead thread's list to the store's), oldest
     * first; allocates.
     */
    void moveTo(KeptDeletes heir) {
        for (;;) {
            TxItem item;
            TxParticipant p;
            long ts;
            synchronized (this) {
                if (size == 0) {
                    return;
                }
                item = items[first];
                p = participants[first];
                ts = timestamps[first];
                items[first] = null;
                participants[first] = null;
                first = (first + 1) % items.length;
                size--;
            }
            synchronized (heir) {
                heir.reserve(1);
                heir.add(item, p, ts);
            }
        }
    }

    @Override
    public synchronized String toString() {
        return size + " kept deletes" + (size == 0 ? "" : ", oldest at " + timestamps[first]);
    }
}
