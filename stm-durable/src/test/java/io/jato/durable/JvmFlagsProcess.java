package io.jato.durable;

import io.jato.stm.Stm;

import java.nio.file.Path;

/** Opens a store in a JVM started without the module's flags; prints the error it gets. */
public final class JvmFlagsProcess {
    private JvmFlagsProcess() {
    }

    public static void main(String[] args) {
        try {
            DurableStore.builder(Path.of(args[0]), Stm.builder().build()).map("m", Codecs.longs(), Codecs.longs()).open();
            System.out.println("OPENED");
        } catch (IllegalStateException e) {
            System.out.println("REFUSED " + e.getMessage());
        }
    }
}
