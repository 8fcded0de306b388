package io.jato.records.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLClassLoader;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Keeps the README's "Declare a record" example true: the Java blocks between the
 * {@code record-example} markers are compiled with the processor exactly as shown (the
 * compilation units as files; the statements as the body of a method that returns
 * {@code balance}), run, and the balance the README promises is checked.
 */
class ReadmeExampleTest {
    private static final Pattern EXAMPLE = Pattern.compile(
            "<!-- record-example:[^>]*-->(.*?)<!-- /record-example -->", Pattern.DOTALL);
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern TYPE_NAME = Pattern.compile("(?m)^(?:\\w+ )*(?:class|record|enum|interface) (\\w+)");

    @Test
    void readmeRecordExampleCompilesAndRuns() throws Exception {
        String readme = Files.readString(TestCompiler.BASEDIR.resolve("../README.md").normalize());
        Matcher example = EXAMPLE.matcher(readme);
        assertTrue(example.find(), "README.md has no record-example markers");
        List<String> blocks = new ArrayList<>();
        Matcher block = JAVA_BLOCK.matcher(example.group(1));
        while (block.find()) {
            blocks.add(block.group(1));
        }
        assertEquals(3, blocks.size(), "expected the specification, the updater and the usage");

        Map<String, String> sources = new LinkedHashMap<>();
        for (String unit : blocks.subList(0, 2)) {
            Matcher type = TYPE_NAME.matcher(unit);
            assertTrue(type.find(), () -> "no type declared in\n" + unit);
            sources.put("com/example/" + type.group(1) + ".java", unit);
        }
        sources.put("com/example/ReadmeUsage.java", "package com.example;\n\n"
                + "import io.jato.stm.Stm;\n\n"
                + "public final class ReadmeUsage implements java.util.function.LongSupplier {\n"
                + "    @Override\n"
                + "    public long getAsLong() {\n"
                + blocks.get(2)
                + "return balance;\n"
                + "    }\n"
                + "}\n");
        TestCompiler.Result r = TestCompiler.compile(sources).assertClean();
        try (URLClassLoader loader = r.loader()) {
            LongSupplier usage = (LongSupplier) loader.loadClass("com.example.ReadmeUsage").getConstructor()
                    .newInstance();
            assertEquals(100, usage.getAsLong());
        }
    }
}
