package io.jato.stm.spi;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The control of a store mixing protocols must send every hook to the protocol of the entry's
 * item. A hook it inherited instead would run {@link ConcurrencyControl}'s default for every
 * protocol — an install in place for a protocol that keeps versions elsewhere, a missing
 * {@code finish} — so a hook added to the SPI without a dispatching override fails here.
 */
class MixedControlTest {

    @Test
    void everyOverridableHookIsDispatched() throws NoSuchMethodException {
        List<String> inherited = new ArrayList<>();
        for (Method m : ConcurrencyControl.class.getDeclaredMethods()) {
            int mod = m.getModifiers();
            if (Modifier.isStatic(mod) || Modifier.isFinal(mod) || Modifier.isPrivate(m.getModifiers())
                    || m.isSynthetic()) {
                continue;
            }
            try {
                MixedControl.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
            } catch (NoSuchMethodException e) {
                inherited.add(m.getName());
            }
        }
        assertEquals(List.of(), inherited, "hooks MixedControl inherits instead of dispatching");
    }
}
