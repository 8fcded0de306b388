package io.jato.packaging;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where things are: the repository, the version being built and the tests' Maven repository. */
final class Build {
    private Build() {
    }

    /** The repository root (the POM passes it; the working directory's parent otherwise). */
    static Path root() {
        return Path.of(System.getProperty("jato.root", "..")).toAbsolutePath().normalize();
    }

    /** The project version of this build. */
    static String version() {
        return property("jato.version");
    }

    /** The Maven repository the library artifacts were installed into for these tests. */
    static Path itRepo() {
        return Path.of(property("jato.it.repo")).toAbsolutePath().normalize();
    }

    /** {@code groupId:artifactId} of the library artifacts, as installed in {@link #itRepo()}. */
    static Path installed(String artifactId, String extension) {
        Path file = itRepo().resolve("io/jato").resolve(artifactId).resolve(version())
                .resolve(artifactId + "-" + version() + "." + extension);
        assertTrue(Files.isRegularFile(file), () -> "not installed for the tests: " + file);
        return file;
    }

    /**
     * @return JCTools' jar as the nested builds resolved it into {@link #itRepo()}: jato-core's one
     *         dependency, needed on any class path that runs Jato
     */
    static Path jctools() {
        String v = property("jato.jctools.version");
        Path file = itRepo().resolve("org/jctools/jctools-core").resolve(v).resolve("jctools-core-" + v + ".jar");
        assertTrue(Files.isRegularFile(file), () -> "jato-core's dependency was not resolved for the tests: " + file);
        return file;
    }

    static String property(String name) {
        String v = System.getProperty(name);
        assertNotNull(v, () -> "the POM passes " + name + " to the tests");
        return v;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The blocks fenced as {@code ```lang} in {@code text}, in order. */
    static List<String> blocks(String text, String lang) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("```" + Pattern.quote(lang) + "\\n(.*?)```", Pattern.DOTALL).matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The text between {@code <!-- name: ... -->} and {@code <!-- /name -->} in {@code text}. */
    static String marked(String text, String name) {
        Matcher m = Pattern.compile("<!-- " + Pattern.quote(name) + ":[^>]*-->(.*?)<!-- /" + Pattern.quote(name) + " -->",
                Pattern.DOTALL).matcher(text);
        assertTrue(m.find(), () -> "no " + name + " markers");
        return m.group(1);
    }

    /** The first {@code <tag>} element's text directly in {@code xml} (no nesting awareness needed here). */
    static String element(String xml, String tag) {
        Matcher m = Pattern.compile("<" + tag + ">\\s*([^<]*?)\\s*</" + tag + ">").matcher(xml);
        return m.find() ? m.group(1) : null;
    }
}
