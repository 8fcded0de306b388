package io.jato.protocols.tebaldi;

import java.util.Locale;

/**
 * The concurrency controls a node of a {@link CcTree} can run. A leaf resolves conflicts between
 * transactions of its own group; an inner node resolves conflicts between transactions of
 * different children (docs/tebaldi.md has the mechanism of each and why their orders agree).
 */
public enum NodeKind {
    /**
     * Optimistic validation at commit (Silo-style, in the commit driver's validate phase). As a
     * leaf: a read whose item a transaction of the same group overwrote fails. As an inner node: a
     * read whose item a transaction of another child overwrote fails.
     */
    OCC("occ", true, true),
    /**
     * Strict two-phase locking between children (inner only): shared locks at read, exclusive at
     * write, held to the end of the attempt; locks held by transactions of the same child never
     * conflict, so the child's own control orders those. At most one per tree.
     */
    TWO_PL("2pl", true, false),
    /**
     * No concurrency control. As a leaf: a read-only group, whose transactions cannot write and so
     * cannot conflict with each other (seed 003's read-only group). As an inner node it resolves
     * nothing and is not serializable: refused unless the tree is parsed as unsafe, which only
     * tests do, to prove that the history checker catches a missing layer.
     */
    NONE("none", true, true);

    private final String word;
    private final boolean inner;
    private final boolean leaf;

    NodeKind(String word, boolean inner, boolean leaf) {
        this.word = word;
        this.inner = inner;
        this.leaf = leaf;
    }

    /** @return the kind's name in the tree format: {@code occ}, {@code 2pl}, {@code none} */
    public String word() {
        return word;
    }

    boolean allowedInner() {
        return inner;
    }

    boolean allowedLeaf() {
        return leaf;
    }

    /** @return the kind named {@code word}, or null */
    static NodeKind byWord(String word) {
        for (NodeKind k : values()) {
            if (k.word.equals(word.toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        return null;
    }
}
