package io.jato.stm;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BuilderTest {
    @Test
    void unknownProtocolListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().protocol("nope").build());
        assertTrue(e.getMessage().contains("'nope'"), e.getMessage());
        assertTrue(e.getMessage().contains("occ"), e.getMessage());
        assertTrue(Stm.availableProtocols().contains("occ"));
    }

    @Test
    void invalidOptionsNameTheOption() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Stm.builder().backoff(10, 5))
                .getMessage().contains("backoff"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Stm.builder().maxAttempts(0))
                .getMessage().contains("maxAttempts"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Stm.builder().lockSpinLimit(0))
                .getMessage().contains("lockSpinLimit"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Stm.builder().readSpinLimit(-1))
                .getMessage().contains("readSpinLimit"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Stm.builder().epochMillis(0))
                .getMessage().contains("epochMillis"));
        assertThrows(NullPointerException.class, () -> Stm.builder().protocol(null));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().timeout(-1, java.util.concurrent.TimeUnit.SECONDS)).getMessage().contains("timeout"));
        assertThrows(NullPointerException.class, () -> Stm.builder().timeout(1, null));
        Stm stm = Stm.create();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> stm.run(
                txn -> txn.timeout(-5, java.util.concurrent.TimeUnit.MILLISECONDS))).getMessage().contains("-5"));
    }

    @Test
    void anOpaqueStoreDeclaresOpacityBesideWhatItsProtocolDeclares() {
        Capabilities c = Stm.builder().opacity(true).build().capabilities();
        assertEquals(Capabilities.Isolation.SERIALIZABLE, c.isolation());
        assertEquals(java.util.Set.of(Capabilities.Feature.OPACITY), c.features());
        assertTrue(Stm.builder().opacity(false).build().capabilities().features().isEmpty());
    }

    @Test
    void storesAreIndependent() {
        Stm a = Stm.builder().name("a").build();
        Stm b = Stm.builder().name("b").build();
        assertNotSame(a.concurrencyControl(), b.concurrencyControl());
        assertEquals("occ", a.protocol());
        assertEquals("a", a.name());
        assertTrue(a.toString().contains("occ"));
    }

    @Test
    void theDefaultProtocolDeclaresWhatItGuarantees() {
        Capabilities c = Stm.create().capabilities();
        assertEquals(Capabilities.Isolation.SERIALIZABLE, c.isolation());
        assertTrue(c.serializable());
        assertTrue(c.features().isEmpty(), "OCC reads are not opaque; nothing else is offered: " + c);
        assertEquals(c, Stm.protocolCapabilities("occ"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Stm.protocolCapabilities("nope"))
                .getMessage().contains("'nope'"));
    }

    @Test
    void protocolOptionsAreDeclaredCheckedAndNamed() {
        assertEquals(java.util.List.of("heldLockSpins"), new java.util.ArrayList<>(Stm.protocolOptions("occ").keySet()));
        assertTrue(Stm.protocolOptions("occ").get("heldLockSpins").startsWith("128: "), Stm.protocolOptions("occ")::toString);
        Stm.builder().option("heldLockSpins", 16).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().option("heldLockSpin", 16).build());
        assertTrue(e.getMessage().contains("'heldLockSpin'") && e.getMessage().contains("heldLockSpins")
                && e.getMessage().contains("'occ'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Stm.builder().option("heldLockSpins", "many").build());
        assertTrue(e.getMessage().contains("'heldLockSpins'") && e.getMessage().contains("many"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Stm.builder().option("heldLockSpins", 0).build());
        assertTrue(e.getMessage().contains("'heldLockSpins'"), e.getMessage());
        assertThrows(NullPointerException.class, () -> Stm.builder().option(null, 1));
        assertThrows(NullPointerException.class, () -> Stm.builder().option("heldLockSpins", null));
    }
}
