package io.jato.protocols.tebaldi;

import io.jato.stm.TxnType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link CcTree} compiled into the arrays the control's hot paths index: groups are numbered 1..G
 * (0 stands for "outside every transaction": a non-transactional write), and every question the
 * hooks ask about two groups is one array load. Immutable.
 */
final class TreeLayout {
    /** The number of groups; ids run from 1 to {@code groups}. */
    final int groups;
    /** Per type id: its group, 0 if no group covers it. */
    final int[] groupOfType;
    /** Per group: true for a read-only ({@code none}) group, whose transactions may not write. */
    final boolean[] readOnly;
    /**
     * Per group: 1 + the index of the 2pl node's child whose subtree holds it, or 0 if the group is
     * not under the 2pl node (it then takes no node locks).
     */
    final int[] lockChild;
    /**
     * Per pair (reader group r, writer group w), at {@code r * (groups + 1) + w}: true if the node
     * that orders r's transactions against w's is an inner {@code none} (unsafe trees only), so a
     * change w made to what r read is nobody's to catch. False everywhere in a safe tree.
     */
    final boolean[] unordered;
    /** The groups whose transactions may write, for {@code untyped=random}. */
    final int[] writingGroups;
    /** The tree's text, for messages. */
    final String text;

    TreeLayout(CcTree tree) {
        List<CcTree.Node> leaves = tree.groups();
        groups = leaves.size();
        text = tree.toString();
        Map<CcTree.Node, Integer> id = new IdentityHashMap<>();
        for (int g = 0; g < groups; g++) {
            id.put(leaves.get(g), g + 1);
        }
        readOnly = new boolean[groups + 1];
        lockChild = new int[groups + 1];
        List<Integer> writers = new ArrayList<>();
        int maxType = 0;
        for (int g = 1; g <= groups; g++) {
            CcTree.Node leaf = leaves.get(g - 1);
            readOnly[g] = leaf.kind() == NodeKind.NONE;
            if (!readOnly[g]) {
                writers.add(g);
            }
            for (String t : leaf.types()) {
                maxType = Math.max(maxType, TxnType.of(t).id());
            }
        }
        writingGroups = writers.stream().mapToInt(Integer::intValue).toArray();
        groupOfType = new int[maxType + 1];
        for (int g = 1; g <= groups; g++) {
            for (String t : leaves.get(g - 1).types()) {
                groupOfType[TxnType.of(t).id()] = g;
            }
        }
        markLockChildren(tree.root(), id, false);
        unordered = new boolean[(groups + 1) * (groups + 1)];
        markUnordered(tree.root(), id);
    }

    private void markLockChildren(CcTree.Node n, Map<CcTree.Node, Integer> id, boolean done) {
        if (n.isLeaf() || done) {
            return;
        }
        if (n.kind() == NodeKind.TWO_PL) {
            for (int c = 0; c < n.children().size(); c++) {
                List<CcTree.Node> under = new ArrayList<>();
                leavesOf(n.children().get(c), under);
                for (CcTree.Node leaf : under) {
                    lockChild[id.get(leaf)] = c + 1;
                }
            }
            return;
        }
        n.children().forEach(c -> markLockChildren(c, id, false));
    }

    /** For every inner none node: pairs of groups in different children are nobody's to order. */
    private void markUnordered(CcTree.Node n, Map<CcTree.Node, Integer> id) {
        if (n.isLeaf()) {
            return;
        }
        if (n.kind() == NodeKind.NONE) {
            List<List<CcTree.Node>> parts = new ArrayList<>();
            for (CcTree.Node c : n.children()) {
                List<CcTree.Node> under = new ArrayList<>();
                leavesOf(c, under);
                parts.add(under);
            }
            for (int a = 0; a < parts.size(); a++) {
                for (int b = 0; b < parts.size(); b++) {
                    if (a != b) {
                        for (CcTree.Node x : parts.get(a)) {
                            for (CcTree.Node y : parts.get(b)) {
                                unordered[id.get(x) * (groups + 1) + id.get(y)] = true;
                            }
                        }
                    }
                }
            }
        }
        n.children().forEach(c -> markUnordered(c, id));
    }

    private static void leavesOf(CcTree.Node n, List<CcTree.Node> out) {
        if (n.isLeaf()) {
            out.add(n);
        } else {
            n.children().forEach(c -> leavesOf(c, out));
        }
    }

    /** @return the group of {@code type}, 0 if none covers it */
    int groupOf(TxnType type) {
        int t = type.id();
        return t < groupOfType.length ? groupOfType[t] : 0;
    }

    /** @return true if no node orders a reader of group {@code reader} against a writer of group {@code writer} */
    boolean unordered(int reader, int writer) {
        return unordered[reader * (groups + 1) + writer];
    }

    @Override
    public String toString() {
        return text + " groups=" + groups + " readOnly=" + Arrays.toString(readOnly) + " lockChild="
                + Arrays.toString(lockChild);
    }
}
