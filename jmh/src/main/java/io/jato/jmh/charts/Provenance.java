package io.jato.jmh.charts;

import java.util.List;

/**
 * What produced a result, as JMH records it in every entry of its JSON: the JMH version and the
 * forked JVM (name, version, arguments). Fields JMH left out are empty strings, never null, so the
 * summary can print them as they are.
 */
record Provenance(String jmhVersion, String vmName, String vmVersion, List<String> jvmArgs) {
    Provenance {
        jvmArgs = List.copyOf(jvmArgs);
    }
}
