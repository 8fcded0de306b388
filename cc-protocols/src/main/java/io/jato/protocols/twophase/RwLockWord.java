package io.jato.protocols.twophase;

/**
 * The 2PL reader-writer lock word: one {@code long} in a {@link io.jato.stm.spi.TxItem}'s primary
 * slot. Every change is a CAS of the whole word, so the reader count, the writer bit and the
 * holder age always change together.
 *
 * <pre>
 *  63                          24 23        19 18                 3   2   1   0
 * +------------------------------+------------+--------------------+---+---+---+
 * |     holder age (40 bits)     | version (5)| readers (16 bits)  | P | R | W |
 * +------------------------------+------------+--------------------+---+---+---+
 *
 *  W (WRITER)   held exclusively (by a transaction's write, or a non-transactional write);
 *               readers is then 0.
 *  R (RETIRED)  a committed delete unlinked the item; the word never changes again and nobody
 *               locks it (its value is final).
 *  P (PRIORITY) the escalated transaction waits for an exclusive lock here: no new holder joins.
 *  readers      the number of shared holders (transactions, or one-item loads outside them).
 *  version      bumped (mod 32) by every release that changed the item: a commit's publish, a
 *               changing non-transactional write; an abort restores it. 2PL validates nothing
 *               against it (every read holds its lock); it tells observers that an item changed.
 *  holder age   wait-die: a lower bound of the ages of the current holders (the least age among
 *               those that joined since the lock was last free); 0 while free, and 0 when a holder
 *               without an age (outside transactions, or under no-wait) joined. A smaller age is
 *               an older transaction; age 1 is the store's escalated transaction, and
 *               {@link #NON_TX_AGE} (the largest) a holder outside transactions.
 * </pre>
 *
 * Invariants: W and a non-zero reader count never coexist; the age field never exceeds the age of
 * any current holder, so a requester whose age is at most the field is older than (or is) every
 * holder; only the holder of W stores to a W word (release store to 0, or to R at a delete).
 */
public final class RwLockWord {
    private RwLockWord() {
    }

    public static final long WRITER = 1L;
    public static final long RETIRED = 1L << 1;
    public static final long PRIORITY = 1L << 2;
    static final int READER_SHIFT = 3;
    static final int READER_BITS = 16;
    static final long READER_MASK = ((1L << READER_BITS) - 1) << READER_SHIFT;
    static final int VERSION_SHIFT = READER_SHIFT + READER_BITS;
    static final int VERSION_BITS = 5;
    static final long VERSION_MASK = ((1L << VERSION_BITS) - 1) << VERSION_SHIFT;
    static final int AGE_SHIFT = VERSION_SHIFT + VERSION_BITS;
    static final long AGE_MASK = -1L << AGE_SHIFT;
    /** The age of a holder outside transactions (the largest the word holds). */
    public static final long NON_TX_AGE = -1L >>> AGE_SHIFT;
    /** The largest age a transaction gets (ages come from a store counter, one per transaction). */
    public static final long MAX_AGE = NON_TX_AGE - 1;
    /** The age of the store's escalated transaction: older than every other. */
    public static final long ESCALATED_AGE = 1L;
    /** The age every holder records under no-wait, where ages decide nothing (but who is escalated). */
    public static final long NO_WAIT_AGE = 2L;

    public static boolean isWriter(long w) {
        return (w & WRITER) != 0;
    }

    public static boolean isRetired(long w) {
        return (w & RETIRED) != 0;
    }

    public static int readers(long w) {
        return (int) ((w & READER_MASK) >>> READER_SHIFT);
    }

    public static long age(long w) {
        return w >>> AGE_SHIFT;
    }

    public static int version(long w) {
        return (int) ((w & VERSION_MASK) >>> VERSION_SHIFT);
    }

    /** @return the free word of version {@code version} (mod 32): no holder, no mark */
    public static long free(long version) {
        return (version << VERSION_SHIFT) & VERSION_MASK;
    }

    /** @return the free word that follows the locked word {@code locked}: the next version, or the same */
    public static long released(long locked, boolean changed) {
        return free(version(locked) + (changed ? 1 : 0));
    }

    /** @return true if {@code w} is held exclusively outside a transaction (such a holder may wait while holding) */
    public static boolean isNonTxWriter(long w) {
        return (w & WRITER) != 0 && age(w) == NON_TX_AGE;
    }

    /** @return true if some transaction or non-transactional operation holds the lock */
    public static boolean isHeld(long w) {
        return (w & (WRITER | READER_MASK)) != 0;
    }

    /**
     * @return {@code w} with one more reader of age {@code age}; the caller checked that W is clear
     *         and the count below its maximum
     */
    public static long joinShared(long w, long age) {
        long field = readers(w) == 0 ? age : Math.min(age(w), age);
        return (w & ~(READER_MASK | AGE_MASK)) | ((readers(w) + 1L) << READER_SHIFT) | (field << AGE_SHIFT);
    }

    /** @return {@code w} with one reader fewer; the age field is cleared when the last one leaves */
    public static long leaveShared(long w) {
        long n = readers(w) - 1L;
        long rest = w & ~(READER_MASK | AGE_MASK);
        return n == 0 ? rest : rest | (n << READER_SHIFT) | (age(w) << AGE_SHIFT);
    }

    /** @return {@code w}'s version held exclusively by a holder of age {@code age} (no readers, no mark) */
    public static long exclusive(long w, long age) {
        return (w & VERSION_MASK) | WRITER | (age << AGE_SHIFT);
    }

    /** @return true if the reader count cannot grow */
    static boolean readersFull(long w) {
        return (w & READER_MASK) == READER_MASK;
    }

    public static String describe(long w) {
        return (isWriter(w) ? "WRITER " : "") + "readers=" + readers(w) + " version=" + version(w) + " age=" + age(w)
                + ((w & PRIORITY) != 0 ? " PRIORITY" : "") + (isRetired(w) ? " RETIRED" : "");
    }
}
