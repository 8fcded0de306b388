package io.jato.collections.internal.sorted;

import io.jato.stm.spi.TxItem;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A node of the physical B+-tree: the node's own seqlock, its level and its keys. Extends
 * {@link TxItem} so that a {@link Leaf} is its own structure-version item; the protocol-owned words
 * of an {@link Inner} node are never used (inner nodes are not transactional).
 *
 * <h2>The seqlock word ({@code seq})</h2>
 * <pre>
 *  63                                                          2   1   0
 * +-------------------------------------------------------------+---+---+
 * |                  change counter (62 bits)                    | O | L |
 * +-------------------------------------------------------------+---+---+
 * </pre>
 * {@code L} (locked): a writer is changing the node's fields; set by CAS, cleared by a release store
 * that also adds {@link #UNIT} (or restores the word if nothing changed). {@code O} (obsolete): the
 * node was unlinked from the tree (an empty leaf merged away, or an inner node above it); final.
 * This word is the tree's physical concurrency only; it is unrelated to the transactional version
 * the store's protocol keeps in the {@link TxItem} words.
 *
 * <p>Readers never write: they load the word (acquire), read the fields with plain loads (a torn
 * read is harmless: arrays are only ever replaced, never shrunk below the count a reader may see,
 * and the reader clamps indexes), then {@link #validate} (acquire fence, load the word again). Every
 * writer holds {@code L} while it changes the fields, so equal unlocked words mean a consistent
 * snapshot (the protocol of {@code java.util.concurrent.locks.StampedLock#tryOptimisticRead}).
 */
abstract class Node extends TxItem {
    static final long LOCKED = 1L;
    static final long OBSOLETE = 2L;
    static final long UNIT = 4L;

    private static final VarHandle SEQ;

    static {
        try {
            SEQ = MethodHandles.lookup().findVarHandle(Node.class, "seq", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The seqlock word; accessed only through {@code SEQ}. */
    @SuppressWarnings("unused")
    private volatile long seq;

    /** 0 for a leaf; an inner node is one above its children. */
    final int level;
    /** Keys in a leaf, separators in an inner node. Changed only under {@code L}. */
    int count;
    /** The keys of a long-key index (else null). Replaced, never shrunk, when it grows. */
    long[] lkeys;
    /** The keys of an object-key index (else null). */
    Object[] okeys;

    /** @param domain the index's protocol domain (every node and slot of an index is in it) */
    Node(int level, boolean longKeys, int capacity, int domain) {
        super(domain);
        this.level = level;
        if (longKeys) {
            lkeys = new long[capacity];
        } else {
            okeys = new Object[capacity];
        }
    }

    /** Makes a node that is not yet reachable start out locked by its creator. */
    final void initLocked() {
        SEQ.set(this, LOCKED);
    }

    final long seqAcquire() {
        return (long) SEQ.getAcquire(this);
    }

    /** @return true if the fields read since {@code v} was loaded form a consistent snapshot */
    final boolean validate(long v) {
        VarHandle.acquireFence();
        return (long) SEQ.getOpaque(this) == v;
    }

    /**
     * Takes the node's lock, waiting while another writer holds it.
     *
     * @return false (and no lock) if the node is obsolete
     */
    final boolean lock() {
        for (int spins = 0;; spins++) {
            long v = (long) SEQ.getVolatile(this);
            if ((v & OBSOLETE) != 0) {
                return false;
            }
            if ((v & LOCKED) == 0 && SEQ.compareAndSet(this, v, v | LOCKED)) {
                return true;
            }
            pause(spins);
        }
    }

    /** Releases the lock after a change: readers that overlapped it retry. */
    final void unlock() {
        long v = (long) SEQ.get(this);
        SEQ.setRelease(this, (v & ~LOCKED) + UNIT);
    }

    /** Releases the lock without a change: the word is restored, so readers need not retry. */
    final void unlockUnchanged() {
        long v = (long) SEQ.get(this);
        SEQ.setRelease(this, v & ~LOCKED);
    }

    /** Releases the lock of a node just unlinked: it stays obsolete forever. */
    final void unlockObsolete() {
        long v = (long) SEQ.get(this);
        SEQ.setRelease(this, ((v & ~LOCKED) + UNIT) | OBSOLETE);
    }

    /** @return true if a writer holds the lock (diagnostics) */
    final boolean isLockedNow() {
        return (seqAcquire() & LOCKED) != 0;
    }

    /** @return true if the node was unlinked (diagnostics) */
    final boolean isObsoleteNow() {
        return (seqAcquire() & OBSOLETE) != 0;
    }

    /** Busy-waits politely: spin first, then yield (a lock holder may have been descheduled). */
    static void pause(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
