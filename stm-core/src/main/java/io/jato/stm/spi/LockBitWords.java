package io.jato.stm.spi;

/**
 * Shared non-transactional steps for protocols whose primary word ({@link TxItem#wordAcquire})
 * has bit 0 as the item's lock bit and changes on every install (OCC's TID word, TicToc's wts
 * word): a lock-free one-item snapshot read, and the spin-then-yield pause of blocking waits.
 *
 * <p>Guarantee of the loads: the value returned was the item's committed value while the word was
 * unlocked and unchanged, i.e. a value some commit or non-transactional write published whole.
 */
public final class LockBitWords {
    /** Bit 0 of the primary word: set while the item is locked. */
    public static final long LOCK_BIT = 1L;

    private static final int SPINS_BEFORE_YIELD = 1024;

    /**
     * Spins a {@code tryLockNonTx} of a lock-bit protocol gives a held item before it reports it
     * busy: enough for a commit's lock window on another core, without a yield.
     */
    public static final int TRY_LOCK_SPINS = 256;

    private LockBitWords() {
    }

    /** Reads {@code item}'s committed value: word, value, word again, retried while locked or changed. */
    public static Object loadRef(RefItem item) {
        for (int spins = 0;; spins++) {
            long w = Items.wordAcquire(item);
            if ((w & LOCK_BIT) == 0) {
                Object v = item.valueAcquire();
                if (Items.wordAcquire(item) == w) {
                    return v;
                }
            }
            pause(spins);
        }
    }

    /** The {@code long} form of {@link #loadRef}. */
    public static long loadLong(LongItem item) {
        for (int spins = 0;; spins++) {
            long w = Items.wordAcquire(item);
            if ((w & LOCK_BIT) == 0) {
                long v = item.valueAcquire();
                if (Items.wordAcquire(item) == w) {
                    return v;
                }
            }
            pause(spins);
        }
    }

    /** Waits a little in a retry loop: spin hints first, then yields so a descheduled holder can run. */
    public static void pause(int spins) {
        if (spins < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
