package io.jato.stm.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The Jato version this core was built as. The build writes it into {@code version.properties}
 * next to this class, so it is found on the class path, on the module path, in a shaded jar and
 * in an IDE's output folder alike; the jar manifest's {@code Implementation-Version} is only a
 * fallback, because a shaded or repackaged jar usually replaces the manifest.
 */
public final class Version {
    private Version() {
    }

    /** The version, e.g. {@code "0.1.0"}; {@code "unknown"} if neither source has one. */
    public static final String VALUE = load();

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank() && !v.startsWith("${")) {
                    return v.trim();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Jato's version.properties", e);
        }
        String manifest = Version.class.getPackage().getImplementationVersion();
        return manifest != null ? manifest : "unknown";
    }
}
