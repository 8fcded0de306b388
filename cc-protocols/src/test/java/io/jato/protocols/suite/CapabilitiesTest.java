package io.jato.protocols.suite;

import io.jato.stm.Capabilities;
import io.jato.stm.Capabilities.Feature;
import io.jato.stm.Capabilities.Isolation;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What each shipped protocol declares, which is what the suites select it by: the serializable
 * ones run every serializability suite, the weaker ones only {@code WeakIsolationTest} at their
 * declared level. A protocol that changes its declaration must change this table.
 */
class CapabilitiesTest {

    @Test
    void eachShippedProtocolDeclaresItsLevel() {
        // The shipped protocols' table: not for a run of the suites against another protocol.
        Assumptions.assumeTrue(Protocols.allSelected());
        Map<String, Capabilities> expected = Map.ofEntries(
                Map.entry("2pl", Capabilities.of(Isolation.SERIALIZABLE, Feature.OPACITY, Feature.EAGER_LOCKING)),
                Map.entry("swisstm", Capabilities.of(Isolation.SERIALIZABLE, Feature.OPACITY, Feature.EAGER_LOCKING,
                        Feature.REMOTE_ABORT)),
                Map.entry("occ", Capabilities.of(Isolation.SERIALIZABLE)),
                Map.entry("adaptive", Capabilities.of(Isolation.SERIALIZABLE)),
                Map.entry("tictoc", Capabilities.of(Isolation.SERIALIZABLE)),
                Map.entry("mvcc", Capabilities.of(Isolation.SERIALIZABLE, Feature.SNAPSHOT_READS)),
                Map.entry("maat", Capabilities.of(Isolation.SERIALIZABLE)),
                Map.entry("tictoc-si", Capabilities.of(Isolation.SNAPSHOT_ISOLATION)),
                Map.entry("tictoc-rr", Capabilities.of(Isolation.REPEATABLE_READ)),
                Map.entry("global-lock", Capabilities.of(Isolation.SERIALIZABLE, Feature.OPACITY)),
                Map.entry("tebaldi", Capabilities.of(Isolation.SERIALIZABLE)),
                Map.entry("tebaldi-2layer", Capabilities.of(Isolation.SERIALIZABLE)));
        expected.forEach((name, caps) -> {
            assertEquals(caps, Stm.protocolCapabilities(name), name);
            assertEquals(caps, Stm.builder().protocol(name).build().capabilities(), name);
        });
        assertEquals(List.of("2pl", "adaptive", "global-lock", "maat", "mvcc", "occ", "swisstm", "tebaldi",
                "tebaldi-2layer", "tictoc"), Protocols.correct());
        assertEquals(List.of("tictoc-rr", "tictoc-si"), Protocols.weaklyIsolated());
    }
}
