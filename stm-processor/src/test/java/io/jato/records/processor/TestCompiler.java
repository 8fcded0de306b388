package io.jato.records.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles sample sources in-process with javac and the {@link RecordProcessor}, as a user's build
 * would: {@code --release 17 -Xlint:all -Werror}, stm-core and stm-collections on the class path.
 * Each compilation gets its own directory under {@code target/compilations} for inspection.
 */
final class TestCompiler {
    /** The module's directory: surefire's {@code basedir}, or the working directory. */
    static final Path BASEDIR = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    static final Path RESOURCES = BASEDIR.resolve("src/test/resources");

    private static final AtomicInteger COUNT = new AtomicInteger();

    private TestCompiler() {
    }

    /** @return the sources under {@code samples/<name>}, by path relative to that directory */
    static Map<String, String> sample(String name) {
        Path root = RESOURCES.resolve("samples").resolve(name);
        try (Stream<Path> files = Files.walk(root)) {
            Map<String, String> sources = new LinkedHashMap<>();
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).sorted().collect(Collectors.toList())) {
                sources.put(root.relativize(p).toString().replace('\\', '/'), Files.readString(p));
            }
            return sources;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compiles {@code sources} (path to text) with the default options. */
    static Result compile(Map<String, String> sources) {
        return compile(sources, List.of());
    }

    /** Compiles {@code sources}, in path order; {@code classPath} entries come before stm-core and stm-collections. */
    static Result compile(Map<String, String> sources, List<Path> classPath) {
        return compile(sources, classPath, 17);
    }

    /** As {@link #compile(Map, List)}, for the Java SE {@code release} given (17 unless a source needs more). */
    static Result compile(Map<String, String> sources, List<Path> classPath, int release) {
        Path dir = BASEDIR.resolve("target/compilations/c" + COUNT.incrementAndGet());
        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Path generated = dir.resolve("generated");
        List<Path> files = new ArrayList<>();
        try {
            for (Path d : List.of(src, classes, generated)) {
                Files.createDirectories(d);
            }
            for (Map.Entry<String, String> s : new TreeMap<>(sources).entrySet()) {
                Path f = src.resolve(s.getKey());
                Files.createDirectories(f.getParent());
                Files.writeString(f, s.getValue());
                files.add(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Path> cp = new ArrayList<>(classPath);
        cp.add(locationOf("io.jato.stm.Stm"));
        cp.add(locationOf("io.jato.records.TxRecord"));
        List<String> options = List.of("--release", Integer.toString(release), "-Xlint:all", "-Werror",
                "-classpath", cp.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator)),
                "-d", classes.toString(), "-s", generated.toString());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            JavaCompiler.CompilationTask task = javac.getTask(null, fm, diagnostics, options, null,
                    fm.getJavaFileObjectsFromPaths(files));
            task.setProcessors(List.of(new RecordProcessor()));
            boolean ok = task.call();
            return new Result(ok, diagnostics.getDiagnostics(), classes, generated);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path locationOf(String className) {
        try {
            return Path.of(Class.forName(className).getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (ClassNotFoundException | URISyntaxException e) {
            throw new IllegalStateException("the test class path lacks " + className, e);
        }
    }

    /** What a compilation produced. */
    static final class Result {
        final boolean success;
        final List<Diagnostic<? extends JavaFileObject>> diagnostics;
        final Path classes;
        final Path generated;

        Result(boolean success, List<Diagnostic<? extends JavaFileObject>> diagnostics, Path classes, Path generated) {
            this.success = success;
            this.diagnostics = diagnostics;
            this.classes = classes;
            this.generated = generated;
        }

        /** @return the generated source of {@code qualifiedName} */
        String source(String qualifiedName) {
            Path f = generated.resolve(qualifiedName.replace('.', '/') + ".java");
            assertTrue(Files.exists(f), () -> "no generated " + qualifiedName + "; diagnostics:\n" + describe());
            try {
                return Files.readString(f);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Asserts the compilation succeeded without a single diagnostic (warnings fail under -Werror anyway). */
        Result assertClean() {
            assertTrue(success && diagnostics.isEmpty(), () -> "expected a clean compilation:\n" + describe());
            return this;
        }

        /**
         * Asserts that compilation failed with exactly one error, {@code message}, reported at a
         * line containing {@code fragment} (the element or annotation the error names).
         */
        void assertOnlyError(String message, String fragment) {
            List<Diagnostic<? extends JavaFileObject>> errors = errors();
            assertEquals(1, errors.size(), () -> "expected exactly one error:\n" + describe());
            assertError(message, fragment);
        }

        /** Asserts one of the errors is {@code message}, reported at a line containing {@code fragment}. */
        void assertError(String message, String fragment) {
            assertTrue(!success, "compilation succeeded");
            for (Diagnostic<? extends JavaFileObject> d : errors()) {
                if (d.getMessage(Locale.ROOT).equals(message)) {
                    String line = line(d);
                    assertTrue(line.contains(fragment),
                            () -> "error '" + message + "' reported at '" + line + "', not at " + fragment);
                    return;
                }
            }
            fail("no error '" + message + "'; diagnostics:\n" + describe());
        }

        List<Diagnostic<? extends JavaFileObject>> errors() {
            return diagnostics.stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).collect(Collectors.toList());
        }

        /** @return a class loader over the compiled classes, delegating to the test class path */
        URLClassLoader loader() {
            try {
                return new URLClassLoader(new URL[] {classes.toUri().toURL()}, TestCompiler.class.getClassLoader());
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Loads {@code className}, a {@link Runnable} with a no-argument constructor, and runs it. */
        void run(String className) throws ReflectiveOperationException, IOException {
            try (URLClassLoader loader = loader()) {
                ((Runnable) loader.loadClass(className).getConstructor().newInstance()).run();
            }
        }

        String describe() {
            StringBuilder b = new StringBuilder();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics) {
                b.append(d.getKind()).append(' ').append(d.getSource() == null ? "" : d.getSource().getName())
                        .append(':').append(d.getLineNumber()).append(": ").append(d.getMessage(Locale.ROOT))
                        .append('\n');
            }
            return b.toString();
        }

        private static String line(Diagnostic<? extends JavaFileObject> d) {
            if (d.getSource() == null || d.getLineNumber() <= 0) {
                return "<no position>";
            }
            try {
                String[] lines = d.getSource().getCharContent(true).toString().split("\n", -1);
                return lines[(int) d.getLineNumber() - 1];
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
