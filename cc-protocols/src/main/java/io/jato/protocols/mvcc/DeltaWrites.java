package io.jato.protocols.mvcc;

import io.jato.protocols.tictoc.TicTocWord;
import io.jato.stm.AbortCause;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
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
     * (null for the member that opened a long item's group).
     */
    static final int MEMBER = Entry.PROTOCOL_FLAG_1;

    private final MvccControl control;
    private final ProtocolContext context;
    /** The store binds several protocols: an adder may hold locks other protocols took while it ran. */
    private final boolean mixed;
    private final int lockSpins;
    /** Option {@link MvccProtocol#UPDATER_DELTAS}: custom writes' commutative operations are deltas too. */
    private final boolean updaterDeltas;
    /** ... but only where contended: joining an open group, or opening one in a retry. */
    private final boolean onlyContended;

    DeltaWrites(MvccControl control, ProtocolContext context, boolean mixed, int lockSpins) {
        this.control = control;
        this.context = context;
        this.mixed = mixed;
        this.lockSpins = lockSpins;
        int mode = context.choiceOption(MvccProtocol.UPDATER_DELTAS, MvccProtocol.DELTAS_OFF,
                MvccProtocol.DELTAS_ALWAYS, MvccProtocol.DELTAS_CONTENDED);
        this.updaterDeltas = mode != 0;
        this.onlyContended = mode == 2;
    }

    /**
     * True for a write that is commutative commit-time operations and nothing else (not read): one
     * add to a long item, or a custom write's operations (a record group's {@code @Commutative}
     * updaters, a map value's commutative updaters: a participant that
     * {@linkplain TxParticipant#supportsDeltaVersions supports delta versions}, with the option
     * {@link MvccProtocol#UPDATER_DELTAS} on; with it at {@code contended}, only if a group is open
     * on the item or {@code txn} is retrying). It becomes a delta version, in the item's
     * {@link DeltaGroup}, instead of an exclusive write. Decided once per commit, at lock.
     */
    boolean isDelta(TxnContext txn, Entry e) {
        if ((e.flags() & (Entry.UPDATE | Entry.COMMUTATIVE | Entry.READ)) != (Entry.UPDATE | Entry.COMMUTATIVE)) {
            return false;
        }
        int kind = e.kind();
        if (kind == Entry.KIND_ADD_LONG) {
            return true;
        }
        if (!updaterDeltas || kind != Entry.KIND_CUSTOM || !e.participant().supportsDeltaVersions()) {
            return false;
        }
        // Contended only: the first attempt of an updater that finds no group open writes
        // exclusively (cheaper, and uncontended it meets nobody); a retry, which some conflict
        // caused, opens a group that later updaters of the item join.
        return !onlyContended || txn.attempt() > 0 || groupOpen(e.item());
    }

    /** A hint ({@link #tryJoinDelta} decides): {@code item} is locked by an open group of operations with room. */
    private static boolean groupOpen(TxItem item) {
        if ((Items.wordVolatile(item) & LOCKED) == 0) {
            return false;
        }
        Object head = Items.extAcquire(item);
        return head instanceof DeltaGroup && ((DeltaGroup) head).admits() && ((DeltaGroup) head).hasOperations();
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
            return tryJoinDelta(txn, e);
        }
        // A park returns at once while the interrupt flag is set: clear it for the wait and set it
        // again after (Stm.atomic is not interruptible; a pending interrupt must not make it spin).
        boolean interrupted = false;
        try {
            for (int parks = 0;; parks++) {
                AbortCause cause = tryJoinDelta(txn, e);
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
    private AbortCause tryJoinDelta(TxnContext txn, Entry e) {
        TxItem item = e.item();
        boolean ops = e.kind() == Entry.KIND_CUSTOM;
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
                    if (ops) {
                        TxParticipant p = e.participant();
                        DeltaGroup.Add mine = add != null ? add : new DeltaGroup.Add(operations(txn, e));
                        boolean cell = item instanceof RefItem;
                        // The value before the group, read while locked: the group's base.
                        Object base = cell ? ((RefItem) item).valueAcquire() : p.captureVersion(txn, e);
                        if (base == ConcurrencyControl.NO_VERSION) {
                            // A map node whose delete committed and is kept linked: the key is
                            // absent, the update cannot apply; the retry sees it (as the check would).
                            return AbortCause.READ_VALIDATION;
                        }
                        control.push(item, new DeltaGroup(wts(w), base, head, w, p, e.key()));
                        e.setReadRef(mine);
                        e.addFlags(Entry.DELTA); // the participant's check leaves the operations to us
                    } else {
                        control.push(item, new DeltaGroup(wts(w), ((LongItem) item).valueAcquire(), head, w,
                                e.pendingLong()));
                        e.setReadRef(null); // the opener: its add is the group's own
                    }
                    e.addFlags(MEMBER);
                    return null;
                }
            } else {
                Object head = Items.extAcquire(item);
                // An open group at the head holds the lock (it closes before it unlocks).
                if (head instanceof DeltaGroup && ((DeltaGroup) head).admits()
                        && ((DeltaGroup) head).hasOperations() == ops) {
                    if (add == null) {
                        add = ops ? new DeltaGroup.Add(operations(txn, e)) : new DeltaGroup.Add(e.pendingLong());
                    }
                    if (((DeltaGroup) head).tryJoin()) {
                        e.setLockedWord(w);
                        e.setReadRef(add);
                        e.addFlags(Entry.LOCKED | MEMBER | (ops ? Entry.DELTA : 0));
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

    /** A member's operations, copied out of the entry: they outlive the transaction in the group. */
    private static Object[] operations(TxnContext txn, Entry e) {
        TxParticipant p = e.participant();
        Object[] ops = new Object[p.operationCount(txn, e)];
        for (int i = 0; i < ops.length; i++) {
            ops[i] = p.operation(txn, e, i);
        }
        return ops;
    }

    /**
     * The prepare step of a transaction with operation deltas (before its point of no return):
     * each such member takes its group's token and applies its operations to the group's running
     * result, so an operation that throws aborts this commit with nothing changed. The token is
     * held until the member leaves. Waits for a token boundedly (two members may each hold one the
     * other wants), unless escalated; then LOCK_BUSY.
     */
    AbortCause prepare(TxnContext txn) {
        for (int k = 0, n = txn.writeCount(); k < n; k++) {
            Entry e = txn.writeAt(k);
            if (!context.owns(e) || !e.has(MEMBER) || e.kind() != Entry.KIND_CUSTOM) {
                continue;
            }
            DeltaGroup.Add add = (DeltaGroup.Add) e.readRef();
            DeltaGroup g = (DeltaGroup) Items.extAcquire(e.item());
            for (int spins = 0; !g.tryTakeToken(); ) {
                if (++spins > lockSpins && !txn.escalatedWaits(spins)) {
                    return AbortCause.LOCK_BUSY;
                }
                Thread.onSpinWait();
            }
            add.holdsToken = true;
            add.result = g.participant.applyOperations(g.key, g.acc, add.ops);
        }
        return null;
    }

    /**
     * A member leaves its group, having committed its add at {@code ts} (0: without it); the last
     * one closes it and notes the closed group in its thread's {@code pushed} versions, to be cut
     * once the horizon passes it (a group has several committers, but one closer).
     */
    void leave(Entry e, long ts, PushedVersions pushed) {
        TxItem item = e.item();
        DeltaGroup g = (DeltaGroup) Items.extAcquire(item);
        DeltaGroup.Add add = (DeltaGroup.Add) e.readRef();
        if (ts != 0) {
            if (add == null) {
                g.commitOpener(ts);
            } else {
                if (add.ops != null) {
                    // Its result, prepared under the token, is the running one now.
                    g.acc = add.result;
                }
                g.commit(add, ts);
            }
        }
        if (add != null) {
            add.result = null;
            if (add.holdsToken) {
                add.holdsToken = false;
                g.releaseToken();
            }
        }
        e.clearFlags(MEMBER | Entry.DELTA);
        e.setReadRef(null);
        if (g.leave() && closeGroup(item, g)) {
            // Room: the closer reserved one per write entry at its commit timestamp, and a delta
            // entry pushes no version of its own. A closer that aborted before reserving finds
            // no room, and the item's next writer trims the group, as before.
            pushed.add(item, g);
        }
    }

    /**
     * The last member of {@code g} left: flattens the adds into the value in place and publishes
     * the item at the newest add (true: the closed group stays on the chain as a version), or, if
     * none committed, pops the group and restores the word (false).
     */
    private boolean closeGroup(TxItem item, DeltaGroup g) {
        DeltaGroup.Add adds = g.adds();
        long opener = g.openerTs();
        if (adds == null && opener == 0) {
            Items.setExtRelease(item, g.next());
            Items.setWordRelease(item, g.baseWord);
            return false;
        }
        long sum = opener != 0 ? g.openerAmount : 0;
        long first = opener != 0 ? opener : Long.MAX_VALUE;
        long last = opener;
        for (DeltaGroup.Add a = adds; a != null; a = a.next) {
            sum += a.amount;
            first = Math.min(first, a.ts);
            last = Math.max(last, a.ts);
        }
        if (g.hasOperations()) {
            // Every committed member's operations are in acc (each applied them under the token).
            if (item instanceof RefItem) {
                // A map node: its value is a cell the protocol stores itself.
                control.installRef((RefItem) item, g.acc);
            } else {
                g.participant.storeVersion(g.key, g.acc);
            }
            g.acc = null;
        } else {
            control.installLong((LongItem) item, g.value + sum);
        }
        g.setBaseEnd(first);
        g.setEnd(last);
        Items.setWord2Release(item, last);
        Items.setWordRelease(item, TicTocWord.wordOf(last));
        return true;
    }
}
