package io.jato.stm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

class VersionTest {
    @Test
    void versionIsTheBuildsProjectVersion() {
        String expected = System.getProperty("jato.expected.version");
        assertNotNull(expected, "the POM passes jato.expected.version to the tests");
        assertEquals(expected, Stm.version());
    }
}
