package io.jato.workloads;

import io.jato.stm.Stm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The runner's {@code --tree}: runs the workload under Tebaldi's protocol ({@value #PROTOCOL}) with
 * a tree of concurrency controls over its transaction types (docs/tebaldi.md). The value is a
 * shipped tree ({@code 2-layer}, {@code 3-layer}) or a file holding one; the store checks the tree
 * and that every type the workload runs has a group, and a problem becomes a usage error.
 */
final class TreeOption {
    /** The protocol a tree runs on. */
    static final String PROTOCOL = "tebaldi";
    private static final List<String> SHIPPED = List.of("2-layer", "3-layer");

    private final String tree;
    private final List<String> types;

    private TreeOption(String tree, List<String> types) {
        this.tree = tree;
        this.types = types;
    }

    /** @return the tree {@code --tree} asks for, or null without the option */
    static TreeOption parse(Options o, WorkloadCommand command) throws UsageException {
        if (!o.has("tree")) {
            return null;
        }
        String protocol = o.string("protocol", PROTOCOL);
        if (!protocol.equals(PROTOCOL)) {
            throw new UsageException("--tree runs protocol '" + PROTOCOL + "' and cannot be combined with --protocol "
                    + protocol);
        }
        if (!command.objectProtocols(o).isEmpty()) {
            throw new UsageException("--tree runs every object under the tree and cannot be combined with options"
                    + " that bind objects to other protocols");
        }
        List<String> types = command.txnTypes();
        if (types.isEmpty()) {
            throw new UsageException("--tree groups transactions by type, and " + command.name()
                    + "'s transactions carry none");
        }
        String value = o.string("tree", "").trim();
        if (SHIPPED.contains(value)) {
            return new TreeOption(value, types);
        }
        Path file = Path.of(value);
        if (!Files.isRegularFile(file)) {
            throw new UsageException("--tree: '" + value + "' is neither a shipped tree (" + String.join(", ", SHIPPED)
                    + ") nor a readable file");
        }
        try {
            return new TreeOption(Files.readString(file, StandardCharsets.UTF_8), types);
        } catch (IOException e) {
            throw new UsageException("--tree: cannot read " + file + ": " + e.getMessage());
        }
    }

    /** Sets the tree and the types it must cover on the store's builder (checked when it builds). */
    void configure(Stm.Builder b) {
        b.option("tree", tree).option("types", String.join(" ", types));
    }
}
