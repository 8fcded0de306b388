package io.jato.records.processor;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The generated {@code writeColumns} and {@code readColumns}: a record's columns written through
 * a {@code ColumnOutput} come back equal through a {@code ColumnInput}, in the documented order.
 */
class ColumnValuesTest {
    /**
     * Every column type, edge values and nulls, all groups and two of four, in both layouts: the
     * sample's {@code ColumnsCheck} (in the record's package, where the methods are accessible).
     */
    @Test
    void everyColumnTypeRoundTrips() throws Exception {
        TestCompiler.compile(TestCompiler.sample("alltypes")).assertClean().run("sample.types.ColumnsCheck");
    }

    /** An enum column type named like an interface the generated source imports is written qualified. */
    @Test
    void enumNamedLikeAColumnInterfaceIsQualified() {
        String source = TestCompiler.compile(Map.of(
                "p/ColumnInput.java", "package p;\npublic enum ColumnInput { A }\n",
                "p/PortSpec.java", "package p;\n@io.jato.records.TxRecord\npublic class PortSpec { ColumnInput in; }\n"))
                .assertClean().source("p.Port");
        assertTrue(source.contains("i.in = in.readEnum(p.ColumnInput.class);"), source);
    }
}
