package io.jato.workloads.none;

import io.jato.collections.TxCounter;
import io.jato.collections.TxHashMap;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code none} baseline: transactions keep their semantics on one thread; a second thread is refused. */
class NoneProtocolTest {
    @Test
    void isRegisteredAndKeepsTransactionSemanticsOnOneThread() {
        assertTrue(Stm.availableProtocols().contains(NoneProtocol.NAME));
        Stm stm = Stm.builder().protocol(NoneProtocol.NAME).build();
        TxHashMap<String, Integer> m = new TxHashMap<>(stm);
        TxCounter c = new TxCounter(stm);
        stm.run(t -> {
            m.put(t, "a", 1);
            c.add(t, 2);
            assertEquals(1, m.get(t, "a"), "read-your-own-writes");
        });
        assertThrows(IllegalStateException.class, () -> stm.run(t -> {
            m.put(t, "b", 2);
            throw new IllegalStateException("user failure");
        }));
        assertNull(m.single().get("b"), "a failed transaction's buffered write is discarded");
        assertEquals(2, c.single().get());
    }

    @Test
    void aSecondThreadIsRefused() throws Exception {
        Stm stm = Stm.builder().protocol(NoneProtocol.NAME).build();
        TxCounter c = new TxCounter(stm);
        stm.run(t -> c.add(t, 1));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                stm.run(t -> c.add(t, 1));
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "second");
        other.start();
        other.join();
        assertInstanceOf(IllegalStateException.class, failure.get());
        assertTrue(failure.get().getMessage().contains("one thread"), failure.get().getMessage());
        assertEquals(1, c.single().get());
    }
}
