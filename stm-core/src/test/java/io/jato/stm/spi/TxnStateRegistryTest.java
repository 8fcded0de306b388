package io.jato.stm.spi;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry of live states: a state keeps its slot until it leaves, a vacant slot is reused
 * before a new one, the view grows with the registry and shows null in vacant slots.
 */
class TxnStateRegistryTest {

    @Test
    void statesKeepTheirSlotsAndVacantSlotsAreReused() {
        TxnStateRegistry r = new TxnStateRegistry();
        List<Object> view = r.view;
        Object[] states = new Object[40];
        for (int i = 0; i < states.length; i++) {
            states[i] = new Object();
            r.add(states[i]);
        }
        assertEquals(40, view.size(), "grown past the initial 16 slots");
        for (int i = 0; i < states.length; i++) {
            assertSame(states[i], view.get(i));
        }
        assertTrue(r.remove(states[3]));
        assertTrue(r.remove(states[30]));
        assertFalse(r.remove(states[3]), "not registered any more");
        assertFalse(r.remove(new Object()));
        assertNull(view.get(3));
        assertNull(view.get(30));
        assertSame(states[4], view.get(4), "nobody moved");
        Object a = new Object();
        Object b = new Object();
        Object c = new Object();
        r.add(a);
        r.add(b);
        r.add(c);
        assertSame(a, view.get(30), "the last vacated slot first");
        assertSame(b, view.get(3));
        assertSame(c, view.get(40), "then a new one");
        assertEquals(41, view.size());
        assertThrows(UnsupportedOperationException.class, () -> view.add(new Object()));
    }
}
