package io.jato.protocols.mvcc;

import io.jato.protocols.tictoc.TicTocWord;
import io.jato.stm.AbortCause;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;

import java.util.concurrent.locks.LockSupport;

import static io.jato.protocols.tictoc.TicTocWord.LOCKED;
import static io.jato.protocols.tictoc.TicTocWord.RETIRED;
import static io.jato.protocols.tictoc.TicTocWord.wts;

/**
 * The commit of {@code mvcc}'s delta versions (docs/mvcc.md, "Delta versions"): how a commutative
 * add joins, leaves and closes its item's {@link DeltaGroup}, for {@link MvccControl}'s {@code lock},
 * {@code publish}, {@code unlock} and {@code unlockChanged}. One per store; thread-safe (all state is
 * in the items and their groups).
 */
final class DeltaWrites {
    /**
     * Entry flag (write entries that are not read, so never mistaken for the read entries' use of
     * the same bit): a member of the item's open {@link DeltaGroup}, its add in {@link Entry#readRef()}
     * (null for the member that opened the group).
     */
    static final int DELTA = Entry.PROTOCOL_FLAG_1;

    private final MvccControl control;
    /** The store binds several protocols: an adder may hold locks other protocols took while it ran. */
    private final boolean mixed;
    private final int lockSpins;

    DeltaWrites(MvccControl control, boolean mixed, int lockSpins) {
        this.control = control;
        this.mixed = mixed;
        this.lockSpins = lockSpins;
    }

    /**
     * True for a write that is one commutative add and nothing else (not read): it becomes a delta
     * version, in the item's {@link DeltaGroup}, instead of an exclusive write.
     */
    static boolean isDelta(Entry e) {
        return e.kind() == Entry.KIND_ADD_LONG
                && (e.flags() & (Entry.UPDATE | Entry.COMMUTATIVE | Entry.READ)) == (Entry.UPDATE | Entry.COMMUTATIVE);
    }

    /**
     * Makes {@code e} a member of its item's delta group: locks the item and opens a group if it
     * is unlocked, joins the open group if one holds the lock, else spins like {@code MvccControl.lock}.
     * Members never wait for each other (docs/mvcc.md, "Delta versions"), except for a full or
     * closing group to unlock. An attempt that holds no other lock waits for that without bound:
     * it blocks nobody, and every holder it waits for is in its commit (a bounded wait would abort
     * adders whose only conflict is a descheduled member of a full group).
     */
    AbortCause join(TxnContext txn, Entry e) {
        // The first write of a store of one protocol: nothing is locked yet (2PL-like protocols
        // of a mixed store may hold locks taken while the body ran).
        if (mixed || txn.writeAt(0) != e) {
            return tryJoinDelta(e);
        }
        // A park returns at once while the interrupt flag is set: clear it for the wait and set it
        // again after (Stm.atomic is not interruptible; a pending interrupt must not make it spin).
        boolean interrupted = false;
        try {
            for (int parks = 0;; parks++) {
                AbortCause cause = tryJoinDelta(e);
                if (cause != AbortCause.LOCK_BUSY) {
                    return cause;
                }
                // Past the spin bound: the holder is descheduled; let it run.
                if (Thread.interrupted()) {
                    interrupted = true;
                }
                LockSupport.parkNanos(this, 1_000L << Math.min(parks, 7));
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * One try of {@link #join}: opens or joins, spinning up to the lock
     * spin bound while the item is held by something {@code e} cannot join; then LOCK_BUSY.
     */
    private AbortCause tryJoinDelta(Entry e) {
        TxItem item = e.item();
        // A joiner's add is allocated here, in the lock phase: install and publish must not allocate.
        DeltaGroup.Add add = null;
        for (int spins = 0;; ) {
            long w = Items.wordVolatile(item);
            if ((w & RETIRED) != 0) {
                return AbortCause.DELETED;
            }
            if ((w & LOCKED) == 0) {
                if (Items.casWord(item, w, w | LOCKED)) {
                    // Locked first, so the abort path restores the word if the group cannot be made.
                    e.setLockedWord(w);
                    e.addFlags(Entry.LOCKED);
                    Version head = (Version) Items.extAcquire(item);
                    control.push(item, new DeltaGroup(wts(w), ((LongItem) item).valueAcquire(), head, w, e.pendingLong()));
                    e.setReadRef(null); // the opener: its add is the group's own
                    e.addFlags(DELTA);
                    return null;
                }
            } else {
                Object head = Items.extAcquire(item);
                // An open group at the head holds the lock (it closes before it unlocks).
                if (head instanceof DeltaGroup && ((DeltaGroup) head).admits()) {
                    if (add == null) {
                        add = new DeltaGroup.Add(e.pendingLong());
                    }
                    if (((DeltaGroup) head).tryJoin()) {
                        e.setLockedWord(w);
                        e.setReadRef(add);
                        e.addFlags(Entry.LOCKED | DELTA);
                        return null;
                    }
                }
                if (++spins > lockSpins) {
                    return AbortCause.LOCK_BUSY;
                }
            }
            Thread.onSpinWait();
        }
    }

    /** A member leaves its group, having committed its add at {@code ts} (0: without it); the last one closes it. */
    void leave(Entry e, long ts) {
        TxItem item = e.item();
        DeltaGroup g = (DeltaGroup) Items.extAcquire(item);
        if (ts != 0) {
            DeltaGroup.Add add = (DeltaGroup.Add) e.readRef();
            if (add == null) {
                g.commitOpener(ts);
            } else {
                g.commit(add, ts);
            }
        }
        e.clearFlags(DELTA);
        e.setReadRef(null);
        if (g.leave()) {
            closeGroup(item, g);
        }
    }

    /**
     * The last member of {@code g} left: flattens the adds into the value in place and publishes
     * the item at the newest add, or, if none committed, pops the group and restores the word.
     */
    private void closeGroup(TxItem item, DeltaGroup g) {
        DeltaGroup.Add adds = g.adds();
        long opener = g.openerTs();
        if (adds == null && opener == 0) {
            Items.setExtRelease(item, g.next());
            Items.setWordRelease(item, g.baseWord);
            return;
        }
        long sum = opener != 0 ? g.openerAmount : 0;
        long first = opener != 0 ? opener : Long.MAX_VALUE;
        long last = opener;
        for (DeltaGroup.Add a = adds; a != null; a = a.next) {
            sum += a.amount;
            first = Math.min(first, a.ts);
            last = Math.max(last, a.ts);
        }
        control.installLong((LongItem) item, g.value + sum);
        g.setBaseEnd(first);
        g.setEnd(last);
        Items.setWord2Release(item, last);
        Items.setWordRelease(item, TicTocWord.wordOf(last));
    }
}
