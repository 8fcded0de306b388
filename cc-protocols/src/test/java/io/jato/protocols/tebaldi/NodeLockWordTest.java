package io.jato.protocols.tebaldi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The 2pl node's lock word: holders counted per child, conflicts only between children. */
class NodeLockWordTest {

    @Test
    void transactionsOfOneChildNeverConflict() {
        long w = NodeLockWord.joinExclusive(0, 1, false);
        w = NodeLockWord.joinShared(w, 1);
        w = NodeLockWord.joinExclusive(w, 1, false);
        assertEquals(3, NodeLockWord.holders(w));
        assertEquals(-1, NodeLockWord.joinShared(w, 2));
        assertEquals(-1, NodeLockWord.joinExclusive(w, 2, false));
        w = NodeLockWord.leave(NodeLockWord.leave(NodeLockWord.leave(w)));
        assertEquals(0, w);
    }

    @Test
    void readersOfSeveralChildrenShareButNoneOfThemMayWriteWhileOthersHold() {
        long w = NodeLockWord.joinShared(NodeLockWord.joinShared(0, 1), 2);
        assertEquals(NodeLockWord.MULTI, NodeLockWord.child(w));
        assertEquals(-1, NodeLockWord.joinExclusive(w, 1, true));
        assertEquals(-1, NodeLockWord.joinExclusive(w, 3, false));
    }

    /**
     * The bug TebaldiControl first had: after the other child's reader left, the word still said
     * MULTI, and the remaining reader's upgrade waited for itself (the escalated transaction
     * forever: RandomHistoryTest hung).
     */
    @Test
    void theLastReaderUpgradesWhateverChildTheWordStillNames() {
        long w = NodeLockWord.leave(NodeLockWord.joinShared(NodeLockWord.joinShared(0, 1), 2));
        assertEquals(1, NodeLockWord.holders(w));
        long x = NodeLockWord.joinExclusive(w, 1, true);
        assertEquals(1, NodeLockWord.child(x));
        assertEquals(1, NodeLockWord.holders(x));
        assertEquals(-1, NodeLockWord.joinShared(x, 2));
    }
}
