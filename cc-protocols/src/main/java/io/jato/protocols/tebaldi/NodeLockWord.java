package io.jato.protocols.tebaldi;

/**
 * The lock word of the tree's {@code 2pl} node, in the item's secondary word: a reader-writer
 * lock whose holders are counted per <em>child</em> of that node, not per transaction, so that
 * transactions of one child never conflict here (seed 003 §6: "marking all locks acquired by
 * transactions from the same group as non-conflicting") and the child's own control orders them.
 *
 * <pre>
 *  63           25 24           17  16   15               0
 * +---------------+---------------+----+------------------+
 * |   unused (0)  |  child (8)    | X  |  holders (16)    |
 * +---------------+---------------+----+------------------+
 *
 *  holders  transactions holding the lock (shared or exclusive); 0 means free (the word is 0)
 *  X        some holder wrote the item: only its child may join
 *  child    1 + the index of the child whose transactions hold it; MULTI when shared by several
 * </pre>
 *
 * Conservative by design: X and the child stay until the last holder leaves, so a shared holder
 * of the same child that stays after the writer left still keeps other children out. Every change
 * is one CAS of the whole word.
 */
final class NodeLockWord {
    static final long HOLDERS_MASK = 0xFFFFL;
    static final long EXCLUSIVE = 1L << 16;
    static final int CHILD_SHIFT = 17;
    static final int MULTI = 0xFF;

    private NodeLockWord() {
    }

    static int child(long w) {
        return (int) (w >>> CHILD_SHIFT) & 0xFF;
    }

    static long holders(long w) {
        return w & HOLDERS_MASK;
    }

    /** @return the word after a transaction of {@code child} joins shared, or -1 if it must wait */
    static long joinShared(long w, int child) {
        if (w == 0) {
            return ((long) child << CHILD_SHIFT) | 1;
        }
        if (holders(w) == HOLDERS_MASK) {
            return -1;
        }
        int c = child(w);
        if (c == child) {
            return w + 1;
        }
        if ((w & EXCLUSIVE) != 0) {
            return -1;
        }
        return ((long) MULTI << CHILD_SHIFT) | (holders(w) + 1);
    }

    /**
     * @param holding true if the transaction already holds the lock shared (an upgrade)
     * @return the word after a transaction of {@code child} holds it exclusively, or -1 if it must wait
     */
    static long joinExclusive(long w, int child, boolean holding) {
        if (w == 0 || (holding && holders(w) == 1)) {
            // Free, or held by the upgrading transaction alone: whatever child field stayed behind
            // (MULTI after other children left) is stale.
            return ((long) child << CHILD_SHIFT) | EXCLUSIVE | 1;
        }
        if (child(w) != child || (!holding && holders(w) == HOLDERS_MASK)) {
            return -1;
        }
        return (w | EXCLUSIVE) + (holding ? 0 : 1);
    }

    /** @return the word after one holder leaves */
    static long leave(long w) {
        return holders(w) <= 1 ? 0L : w - 1;
    }

    static String describe(long w) {
        int c = child(w);
        return "holders=" + holders(w) + ((w & EXCLUSIVE) != 0 ? " X" : "") + " child="
                + (c == MULTI ? "several" : c == 0 ? "none" : String.valueOf(c - 1));
    }
}
