package io.jato.protocols.tebaldi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Tebaldi concurrency-control tree (seed 003 §3): leaves are groups of transaction types, each
 * with the control that orders its own transactions; inner nodes order transactions of different
 * children. Immutable and validated: every type is in exactly one group, every kind is known and
 * allowed where it stands, at most one {@code 2pl} node.
 *
 * <h2>Format</h2>
 * <pre>
 * node := KIND '(' node (',' node)+ ')'         an inner node and its children
 *       | KIND '[' TYPE ((',' | space) TYPE)* ']'  a leaf: one group of transaction types
 * </pre>
 * Whitespace and line breaks are free; {@code #} starts a comment to the end of the line. Seed
 * 003's 3-layer tree (Figure 5d, with the closest kinds Jato has) reads:
 * <pre>
 * occ(none[order-status, stock-level],
 *     2pl(occ[new-order, payment], occ[delivery]))
 * </pre>
 * {@link #named} knows {@code 2-layer} and {@code 3-layer}; docs/tebaldi.md says how they depart
 * from the paper's.
 */
public final class CcTree {
    /** Seed 003's "Tebaldi 2-layer" tree (Figure 5c): read-only group beside one update group. */
    public static final String TWO_LAYER = "occ(none[order-status, stock-level], occ[new-order, payment, delivery])";
    /** Seed 003's "Tebaldi 3-layer" tree (Figure 5d): 2PL between new-order/payment and delivery. */
    public static final String THREE_LAYER = "occ(none[order-status, stock-level], 2pl(occ[new-order, payment], occ[delivery]))";

    private static final Map<String, String> NAMED = Map.of("2-layer", TWO_LAYER, "3-layer", THREE_LAYER);

    /** The most groups a tree may have (a word records the writer's group in 8 bits; 0 is "outside"). */
    public static final int MAX_GROUPS = 254;

    private final Node root;
    private final List<Node> groups;
    private final Map<String, Node> groupOfType;
    private final boolean unsafe;

    /** One node of the tree: an inner node with children, or a leaf with its group's types. */
    public static final class Node {
        private final NodeKind kind;
        private final List<Node> children;
        private final List<String> types;

        Node(NodeKind kind, List<Node> children, List<String> types) {
            this.kind = kind;
            this.children = List.copyOf(children);
            this.types = List.copyOf(types);
        }

        /** @return the node's control */
        public NodeKind kind() {
            return kind;
        }

        /** @return true for a group (a leaf) */
        public boolean isLeaf() {
            return children.isEmpty();
        }

        /** @return the children of an inner node, in order; empty for a leaf */
        public List<Node> children() {
            return children;
        }

        /** @return the types of a leaf's group, in order; empty for an inner node */
        public List<String> types() {
            return types;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder(kind.word());
            if (isLeaf()) {
                b.append('[').append(String.join(", ", types)).append(']');
            } else {
                b.append('(');
                for (int i = 0; i < children.size(); i++) {
                    b.append(i == 0 ? "" : ", ").append(children.get(i));
                }
                b.append(')');
            }
            return b.toString();
        }
    }

    private CcTree(Node root, boolean unsafe) {
        this.root = root;
        this.unsafe = unsafe;
        List<Node> leaves = new ArrayList<>();
        collectLeaves(root, leaves);
        if (leaves.size() > MAX_GROUPS) {
            throw new IllegalArgumentException("a tree has at most " + MAX_GROUPS + " groups, this one " + leaves.size());
        }
        Map<String, Node> byType = new LinkedHashMap<>();
        for (Node g : leaves) {
            for (String t : g.types) {
                Node other = byType.putIfAbsent(t, g);
                if (other != null) {
                    throw new IllegalArgumentException("transaction type '" + t + "' is in two groups: "
                            + (other == g ? g + " (twice)" : other + " and " + g) + "; a type belongs to exactly one group");
                }
            }
        }
        this.groups = List.copyOf(leaves);
        this.groupOfType = Collections.unmodifiableMap(byType);
        int twoPl = count(root, NodeKind.TWO_PL);
        if (twoPl > 1) {
            throw new IllegalArgumentException("a tree may have at most one 2pl node (its locks live in one word per"
                    + " item), this one has " + twoPl + ": " + root);
        }
        check(root, true);
    }

    private static void collectLeaves(Node n, List<Node> out) {
        if (n.isLeaf()) {
            out.add(n);
        } else {
            n.children.forEach(c -> collectLeaves(c, out));
        }
    }

    private static int count(Node n, NodeKind kind) {
        int k = !n.isLeaf() && n.kind == kind ? 1 : 0;
        for (Node c : n.children) {
            k += count(c, kind);
        }
        return k;
    }

    private void check(Node n, boolean isRoot) {
        if (n.isLeaf()) {
            return;
        }
        if (n.kind == NodeKind.NONE && !unsafe) {
            throw new IllegalArgumentException("inner node " + n + " is 'none': it would resolve no conflict between its"
                    + " children and the store would not be serializable; inner nodes: occ, 2pl");
        }
        n.children.forEach(c -> check(c, false));
    }

    /**
     * Parses a tree, or returns a named one.
     *
     * @param nameOrSpec {@code 2-layer}, {@code 3-layer}, or a tree in the format above
     * @throws IllegalArgumentException naming what is wrong and where
     */
    public static CcTree of(String nameOrSpec) {
        Objects.requireNonNull(nameOrSpec, "tree");
        String named = NAMED.get(nameOrSpec.trim());
        return parse(named != null ? named : nameOrSpec, false);
    }

    /** @return the tree called {@code name} ({@code 2-layer}, {@code 3-layer}), or null */
    public static String named(String name) {
        return NAMED.get(name);
    }

    /** @return the names {@link #of} knows */
    public static List<String> names() {
        return List.of("2-layer", "3-layer");
    }

    /**
     * Parses a tree in the format above.
     *
     * @param unsafe allow inner {@code none} nodes, which resolve no conflict: only for tests that
     *               prove a missing layer is caught
     * @throws IllegalArgumentException naming what is wrong and where
     */
    public static CcTree parse(String text, boolean unsafe) {
        Objects.requireNonNull(text, "tree");
        Parser p = new Parser(text);
        Node root = p.node();
        p.skipSpace();
        if (!p.atEnd()) {
            throw p.error("unexpected '" + p.peek() + "' after the tree");
        }
        return new CcTree(root, unsafe);
    }

    /** @return the root node */
    public Node root() {
        return root;
    }

    /** @return the groups (leaves), left to right: group {@code i} has id {@code i + 1} */
    public List<Node> groups() {
        return groups;
    }

    /** @return the group of the type called {@code typeName}, or null if no group covers it */
    public Node groupOf(String typeName) {
        return groupOfType.get(typeName);
    }

    /** @return true if the tree was parsed with inner {@code none} nodes allowed */
    public boolean isUnsafe() {
        return unsafe;
    }

    /**
     * Checks that every type a workload runs has a group.
     *
     * @throws IllegalArgumentException naming the first type no group covers
     */
    public void requireCovers(Collection<String> typeNames) {
        for (String t : typeNames) {
            if (!groupOfType.containsKey(t)) {
                throw new IllegalArgumentException("transaction type '" + t + "' is in no group of the tree " + root
                        + "; every type the workload runs needs one (types covered: "
                        + String.join(", ", groupOfType.keySet()) + ")");
            }
        }
    }

    /** The canonical one-line form, which {@link #parse} reads back. */
    @Override
    public String toString() {
        return root.toString();
    }

    /** A recursive-descent parser of the format; errors name the offset and what was expected. */
    private static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s;
        }

        Node node() {
            skipSpace();
            int start = i;
            String word = token();
            if (word.isEmpty()) {
                throw error(atEnd() ? "the tree is empty or ends early: expected a node kind (occ, 2pl, none)"
                        : "expected a node kind (occ, 2pl, none), found '" + peek() + "'");
            }
            NodeKind kind = NodeKind.byWord(word);
            skipSpace();
            char open = atEnd() ? 0 : s.charAt(i);
            if (open != '(' && open != '[') {
                throw error("expected '(' (children) or '[' (a group's types) after '" + word + "'");
            }
            if (kind == null) {
                throw errorAt(start, "unknown protocol '" + word + "' for " + (open == '[' ? "a group" : "an inner node")
                        + "; known: occ, 2pl (inner only), none" + (word.equals("ssi") || word.equals("rp")
                        ? " (" + word + " is not implemented: see docs/tebaldi.md)" : ""));
            }
            i++;
            if (open == '[') {
                if (!kind.allowedLeaf()) {
                    throw errorAt(start, "'" + word + "' cannot order a group's own transactions; groups: occ, none");
                }
                List<String> types = new ArrayList<>();
                for (;;) {
                    skipSpaceAndCommas();
                    if (atEnd()) {
                        throw error("group '" + word + "[' is not closed with ']'");
                    }
                    if (s.charAt(i) == ']') {
                        i++;
                        break;
                    }
                    String t = token();
                    if (t.isEmpty()) {
                        throw error("unexpected '" + peek() + "' in a group's types");
                    }
                    types.add(t);
                }
                if (types.isEmpty()) {
                    throw errorAt(start, "group '" + word + "[]' has no transaction types");
                }
                return new Node(kind, List.of(), types);
            }
            List<Node> children = new ArrayList<>();
            for (;;) {
                children.add(node());
                skipSpace();
                if (atEnd()) {
                    throw error("inner node '" + word + "(' is not closed with ')'");
                }
                char c = s.charAt(i++);
                if (c == ')') {
                    break;
                }
                if (c != ',') {
                    i--;
                    throw error("expected ',' or ')' after a child of '" + word + "', found '" + c + "'");
                }
            }
            if (children.size() < 2) {
                throw errorAt(start, "inner node '" + word + "' has one child; an inner node orders transactions of"
                        + " two or more children (write a lone group as a leaf)");
            }
            return new Node(kind, children, List.of());
        }

        private String token() {
            int start = i;
            while (!atEnd()) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c) || c == ',' || c == '(' || c == ')' || c == '[' || c == ']' || c == '#') {
                    break;
                }
                i++;
            }
            return s.substring(start, i);
        }

        void skipSpace() {
            while (!atEnd()) {
                char c = s.charAt(i);
                if (c == '#') {
                    while (!atEnd() && s.charAt(i) != '\n') {
                        i++;
                    }
                } else if (Character.isWhitespace(c)) {
                    i++;
                } else {
                    return;
                }
            }
        }

        private void skipSpaceAndCommas() {
            for (;;) {
                skipSpace();
                if (atEnd() || s.charAt(i) != ',') {
                    return;
                }
                i++;
            }
        }

        boolean atEnd() {
            return i >= s.length();
        }

        char peek() {
            return s.charAt(i);
        }

        IllegalArgumentException error(String what) {
            return errorAt(i, what);
        }

        IllegalArgumentException errorAt(int at, String what) {
            int line = 1;
            int col = 1;
            for (int k = 0; k < at && k < s.length(); k++) {
                if (s.charAt(k) == '\n') {
                    line++;
                    col = 1;
                } else {
                    col++;
                }
            }
            return new IllegalArgumentException("tree, line " + line + " column " + col + ": " + what);
        }
    }
}
