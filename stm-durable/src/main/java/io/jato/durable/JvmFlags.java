package io.jato.durable;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JVM flags the module's libraries need, and the check {@link DurableStore.Builder#open()}
 * makes first, so a missing flag is named rather than failing as a class-initialization error deep
 * in a commit or a checkpoint. docs/durability.md says why each one is needed.
 */
final class JvmFlags {
    /** A package of a JDK module that a library reads reflectively. */
    private record Access(String module, String pkg, boolean open, String who) {
        String flag() {
            return (open ? "--add-opens " : "--add-exports ") + module + "/" + pkg + "=ALL-UNNAMED";
        }
    }

    private static final List<Access> ACCESSES = List.of(
            new Access("java.base", "jdk.internal.misc", false, "Agrona's buffers use jdk.internal.misc.Unsafe"),
            new Access("java.base", "jdk.internal.ref", false, "Chronicle Map frees its buffers' memory"),
            new Access("java.base", "sun.nio.ch", false, "Chronicle Map maps and unmaps its files"),
            new Access("jdk.compiler", "com.sun.tools.javac.file", false, "Chronicle Map compiles its value classes"),
            new Access("java.base", "java.lang", true, "Chronicle Map reads JDK internals reflectively"),
            new Access("java.base", "java.lang.reflect", true, "Chronicle Map reads JDK internals reflectively"));

    /** Every flag, in the form the {@code java} launcher takes. */
    static final List<String> REQUIRED = ACCESSES.stream().map(Access::flag).toList();

    private JvmFlags() {
    }

    /** @throws IllegalStateException naming every flag that is missing, and why it is needed */
    static void check() {
        // The libraries run where this module runs: on the class path, all in one unnamed module.
        Module reader = net.openhft.chronicle.map.ChronicleMap.class.getModule();
        List<String> missing = new ArrayList<>();
        for (Access a : ACCESSES) {
            Optional<Module> m = ModuleLayer.boot().findModule(a.module);
            boolean ok = m.isPresent() && (a.open ? m.get().isOpen(a.pkg, reader) : m.get().isExported(a.pkg, reader));
            if (!ok) {
                missing.add(a.flag() + " (" + a.who + (m.isPresent() ? "" : "; module " + a.module
                        + " is not in this runtime") + ")");
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("jato-durable needs the JVM flags " + String.join(", ", missing)
                    + "; see docs/durability.md");
        }
    }
}
