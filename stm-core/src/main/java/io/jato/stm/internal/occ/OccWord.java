package io.jato.stm.internal.occ;

/**
 * The OCC version word: one {@code long} per item, in {@link io.jato.stm.spi.TxItem}'s primary slot.
 *
 * <pre>
 *  63                                   27 26                      3   2   1   0
 * +---------------------------------------+-------------------------+---+---+---+
 * |            epoch (37 bits)             |     sequence (24 bits)  | 0 | R | L |
 * +---------------------------------------+-------------------------+---+---+---+
 *  \___________________ TID (61 bits): word >>> 3 ___________________/
 *
 *  L (LOCKED)  set by the CAS that locks the item for a commit or a non-transactional write;
 *              cleared by the release store that publishes (new TID) or unlocks (old TID).
 *  R (RETIRED) set by the publish of a commit that unlinked the item (a delete); a retired word
 *              never changes again, so every reader that saw the item alive fails validation.
 * </pre>
 *
 * Invariants: (1) the TID of an item only grows; (2) only the holder of L changes the word, with a
 * release store, after writing the value — so a reader that sees the same unlocked word before and
 * after reading the value (each an acquire load) has a value that belongs to that TID; (3) a
 * committed TID is greater than every TID its transaction read or overwrote and than the
 * committing thread's previous TID (Silo §4.2), and its epoch is at least the store's epoch at the
 * serialization point.
 */
public final class OccWord {
    private OccWord() {
    }

    public static final long LOCKED = 1L;
    public static final long RETIRED = 1L << 1;
    public static final int FLAG_BITS = 3;
    public static final int SEQ_BITS = 24;

    public static boolean isLocked(long word) {
        return (word & LOCKED) != 0;
    }

    public static boolean isRetired(long word) {
        return (word & RETIRED) != 0;
    }

    public static long tid(long word) {
        return word >>> FLAG_BITS;
    }

    public static long wordOf(long tid) {
        return tid << FLAG_BITS;
    }

    public static long epochOf(long tid) {
        return tid >>> SEQ_BITS;
    }

    public static long firstTidOf(long epoch) {
        return epoch << SEQ_BITS;
    }

    public static String describe(long word) {
        long t = tid(word);
        return "tid=" + epochOf(t) + "." + (t & ((1L << SEQ_BITS) - 1))
                + (isLocked(word) ? " LOCKED" : "") + (isRetired(word) ? " RETIRED" : "");
    }
}
