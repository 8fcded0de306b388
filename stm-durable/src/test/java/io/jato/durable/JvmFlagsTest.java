package io.jato.durable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Without its JVM flags the store refuses to open, naming every flag (about 1 s: one child JVM). */
class JvmFlagsTest {
    @TempDir
    Path dir;

    @Test
    void openingWithoutTheFlagsNamesThem() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                JvmFlagsProcess.class.getName(), dir.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertTrue(out.contains("REFUSED"), out);
        for (String flag : DurableStore.REQUIRED_JVM_FLAGS) {
            assertTrue(out.contains(flag), flag + " is not named: " + out);
        }
    }
}
