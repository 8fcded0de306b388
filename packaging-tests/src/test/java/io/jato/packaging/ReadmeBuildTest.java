package io.jato.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Keeps the README's build snippet true, the way stm-processor's ReadmeExampleTest keeps its Java
 * true: the Maven block between the {@code build-example} markers becomes the body of a project
 * whose sources are the README's record example; a separate Maven (the one running this build,
 * with the JDK running this test) compiles it against the artifacts installed in the tests' own
 * repository, and the classes it produced run and give the balance the README promises. The Gradle
 * block cannot be run here (no Gradle on the build machines); it is checked to name the same
 * artifacts, version and release as the Maven block.
 */
class ReadmeBuildTest {
    private static final Pattern TYPE_NAME = Pattern.compile("(?m)^(?:\\w+ )*(?:class|record|enum|interface) (\\w+)");

    private static String readme() {
        return Build.read(Build.root().resolve("README.md"));
    }

    private static String mavenSnippet() {
        List<String> xml = Build.blocks(Build.marked(readme(), "build-example"), "xml");
        assertEquals(1, xml.size(), "one Maven block in the build example");
        return xml.get(0);
    }

    @Test
    void mavenSnippetPinsTheCompilerPluginAndTheRelease() {
        String xml = mavenSnippet();
        Matcher compiler = Pattern.compile("<artifactId>maven-compiler-plugin</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(xml);
        assertTrue(compiler.find(), "maven-compiler-plugin needs a <version> (Maven 3.8 would run 3.1)");
        assertEquals("17", Build.element(xml, "release"));
        assertTrue(xml.contains("<annotationProcessorPaths>"));
        assertEquals(2, count(xml, "<version>" + Build.version() + "</version>"),
                "jato-collections and jato-processor at this build's version");
    }

    @Test
    void gradleSnippetNamesTheSameArtifacts() {
        List<String> kotlin = Build.blocks(Build.marked(readme(), "build-example"), "kotlin");
        assertEquals(1, kotlin.size(), "one Gradle block in the build example");
        String gradle = kotlin.get(0);
        String v = Build.version();
        assertTrue(gradle.contains("implementation(\"io.jato:jato-collections:" + v + "\")"), gradle);
        assertTrue(gradle.contains("annotationProcessor(\"io.jato:jato-processor:" + v + "\")"), gradle);
        assertTrue(gradle.contains("options.release.set(" + Build.element(mavenSnippet(), "release") + ")"), gradle);
    }

    @Test
    void mavenSnippetBuildsTheRecordExample() throws Exception {
        Path project = NestedMaven.freshProject("readme-build");

        Build.write(project.resolve("pom.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.example</groupId>
                  <artifactId>readme-build</artifactId>
                  <version>1</version>
                  <properties>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                """ + mavenSnippet() + "</project>\n");

        List<String> java = Build.blocks(Build.marked(readme(), "record-example"), "java");
        assertEquals(3, java.size(), "expected the specification, the updater and the usage");
        Path src = project.resolve("src/main/java/com/example");
        for (String unit : java.subList(0, 2)) {
            Matcher type = TYPE_NAME.matcher(unit);
            assertTrue(type.find(), () -> "no type declared in\n" + unit);
            Build.write(src.resolve(type.group(1) + ".java"), unit);
        }
        Build.write(src.resolve("ReadmeUsage.java"), "package com.example;\n\n"
                + "import io.jato.stm.Stm;\n\n"
                + "public final class ReadmeUsage implements java.util.function.LongSupplier {\n"
                + "    @Override\n"
                + "    public long getAsLong() {\n"
                + java.get(2)
                + "return balance;\n"
                + "    }\n"
                + "}\n");

        NestedMaven.compile(project);

        Path classes = project.resolve("target/classes");
        assertTrue(Files.isRegularFile(classes.resolve("com/example/Account.class")),
                "the processor generated com.example.Account");
        URL[] path = {classes.toUri().toURL(), Build.installed("jato-core", "jar").toUri().toURL(),
                Build.installed("jato-collections", "jar").toUri().toURL(), Build.jctools().toUri().toURL()};
        try (URLClassLoader loader = new URLClassLoader(path, ClassLoader.getPlatformClassLoader())) {
            LongSupplier usage = (LongSupplier) loader.loadClass("com.example.ReadmeUsage").getConstructor()
                    .newInstance();
            assertEquals(100, usage.getAsLong());
        }
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
