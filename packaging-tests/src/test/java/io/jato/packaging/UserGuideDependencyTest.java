package io.jato.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

/**
 * The user guide's "Add the dependency" block, built by a separate Maven against the installed
 * artifacts: the BOM import gives jato-collections and jato-protocols their version, and a store
 * built from what it brought sees TicToc through jato-protocols' service registration.
 */
class UserGuideDependencyTest {

    @Test
    void bomImportResolvesTheLibrary() throws Exception {
        String guide = Build.read(Build.root().resolve("docs/user-guide.md"));
        List<String> xml = Build.blocks(Build.marked(guide, "dependency-example"), "xml");
        assertEquals(1, xml.size(), "one Maven block in the dependency example");
        assertTrue(xml.get(0).contains("<version>" + Build.version() + "</version>"), "the BOM at this build's version");

        Path project = NestedMaven.freshProject("user-guide-build");
        // The block declares dependencies only; the compiler settings are the README's.
        Build.write(project.resolve("pom.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.example</groupId>
                  <artifactId>user-guide-build</artifactId>
                  <version>1</version>
                  <properties>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                """ + xml.get(0) + """
                  <build>
                    <plugins>
                      <plugin>
                        <groupId>org.apache.maven.plugins</groupId>
                        <artifactId>maven-compiler-plugin</artifactId>
                        <version>3.13.0</version>
                        <configuration>
                          <release>17</release>
                        </configuration>
                      </plugin>
                    </plugins>
                  </build>
                </project>
                """);
        Build.write(project.resolve("src/main/java/com/example/Protocols.java"), """
                package com.example;

                import io.jato.collections.TxCounter;
                import io.jato.stm.Stm;
                import java.util.List;
                import java.util.function.Supplier;

                public final class Protocols implements Supplier<List<String>> {
                    @Override
                    public List<String> get() {
                        Stm stm = Stm.builder().protocol("tictoc").build();
                        TxCounter c = new TxCounter(stm);
                        stm.run(txn -> c.add(txn, 1));
                        return Stm.availableProtocols();
                    }
                }
                """);

        NestedMaven.compile(project);

        URL[] path = {project.resolve("target/classes").toUri().toURL(),
                Build.installed("jato-core", "jar").toUri().toURL(),
                Build.installed("jato-collections", "jar").toUri().toURL(),
                Build.installed("jato-protocols", "jar").toUri().toURL(), Build.jctools().toUri().toURL()};
        ClassLoader saved = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(path, ClassLoader.getPlatformClassLoader())) {
            Thread.currentThread().setContextClassLoader(loader);
            @SuppressWarnings("unchecked")
            Supplier<List<String>> protocols = (Supplier<List<String>>) loader.loadClass("com.example.Protocols")
                    .getConstructor().newInstance();
            List<String> names = protocols.get();
            assertTrue(names.containsAll(List.of("occ", "global-lock", "tictoc", "tictoc-si", "tictoc-rr")), names::toString);
        } finally {
            Thread.currentThread().setContextClassLoader(saved);
        }
    }
}
