package io.jato.packaging;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A separate Maven build of a small user project, as a user would run it: the Maven running this
 * build, the JDK running the test, the Jato artifacts from the tests' repository
 * ({@code target/it-repo}, where the invoker's install step put them) and nothing from the
 * reactor.
 */
final class NestedMaven {
    private NestedMaven() {
    }

    /** An empty directory {@code target/<name>} for a project. */
    static Path freshProject(String name) {
        Path dir = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().resolve("target").resolve(name);
        try {
            if (Files.exists(dir)) {
                try (Stream<Path> files = Files.walk(dir)) {
                    for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(f);
                    }
                }
            }
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    /** Runs {@code mvn -B compile} in {@code project}; fails the test with the log's tail if it fails. */
    static void compile(Path project) throws IOException, InterruptedException {
        String mavenHome = System.getProperty("maven.home");
        assertNotNull(mavenHome, "the POM passes maven.home");

        // Plugins come from the outer build's repository (a file:// remote: read, never written),
        // Jato's artifacts from the tests' repository; Central stays the fallback.
        String outer = Path.of(Build.property("jato.outer.repo")).toUri().toString();
        Build.write(project.resolve("settings.xml"), """
                <settings>
                  <profiles>
                    <profile>
                      <id>outer</id>
                      <repositories>
                        <repository>
                          <id>outer-local</id>
                          <url>%1$s</url>
                          <releases><checksumPolicy>ignore</checksumPolicy></releases>
                          <snapshots><enabled>false</enabled></snapshots>
                        </repository>
                      </repositories>
                      <pluginRepositories>
                        <pluginRepository>
                          <id>outer-local</id>
                          <url>%1$s</url>
                          <releases><checksumPolicy>ignore</checksumPolicy></releases>
                          <snapshots><enabled>false</enabled></snapshots>
                        </pluginRepository>
                      </pluginRepositories>
                    </profile>
                  </profiles>
                  <activeProfiles>
                    <activeProfile>outer</activeProfile>
                  </activeProfiles>
                </settings>
                """.formatted(outer));

        Path log = project.resolve("build.log");
        List<String> command = List.of(Path.of(mavenHome, "bin", "mvn").toString(), "-B",
                "-s", project.resolve("settings.xml").toString(),
                "-Dmaven.repo.local=" + Build.itRepo(),
                "compile");
        ProcessBuilder pb = new ProcessBuilder(command).directory(project.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("the build of " + project + " did not finish in 5 minutes; log: " + log);
        }
        if (p.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log);
            fail("the build of " + project + " failed (" + String.join(" ", command) + "):\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size())));
        }
    }
}
