package io.jato.records.processor;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLClassLoader;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * Keeps the user guide's examples true: every Java block between {@code guide-example} markers in
 * {@code docs/user-guide.md} is compiled as the body of a method (after the preamble the guide
 * states: a store {@code stm}, cells {@code a} and {@code b}, a list {@code log}), with
 * {@code -Xlint:all -Werror}, and run. Blocks between {@code guide-example-jdk21} markers use API
 * newer than Java 17 (virtual threads): they are compiled with {@code --release 21} and run on JDK
 * 21 and later only (CI's JDK 25 pass).
 */
class UserGuideExampleTest {
    private static final Pattern EXAMPLE = Pattern.compile(
            "<!-- guide-example:[^>]*-->\\s*```java\\n(.*?)```\\s*<!-- /guide-example -->", Pattern.DOTALL);
    private static final Pattern EXAMPLE_JDK21 = Pattern.compile(
            "<!-- guide-example-jdk21:[^>]*-->\\s*```java\\n(.*?)```\\s*<!-- /guide-example -->", Pattern.DOTALL);
    private static final String PREAMBLE = "Stm stm = Stm.create();\n"
            + "TxLong a = new TxLong(stm, 10);\n"
            + "TxLong b = new TxLong(stm, 0);\n"
            + "List<Long> log = new ArrayList<>();\n";

    @Test
    void everyMarkedExampleCompilesAndRuns() throws Exception {
        List<String> examples = examples(EXAMPLE);
        assertTrue(examples.size() >= 4, "expected the guide's marked examples, found " + examples.size());
        compileAndRun(examples, 17);
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void everyMarkedJdk21ExampleCompilesAndRunsOnJdk21() throws Exception {
        List<String> examples = examples(EXAMPLE_JDK21);
        assertTrue(examples.size() >= 1, "expected the guide's virtual-thread example, found none");
        compileAndRun(examples, 21);
    }

    private static List<String> examples(Pattern marker) throws Exception {
        String guide = Files.readString(TestCompiler.BASEDIR.resolve("../docs/user-guide.md").normalize());
        Matcher m = marker.matcher(guide);
        List<String> examples = new ArrayList<>();
        while (m.find()) {
            examples.add(m.group(1));
        }
        return examples;
    }

    private static void compileAndRun(List<String> examples, int release) throws Exception {
        Map<String, String> sources = new LinkedHashMap<>();
        for (int i = 0; i < examples.size(); i++) {
            sources.put("guide/Example" + i + ".java", "package guide;\n\n"
                    + "import io.jato.collections.*;\n"
                    + "import io.jato.stm.*;\n"
                    + "import java.util.*;\n"
                    + "import java.util.concurrent.*;\n\n"
                    + "public final class Example" + i + " implements Callable<Object> {\n"
                    + "    @Override\n"
                    + "    public Object call() throws Exception {\n"
                    + PREAMBLE
                    + examples.get(i)
                    + "        return stm;\n"
                    + "    }\n"
                    + "}\n");
        }
        TestCompiler.Result r = TestCompiler.compile(sources, List.of(), release).assertClean();
        try (URLClassLoader loader = r.loader()) {
            for (int i = 0; i < examples.size(); i++) {
                Callable<?> example = (Callable<?>) loader.loadClass("guide.Example" + i).getConstructor().newInstance();
                example.call();
            }
        }
    }
}
