package io.jato.packaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What a user of the published artifacts gets: which modules are published (the library and the
 * BOM, nothing else), the BOM in step with the build, the metadata Central requires, and the
 * license, notice and version inside every jar.
 */
class PublishedArtifactsTest {
    private static final Set<String> LIBRARY = Set.of("jato-core", "jato-collections", "jato-protocols", "jato-processor");

    /** One module of the reactor, as its POM declares it. */
    private record Module(String dir, Element pom) {
        String artifactId() {
            return text(pom, "artifactId");
        }

        String packaging() {
            String p = text(pom, "packaging");
            return p == null ? "jar" : p;
        }

        boolean deployed() {
            Element props = child(pom, "properties");
            return props == null || !"true".equals(text(props, "maven.deploy.skip"));
        }
    }

    private static Element parse(Path pom) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document d = f.newDocumentBuilder().parse(pom.toFile());
            return d.getDocumentElement();
        } catch (Exception e) {
            throw new AssertionError("cannot parse " + pom, e);
        }
    }

    private static Element child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? null : e.getTextContent().trim();
    }

    private static List<Module> modules() {
        Element root = parse(Build.root().resolve("pom.xml"));
        List<Module> out = new ArrayList<>();
        for (Element m : children(child(root, "modules"), "module")) {
            String dir = m.getTextContent().trim();
            out.add(new Module(dir, parse(Build.root().resolve(dir).resolve("pom.xml"))));
        }
        return out;
    }

    private static Set<String> managedJatoArtifacts(Element pom) {
        Set<String> out = new TreeSet<>();
        Element dm = child(pom, "dependencyManagement");
        NodeList deps = child(dm, "dependencies").getElementsByTagName("dependency");
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            if ("io.jato".equals(text(d, "groupId"))) {
                out.add(text(d, "artifactId"));
                assertEquals("${project.version}", text(d, "version"), () -> "version of " + text(d, "artifactId"));
            }
        }
        return out;
    }

    @Test
    void onlyTheLibraryAndTheBomArePublished() {
        Set<String> deployed = new TreeSet<>();
        for (Module m : modules()) {
            if (m.deployed()) {
                deployed.add(m.artifactId());
            }
            assertTrue(m.artifactId().startsWith("jato-"), () -> m.dir() + ": artifacts share the jato- prefix");
        }
        Set<String> expected = new TreeSet<>(LIBRARY);
        expected.add("jato-bom");
        assertEquals(expected, deployed, "modules without maven.deploy.skip");
    }

    @Test
    void bomListsEveryLibraryArtifactAtTheBuildsVersion() {
        Element bom = parse(Build.root().resolve("bom/pom.xml"));
        assertEquals(null, child(bom, "parent"), "the BOM has no parent: an import would bring the parent's dependencyManagement");
        assertEquals("jato-bom", text(bom, "artifactId"));
        assertEquals(Build.version(), text(bom, "version"), "bom/pom.xml's version is jato-parent's");
        assertEquals(new TreeSet<>(LIBRARY), managedJatoArtifacts(bom));

        Set<String> parentManaged = managedJatoArtifacts(parse(Build.root().resolve("pom.xml")));
        assertTrue(parentManaged.containsAll(LIBRARY), "jato-parent manages every library artifact too");
    }

    @Test
    void publishedPomsCarryCentralsMetadata() {
        for (Path pom : List.of(Build.root().resolve("pom.xml"), Build.root().resolve("bom/pom.xml"))) {
            Element p = parse(pom);
            for (String required : List.of("name", "description", "url")) {
                assertNotNull(text(p, required), () -> pom + " has no " + required);
            }
            assertNotNull(child(child(p, "licenses"), "license"), () -> pom + " has no license");
            assertEquals("Apache-2.0", text(child(child(p, "licenses"), "license"), "name"));
            assertNotNull(text(child(p, "scm"), "connection"), () -> pom + " has no scm connection");
            assertNotNull(text(child(child(p, "developers"), "developer"), "name"), () -> pom + " has no developer");
        }
        for (Module m : modules()) {
            if (m.deployed()) {
                assertNotNull(text(m.pom(), "name"), () -> m.dir() + " has no name");
                assertNotNull(text(m.pom(), "description"), () -> m.dir() + " has no description");
            }
        }
    }

    @Test
    void everyLibraryJarCarriesLicenseNoticeAndVersion() throws Exception {
        byte[] license = Files.readAllBytes(Build.root().resolve("LICENSE"));
        byte[] notice = Files.readAllBytes(Build.root().resolve("NOTICE"));
        for (String artifact : LIBRARY) {
            try (JarFile jar = new JarFile(Build.installed(artifact, "jar").toFile())) {
                assertArrayEquals(license, read(jar, "META-INF/LICENSE"), artifact + ": META-INF/LICENSE");
                assertArrayEquals(notice, read(jar, "META-INF/NOTICE"), artifact + ": META-INF/NOTICE");
                Manifest mf = jar.getManifest();
                assertNotNull(mf, artifact + ": manifest");
                assertEquals(Build.version(), mf.getMainAttributes().getValue("Implementation-Version"), artifact);
                assertFalse(mf.getMainAttributes().getValue("Implementation-Title").isBlank(), artifact);
            }
        }
    }

    @Test
    void everyLibraryJarHasSourcesAndJavadoc() throws Exception {
        for (Module m : modules()) {
            if (!m.deployed() || !"jar".equals(m.packaging())) {
                continue;
            }
            Path target = Build.root().resolve(m.dir()).resolve("target");
            String base = m.artifactId() + "-" + Build.version();
            try (JarFile sources = new JarFile(target.resolve(base + "-sources.jar").toFile());
                    JarFile javadoc = new JarFile(target.resolve(base + "-javadoc.jar").toFile())) {
                assertTrue(sources.stream().anyMatch(e -> e.getName().endsWith(".java")), base + "-sources.jar has sources");
                assertNotNull(javadoc.getEntry("index.html"), base + "-javadoc.jar has index.html");
            }
        }
    }

    private static byte[] read(JarFile jar, String name) throws Exception {
        ZipEntry e = jar.getEntry(name);
        assertNotNull(e, () -> jar.getName() + " has no " + name);
        try (var in = jar.getInputStream(e)) {
            return in.readAllBytes();
        }
    }
}
