package io.jato.protocols.adaptive;

/**
 * The adaptive lock's secondary word: the item's version, its mode and its conflict score. The
 * primary word is the {@link io.jato.protocols.twophase.RwLockWord} lock word, shared with 2PL.
 *
 * <pre>
 *  63                                              7   6   5            0
 * +-------------------------------------------------+---+---------------+
 * |                 version (57 bits)               | P | score (6 bits)|
 * +-------------------------------------------------+---+---------------+
 *
 *  version  incremented by every release of the exclusive lock that changed the item (a commit's
 *           publish, a changing non-transactional write); never wraps in practice. Optimistic
 *           reads validate against it.
 *  P        pessimistic: new accesses lock the item at access time (reads shared, writes
 *           exclusive); clear: optimistic (reads observe the version, writes lock at commit).
 *  score    the decaying conflict score, 0 to 63, that moves P (see {@link ModeSwitch}).
 * </pre>
 *
 * Who writes it: the holder of the exclusive lock increments the version; anyone changes the
 * score and P. Every change is a CAS of the whole word (the holder's too), so a score update never
 * loses a version increment and a version increment never loses a score update. A fresh item's
 * word is 0: version 0, optimistic, score 0.
 */
public final class ModeWord {
    private ModeWord() {
    }

    static final int SCORE_BITS = 6;
    /** The largest score. */
    public static final int MAX_SCORE = (1 << SCORE_BITS) - 1;
    static final long SCORE_MASK = MAX_SCORE;
    /** The mode bit: set while the item is pessimistic. */
    public static final long PESSIMISTIC = 1L << SCORE_BITS;
    static final int VERSION_SHIFT = SCORE_BITS + 1;
    private static final long VERSION_ONE = 1L << VERSION_SHIFT;

    /** @return the item's version */
    public static long version(long w) {
        return w >>> VERSION_SHIFT;
    }

    /** @return true if the item is in pessimistic mode */
    public static boolean isPessimistic(long w) {
        return (w & PESSIMISTIC) != 0;
    }

    /** @return the conflict score */
    public static int score(long w) {
        return (int) (w & SCORE_MASK);
    }

    /** @return {@code w} with the next version, mode and score unchanged */
    public static long nextVersion(long w) {
        return w + VERSION_ONE;
    }

    /** @return {@code w}'s version with the given mode and score */
    static long with(long w, boolean pessimistic, int score) {
        return (w & -VERSION_ONE) | (pessimistic ? PESSIMISTIC : 0) | score;
    }

    public static String describe(long w) {
        return "version=" + version(w) + (isPessimistic(w) ? " pessimistic" : " optimistic") + " score=" + score(w);
    }
}
