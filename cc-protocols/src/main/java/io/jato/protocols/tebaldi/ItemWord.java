package io.jato.protocols.tebaldi;

/**
 * The item's primary word under {@code tebaldi}: the commit lock, the version, and which group
 * wrote it — what the {@code occ} nodes validate and what tells them whose conflict a change is.
 *
 * <pre>
 *  63                                        10 9                2   1   0
 * +--------------------------------------------+------------------+---+---+
 * |             sequence (54 bits)              |   group (8 bits) | R | L |
 * +--------------------------------------------+------------------+---+---+
 *
 *  L (LOCKED)  set by the CAS that locks the item for a commit or a non-transactional write,
 *              cleared by the release store that publishes (sequence + 1) or unlocks (old word).
 *  R (RETIRED) set by the publish of a delete; the word never changes again.
 *  group       while unlocked: the group of the transaction that published the version (0: a
 *              write outside transactions); while locked: the locker's group. So a reader that
 *              finds the word changed learns whose change it is (or is about to be).
 *  sequence    incremented by every publish: a version never repeats.
 * </pre>
 *
 * Invariant: only the holder of L changes the word, with a release store after writing the value;
 * a reader that sees the same unlocked word before and after loading the value has that version.
 */
final class ItemWord {
    static final long LOCKED = 1L;
    static final long RETIRED = 1L << 1;
    static final int GROUP_SHIFT = 2;
    static final long GROUP_MASK = 0xFFL << GROUP_SHIFT;
    static final int SEQ_SHIFT = 10;

    private ItemWord() {
    }

    static int group(long word) {
        return (int) ((word & GROUP_MASK) >>> GROUP_SHIFT);
    }

    /** @return {@code unlocked} locked by a transaction of {@code group} */
    static long locked(long unlocked, int group) {
        return (unlocked & ~GROUP_MASK) | ((long) group << GROUP_SHIFT) | LOCKED;
    }

    /** @return the word published over {@code old}: next sequence, written by {@code group} */
    static long next(long old, int group, boolean retire) {
        long w = ((old >>> SEQ_SHIFT) + 1) << SEQ_SHIFT | ((long) group << GROUP_SHIFT);
        return retire ? w | RETIRED : w;
    }

    static boolean isLocked(long word) {
        return (word & LOCKED) != 0;
    }

    static boolean isRetired(long word) {
        return (word & RETIRED) != 0;
    }

    static String describe(long word) {
        return "seq=" + (word >>> SEQ_SHIFT) + " group=" + group(word) + (isLocked(word) ? " LOCKED" : "")
                + (isRetired(word) ? " RETIRED" : "");
    }
}
