package io.jato.protocols.maat;

import io.jato.stm.spi.Items;
import io.jato.stm.spi.TxItem;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The soft read locks on one item: a bit per transaction slot ({@link MaatControl} hands the
 * store's first 64 live contexts a slot each) saying "the running attempt of this slot read the
 * item and has not finished". Non-blocking: nobody waits for a soft lock; a committing writer of
 * the item reads the bits and narrows each holder's range so that it commits before the writer
 * ({@link MaatRange#narrow}).
 *
 * <pre>
 * readers word
 *  63                                                                     0
 * +-------------------------------------------------------------------------+
 * |  bit k set: the attempt running in slot k holds a soft read lock here    |
 * +-------------------------------------------------------------------------+
 * </pre>
 *
 * Writers: the owner of slot k only sets and clears bit k, with atomic read-modify-writes
 * ({@code getAndBitwiseOr}/{@code getAndBitwiseAnd}, full fences). Readers: committing writers
 * and non-transactional writers of the item, with a volatile load after their lock CAS. The pair
 * is a Dekker handshake: a reader sets its bit, then loads the item's word; a writer CASes the
 * word's lock bit, then loads this word. So a reader that read a version some writer replaces
 * either has its bit seen by that writer, or saw the writer's lock and never read that version.
 *
 * <p>One object per item, made by the item's first soft lock and kept in the item's reference slot
 * ({@code Items.extAcquire}) for the item's life: reads after the first allocate nothing. A slot's
 * bit is set at most once per attempt and item (a second read of the item finds it set).
 */
public final class SoftLocks {
    private static final VarHandle READERS;

    static {
        try {
            READERS = MethodHandles.lookup().findVarHandle(SoftLocks.class, "readers", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The number of slots a word has room for. */
    public static final int SLOTS = Long.SIZE;

    @SuppressWarnings("unused") // through READERS
    private volatile long readers;

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
     * Sets {@code bit} (one slot's) unless it is set already. Either way the bit is set, in the
     * synchronization order, before the caller's next volatile load; only the slot's owner clears it.
     */
    public void lock(long bit) {
        if (((long) READERS.getVolatile(this) & bit) == 0) {
            READERS.getAndBitwiseOr(this, bit);
        }
    }

    /** Clears {@code bit} (one slot's). */
    public void unlock(long bit) {
        READERS.getAndBitwiseAnd(this, ~bit);
    }

    /** @return the bits of every slot holding a soft read lock; a volatile load */
    public long readers() {
        return (long) READERS.getVolatile(this);
    }
}
