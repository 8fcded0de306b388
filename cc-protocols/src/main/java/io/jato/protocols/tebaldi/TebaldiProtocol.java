package io.jato.protocols.tebaldi;

import io.jato.stm.Capabilities;
import io.jato.stm.TxnType;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;

import java.util.List;

/**
 * Registers Tebaldi's hierarchical concurrency control (seed 003) under {@value #NAME} (tree
 * {@code 3-layer} unless option {@value #TREE} says otherwise) and {@value TwoLayer#NAME} (tree
 * {@code 2-layer}): a tree of controls over groups of transaction types ({@link CcTree}), chosen
 * per transaction by its type ({@code stm.run(type, ...)}). Serializable for every tree
 * {@link CcTree#of} accepts (docs/tebaldi.md has the argument).
 *
 * <p>Options: {@value #TREE} ({@code 2-layer}, {@code 3-layer} or a tree in {@link CcTree}'s
 * format), {@value #TYPES} (space-separated type names every one of which must have a group:
 * checked at build), {@value #UNTYPED} (what untyped transactions run as: {@code random}, the
 * default: a group drawn per transaction, any group for a transaction declared read-only, else one
 * that may write — correct whatever the draw, and how the proof suites type their histories; a
 * type name: that type's group; {@code refuse}: an untyped transaction throws),
 * {@value #WAIT_POLLS} (polls of a 2pl node lock another child holds before aborting),
 * {@value #UNSAFE} (accept inner {@code none} nodes; tests only).
 */
public class TebaldiProtocol implements Protocol {
    public static final String NAME = "tebaldi";
    /** Option: the tree. */
    public static final String TREE = "tree";
    /** Option: the transaction types that must have a group. */
    public static final String TYPES = "types";
    /** Option: the group of untyped transactions. */
    public static final String UNTYPED = "untyped";
    /** Option: polls of a node lock held by another child before the attempt aborts. */
    public static final String WAIT_POLLS = "waitPolls";
    /** Option: allow inner none nodes (not serializable; tests only). */
    public static final String UNSAFE = "unsafe";

    private final String name;
    private final List<ProtocolOption> options;

    /** {@value #NAME}: the 3-layer tree unless option {@value #TREE} names another. */
    public TebaldiProtocol() {
        this(NAME, "3-layer");
    }

    private TebaldiProtocol(String name, String defaultTree) {
        this.name = name;
        this.options = List.of(
                ProtocolOption.of(TREE, defaultTree, "the tree: 2-layer, 3-layer, or e.g. occ(none[a b], 2pl(occ[c], occ[d]))"),
                ProtocolOption.of(TYPES, "", "space-separated transaction types that must each be in a group"),
                ProtocolOption.of(UNTYPED, "random", "untyped transactions: random (a group per transaction),"
                        + " a type name (its group) or refuse"),
                ProtocolOption.of(WAIT_POLLS, 64, "polls of a 2pl node lock held by another child before aborting"),
                ProtocolOption.of(UNSAFE, "false", "accept inner none nodes, which order nothing (tests only)"));
    }

    /** {@value #NAME}: Tebaldi with seed 003's 2-layer tree unless option {@value TebaldiProtocol#TREE} names another. */
    public static final class TwoLayer extends TebaldiProtocol {
        public static final String NAME = "tebaldi-2layer";

        public TwoLayer() {
            super(NAME, "2-layer");
        }
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return "Tebaldi: a tree of concurrency controls (occ, 2pl) over groups of transaction types (seed 003)";
    }

    @Override
    public final Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE);
    }

    @Override
    public final List<ProtocolOption> options() {
        return options;
    }

    @Override
    public final ConcurrencyControl create(ProtocolContext context) {
        String text = context.option(TREE).trim();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("option '" + TREE + "' of protocol '" + name + "' is empty: give "
                    + String.join(", ", CcTree.names()) + ", or a tree such as " + CcTree.THREE_LAYER);
        }
        boolean unsafe = context.booleanOption(UNSAFE);
        String named = CcTree.named(text);
        CcTree tree = CcTree.parse(named != null ? named : text, unsafe);
        String types = context.option(TYPES).trim();
        if (!types.isEmpty()) {
            tree.requireCovers(List.of(types.split("\\s+")));
        }
        TreeLayout layout = new TreeLayout(tree);
        String untyped = context.option(UNTYPED).trim();
        int untypedGroup = 0;
        if (untyped.equals("random")) {
            untypedGroup = TebaldiControl.RANDOM;
        } else if (!untyped.equals("refuse")) {
            if (tree.groupOf(untyped) == null) {
                throw new IllegalArgumentException("option '" + UNTYPED + "' of protocol '" + name + "' names type '"
                        + untyped + "', which is in no group of " + tree + "; give a type of the tree, random or refuse");
            }
            untypedGroup = layout.groupOf(TxnType.of(untyped));
        }
        return new TebaldiControl(name, context, layout, untypedGroup, context.intOption(WAIT_POLLS, 0, Integer.MAX_VALUE));
    }
}
