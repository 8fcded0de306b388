package io.jato.records.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The generated source, compared exactly with golden files in {@code src/test/resources/golden}.
 * After an intended change to the output, regenerate them and review the diff:
 * <pre>mvn -B -o -pl stm-processor test -Djato.golden.update=true -Dtest=GoldenTest</pre>
 * Every sample compiles with {@code -Xlint:all -Werror} and no diagnostic at all, and its check
 * class (a {@link Runnable} compiled with it) exercises the generated record.
 */
class GoldenTest {
    private static final boolean UPDATE = Boolean.getBoolean("jato.golden.update");
    private static final Path GOLDEN = TestCompiler.RESOURCES.resolve("golden");
    /** stm-collections' hand-written reference record and its specification. */
    private static final Path FIXTURES = TestCompiler.BASEDIR.resolve(
            "../stm-collections/src/test/java/io/jato/records/fixtures").normalize();

    /** The reference shape: generated from the specification of stm-collections' fixture. */
    @Test
    void account() throws IOException {
        assertGolden("Account.java", generatedAccount());
    }

    /**
     * The processor's output for the fixture's specification is the hand-written fixture, apart
     * from the header comment, the fixture's "hand-written" remark and the generated code's
     * {@code this.} qualification of fields. If the fixture changes shape, so must the processor.
     */
    @Test
    void accountMatchesHandWrittenFixture() throws IOException {
        assertEquals(normalize(Files.readString(FIXTURES.resolve("Account.java"))), normalize(generatedAccount()));
    }

    private static String generatedAccount() throws IOException {
        return TestCompiler.compile(Map.of("io/jato/records/fixtures/AccountSpec.java",
                Files.readString(FIXTURES.resolve("AccountSpec.java")))).assertClean()
                .source("io.jato.records.fixtures.Account");
    }

    private static String normalize(String source) {
        return source.replaceAll("(?m)\\A(//.*\\n)+", "")
                .replace(" Hand-written in the exact shape the annotation processor generates.", "")
                .replaceAll("this\\.(\\w+)", "$1");
    }

    /** The eight primitives, String, two enums; four groups with default-group columns interleaved. */
    @Test
    void allColumnTypes() throws Exception {
        TestCompiler.Result r = TestCompiler.compile(TestCompiler.sample("alltypes")).assertClean();
        assertGolden("AllTypes.java", r.source("sample.types.AllTypes"));
        r.run("sample.types.AllTypesCheck");
    }

    /** Every column grouped: no default group, the first named group is index 0. */
    @Test
    void allColumnsGrouped() throws Exception {
        TestCompiler.Result r = TestCompiler.compile(TestCompiler.sample("grouped")).assertClean();
        assertGolden("InventoryRecord.java", r.source("sample.grouped.InventoryRecord"));
        r.run("sample.grouped.InventoryCheck");
    }

    private static void assertGolden(String name, String actual) throws IOException {
        Path golden = GOLDEN.resolve(name);
        if (UPDATE) {
            Files.createDirectories(GOLDEN);
            Files.writeString(golden, actual);
            return;
        }
        if (!Files.exists(golden)) {
            throw new AssertionError("no golden file " + golden + "; create it with -Djato.golden.update=true");
        }
        assertEquals(Files.readString(golden), actual, () -> "generated source differs from " + golden
                + "; if the change is intended, rerun with -Djato.golden.update=true and review the diff");
    }
}
