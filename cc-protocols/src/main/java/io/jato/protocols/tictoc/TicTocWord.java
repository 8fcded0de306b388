package io.jato.protocols.tictoc;

import io.jato.stm.spi.Items;
import io.jato.stm.spi.TxItem;

/**
 * TicToc's per-item timestamps: the primary word holds {@code wts} with the lock and retired bits,
 * the secondary word holds {@code rts} as a plain 64-bit timestamp (seed 002 §2.3: separate words,
 * not the paper's packed 15-bit delta, which causes false aborts when {@code rts - wts} overflows).
 *
 * <pre>
 * primary word (TxItem.word)
 *  63                                                             2   1   0
 * +-----------------------------------------------------------------+---+---+
 * |                         wts (62 bits)                           | R | L |
 * +-----------------------------------------------------------------+---+---+
 *
 * secondary word (TxItem.word2)
 *  63                                                                     0
 * +-------------------------------------------------------------------------+
 * |                         rts (64 bits, >= wts)                           |
 * +-------------------------------------------------------------------------+
 *
 *  L (LOCKED)  set by the CAS that locks the item (commit or non-transactional write); cleared by
 *              the release store of the published word (new wts) or of the old word (abort).
 *  R (RETIRED) set by the publish of a commit that unlinked the item; a retired word is final.
 * </pre>
 *
 * Invariants: (1) {@code wts} only grows and every change gives a larger {@code wts} (a commit at
 * {@code ts > rts}); (2) when the word is unlocked, {@code rts >= wts} and no version with a
 * timestamp in {@code (wts, rts]} will ever be installed: a writer locks the word first and then
 * reads {@code rts} (both volatile), and an extension CASes {@code rts} and then re-reads the word
 * (both volatile) — so of a writer and an extender, one sees the other (Dekker); (3) the publish
 * stores {@code rts} before the word (release), so a reader that sees the new word sees its rts.
 * A failed extension may leave {@code rts} larger than any reader needs; that only reserves time
 * nobody uses. Readers trust an {@code rts} only if they read the same unlocked word after it.
 */
public final class TicTocWord {
    private TicTocWord() {
    }

    public static final long LOCKED = 1L;
    public static final long RETIRED = 1L << 1;
    public static final int FLAG_BITS = 2;

    public static boolean isLocked(long word) {
        return (word & LOCKED) != 0;
    }

    public static boolean isRetired(long word) {
        return (word & RETIRED) != 0;
    }

    public static long wts(long word) {
        return word >>> FLAG_BITS;
    }

    public static long wordOf(long wts) {
        return wts << FLAG_BITS;
    }

    /** {@link #extendRts}: the version is valid at the timestamp (its rts reaches it). */
    public static final int VALID = 0;
    /** {@link #extendRts}: the item has another version now (or was retired). */
    public static final int CHANGED = 1;
    /** {@link #extendRts}: the item is locked by a writer, which may install below the timestamp. */
    public static final int BUSY = 2;

    /**
     * Makes the version with {@code observedWts} valid at {@code ts}: checks it is still the item's
     * unlocked version, CASes {@code rts} up to {@code ts} if it is lower, then re-reads the word.
     * The CAS and the re-read are the extender's half of the Dekker pair (a writer CASes the lock
     * bit, then reads rts): if the word is unchanged after the CAS, every later writer reads the
     * extended rts and installs above {@code ts}. A CAS that lands while a writer holds the lock is
     * reported {@link #BUSY} or {@link #CHANGED}; the rts it left only reserves unused time.
     *
     * @return {@link #VALID}, {@link #CHANGED} or {@link #BUSY}
     */
    public static int extendRts(TxItem item, long observedWts, long ts) {
        for (;;) {
            long w = Items.wordVolatile(item);
            if (wts(w) != observedWts) {
                return CHANGED;
            }
            if ((w & LOCKED) != 0) {
                return BUSY;
            }
            long r = Items.word2Volatile(item);
            if (r >= ts || Items.casWord2(item, r, ts)) {
                long w2 = Items.wordVolatile(item);
                if (w2 == w) {
                    return VALID;
                }
                if (r < ts) {
                    return (w2 & LOCKED) != 0 ? BUSY : CHANGED;
                }
            }
        }
    }

    public static String describe(long word, long rts) {
        return "wts=" + wts(word) + " rts=" + rts + (isLocked(word) ? " LOCKED" : "")
                + (isRetired(word) ? " RETIRED" : "");
    }

    /**
     * @return null if the pair {@code word}/{@code rts} is quiescent (unlocked, rts not below
     *         wts), else what is wrong; for the protocols that keep TicToc's word pair (tictoc, mvcc)
     */
    public static String checkQuiescent(long word, long rts) {
        if (isLocked(word)) {
            return "item still locked: " + describe(word, rts);
        }
        if (rts < wts(word)) {
            return "rts below wts: " + describe(word, rts);
        }
        return null;
    }
}
