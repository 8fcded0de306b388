package io.jato.protocols.maat;

import io.jato.stm.spi.Items;
import io.jato.stm.spi.TxItem;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The soft locks on one item: two words with a bit per transaction slot ({@link MaatControl} hands
 * the store's first 64 live contexts a slot each). A bit in {@code readers} says "the running
 * attempt of this slot read the item and has not finished"; a bit in {@code writers} says "the
 * running attempt of this slot wrote the item (its write is buffered) and has not finished".
 * Non-blocking: nobody waits for a soft lock. A committing writer of the item reads both words:
 * it narrows each soft reader's range so that the reader commits before it
 * ({@link MaatRange#narrow}) and orders itself against the other soft writers; a committing
 * reader reads {@code writers} and orders itself before each holder ({@link MaatRange#pushLower}).
 *
 * <pre>
 * readers word                                       writers word
 *  63                                   0            63                                   0
 * +--------------------------------------+          +--------------------------------------+
 * | bit k: slot k soft-read-locks here    |          | bit k: slot k soft-write-locks here   |
 * +--------------------------------------+          +--------------------------------------+
 * </pre>
 *
 * Writers of each word: the owner of slot k only sets and clears bit k, with atomic
 * read-modify-writes ({@code getAndBitwiseOr}/{@code getAndBitwiseAnd}, full fences). Readers of
 * {@code readers}: committing writers and non-transactional writers of the item, with a volatile
 * load after their lock CAS. The pair is a Dekker handshake: a reader sets its bit, then loads the
 * item's word; a writer CASes the word's lock bit, then loads this word. So a reader that read a
 * version some writer replaces either has its bit seen by that writer, or saw the writer's lock
 * and never read that version. Readers of {@code writers}: committing transactions, with a volatile
 * load during their commit. No handshake hangs on it: what a soft write lock tells a committing
 * reader (the holder will commit after it) is also enforced through {@code readers} and the
 * item's rts when the holder commits; the soft write lock tells it earlier (docs/maat.md).
 *
 * <p>One object per item, made by the item's first soft lock and kept in the item's reference slot
 * ({@code Items.extAcquire}) for the item's life: soft locks after the first allocate nothing. A
 * slot's bit in each word is set at most once per attempt and item (a second read or write of the
 * item finds its entry flagged).
 */
public final class SoftLocks {
    private static final VarHandle READERS;
    private static final VarHandle WRITERS;

    static {
        try {
            READERS = MethodHandles.lookup().findVarHandle(SoftLocks.class, "readers", long.class);
            WRITERS = MethodHandles.lookup().findVarHandle(SoftLocks.class, "writers", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The number of slots a word has room for. */
    public static final int SLOTS = Long.SIZE;

    @SuppressWarnings("unused") // through READERS
    private volatile long readers;
    @SuppressWarnings("unused") // through WRITERS
    private volatile long writers;

    /**
     * @return the item's soft locks, made and installed (by CAS, so racing first readers share one)
     *         if the item has none yet
     */
    public static SoftLocks of(TxItem item) {
        Object ext = Items.extAcquire(item);
        if (ext != null) {
            return (SoftLocks) ext;
        }
        SoftLocks made = new SoftLocks();
        return Items.casExt(item, null, made) ? made : (SoftLocks) Items.extAcquire(item);
    }

    /** @return the item's soft locks, or null if it never had one; for writers' scans */
    public static SoftLocks peek(TxItem item) {
        return (SoftLocks) Items.extAcquire(item);
    }

    /**
     * Sets {@code bit} (one slot's) in the soft read locks unless it is set already. Either way the
     * bit is set, in the synchronization order, before the caller's next volatile load; only the
     * slot's owner clears it.
     */
    public void lockRead(long bit) {
        if (((long) READERS.getVolatile(this) & bit) == 0) {
            READERS.getAndBitwiseOr(this, bit);
        }
    }

    /** Clears {@code bit} (one slot's) in the soft read locks. */
    public void unlockRead(long bit) {
        READERS.getAndBitwiseAnd(this, ~bit);
    }

    /** @return the bits of every slot holding a soft read lock; a volatile load */
    public long readers() {
        return (long) READERS.getVolatile(this);
    }

    /** Sets {@code bit} (one slot's) in the soft write locks; only the slot's owner clears it. */
    public void lockWrite(long bit) {
        WRITERS.getAndBitwiseOr(this, bit);
    }

    /** Clears {@code bit} (one slot's) in the soft write locks. */
    public void unlockWrite(long bit) {
        WRITERS.getAndBitwiseAnd(this, ~bit);
    }

    /** @return the bits of every slot holding a soft write lock; a volatile load */
    public long writers() {
        return (long) WRITERS.getVolatile(this);
    }
}
