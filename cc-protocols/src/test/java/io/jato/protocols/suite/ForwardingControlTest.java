package io.jato.protocols.suite;

import io.jato.protocols.suite.faulty.FaultyControl;
import io.jato.protocols.suite.faulty.FaultyProtocol;
import io.jato.stm.spi.ConcurrencyControl;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The test protocols built on {@link ForwardingControl} (the fault-injecting, broken and probing
 * ones) must behave exactly like the protocol they wrap apart from their overrides. A method of
 * {@link ConcurrencyControl} that it inherited instead of forwarding would answer the SPI's
 * default: {@code ordersByTimestamp} did, so in a store mixing protocols a wrapped TicToc was
 * treated as a commit-point protocol and never given the spanning commit's agreed timestamp.
 */
class ForwardingControlTest {

    /** Every overridable method but {@code name} (each test protocol names itself) is forwarded. */
    @Test
    void everyOverridableMethodIsForwarded() {
        List<String> inherited = Arrays.stream(ConcurrencyControl.class.getDeclaredMethods())
                .filter(m -> isOverridable(m) && !m.getName().equals("name") && !isForwarded(m))
                .map(Method::getName)
                .collect(Collectors.toList());
        assertEquals(List.of(), inherited, "methods ForwardingControl inherits instead of forwarding");
    }

    private static boolean isOverridable(Method m) {
        int mod = m.getModifiers();
        return !Modifier.isStatic(mod) && !Modifier.isFinal(mod) && !Modifier.isPrivate(mod) && !m.isSynthetic();
    }

    private static boolean isForwarded(Method m) {
        try {
            ForwardingControl.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** The wrapper declares the wrapped protocol's ordering, which a store mixing protocols asks of it. */
    @Test
    void aWrappedProtocolOrdersTransactionsAsTheProtocolItWraps() {
        for (String p : Protocols.correct()) {
            FaultyControl c = FaultyProtocol.control(FaultyProtocol.store(p));
            assertEquals(c.inner().ordersByTimestamp(), c.ordersByTimestamp(), p);
            assertEquals(c.inner().validatesEveryRead(), c.validatesEveryRead(), p);
        }
    }
}
