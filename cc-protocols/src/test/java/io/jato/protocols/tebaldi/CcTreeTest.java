package io.jato.protocols.tebaldi;

import io.jato.collections.TxRef;
import io.jato.stm.Stm;
import io.jato.stm.TxnType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tree format, its validation messages, and how a store refuses what its tree does not cover. */
class CcTreeTest {

    @Test
    void theShippedTreesParseAndPrintBack() {
        CcTree three = CcTree.of("3-layer");
        assertEquals(CcTree.THREE_LAYER, three.toString());
        assertEquals(3, three.groups().size());
        assertEquals(NodeKind.TWO_PL, three.root().children().get(1).kind());
        assertEquals(List.of("new-order", "payment"), three.groupOf("payment").types());
        CcTree two = CcTree.of("2-layer");
        assertEquals(CcTree.TWO_LAYER, two.toString());
        assertEquals(2, two.groups().size());
        assertEquals(two.toString(), CcTree.of(two.toString()).toString());
    }

    @Test
    void aTreeMaySpanLinesWithCommentsAndSpaceSeparatedTypes() {
        CcTree t = CcTree.of("""
                # seed 003, Figure 5d
                occ( none[order-status stock-level],   # read-only group
                     2pl( occ[new-order, payment],
                          occ[delivery] ) )
                """);
        assertEquals(CcTree.THREE_LAYER, t.toString());
    }

    @Test
    void invalidTreesFailWithAMessageNamingTheProblem() {
        assertMessage("transaction type 'payment' is in two groups: occ[new-order, payment] and occ[payment, delivery]",
                "occ(occ[new-order, payment], occ[payment, delivery])");
        assertMessage("unknown protocol 'ssi' for an inner node", "ssi(none[a], occ[b])");
        assertMessage("ssi is not implemented", "ssi(none[a], occ[b])");
        assertMessage("unknown protocol 'fifo' for a group", "occ(fifo[a], occ[b])");
        assertMessage("'2pl' cannot order a group's own transactions", "occ(2pl[a], occ[b])");
        assertMessage("inner node none(none[a], none[b]) is 'none'", "occ(none(none[a], none[b]), occ[c])");
        assertMessage("at most one 2pl node", "2pl(2pl(occ[a], occ[b]), occ[c], 2pl(occ[d], occ[e]))");
        assertMessage("has one child", "occ(occ[a])");
        assertMessage("has no transaction types", "occ(occ[], occ[b])");
        assertMessage("is not closed with ']'", "occ(occ[a, b");
        assertMessage("is not closed with ')'", "occ(occ[a], occ[b]");
        assertMessage("the tree is empty", "  # nothing\n");
        assertMessage("line 2 column 7: unexpected ')' after the tree", "occ(occ[a], occ[b])\n      )");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CcTree.of("3-layer").requireCovers(List.of("new-order", "audit")));
        assertTrue(e.getMessage().contains("transaction type 'audit' is in no group"), e.getMessage());
    }

    private static void assertMessage(String expected, String tree) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CcTree.of(tree), tree);
        assertTrue(e.getMessage().contains(expected), () -> "expected '" + expected + "' in: " + e.getMessage());
    }

    @Test
    void anInnerNoneNodeIsAcceptedOnlyWhenUnsafe() {
        String tree = "occ(none[a], none(occ[b], occ[c]))";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CcTree.of(tree));
        assertTrue(e.getMessage().contains("is 'none'") && e.getMessage().contains("not be serializable"), e.getMessage());
        assertTrue(CcTree.parse(tree, true).isUnsafe());
    }

    @Test
    void theStoreBuilderRefusesBadTreesAndUncoveredTypes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol("tebaldi").option("tree", "occ(occ[a], occ[a])").build());
        assertTrue(e.getMessage().contains("'a' is in two groups"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Stm.builder().protocol("tebaldi")
                .option("types", "new-order payment order-status delivery stock-level audit").build());
        assertTrue(e.getMessage().contains("'audit' is in no group"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol("tebaldi").option("untyped", "audit").build());
        assertTrue(e.getMessage().contains("untyped") && e.getMessage().contains("'audit'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol("tebaldi").option("tree", "").build());
        assertTrue(e.getMessage().contains("option 'tree'"), e.getMessage());
        Stm.builder().protocol("tebaldi").option("types", "new-order payment order-status delivery stock-level").build();
    }

    @Test
    void aTransactionOfATypeNoGroupCoversIsRefusedAndChangesNothing() {
        Stm stm = Stm.builder().protocol("tebaldi").option("untyped", "refuse").build();
        TxRef<String> x = new TxRef<>(stm, "old");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> stm.run(TxnType.of("audit"), t -> x.set(t, "new")));
        assertTrue(e.getMessage().contains("'audit' is in no group"), e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> stm.run(t -> x.set(t, "new")));
        assertTrue(e.getMessage().contains("untyped=random"), e.getMessage());
        assertEquals("old", x.single().get());
        stm.run(TxnType.of("payment"), t -> x.set(t, "new"));
        assertEquals("new", x.single().get());
    }

    @Test
    void aReadOnlyGroupCannotWrite() {
        Stm stm = Stm.builder().protocol("tebaldi").build();
        TxRef<String> x = new TxRef<>(stm, "old");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> stm.run(TxnType.of("stock-level"), t -> x.set(t, "new")));
        assertTrue(e.getMessage().contains("read-only group"), e.getMessage());
        assertEquals("old", x.single().get());
        assertEquals("old", stm.readOnly(TxnType.of("stock-level"), x::get));
        assertNull(x.checkQuiescent());
    }
}
