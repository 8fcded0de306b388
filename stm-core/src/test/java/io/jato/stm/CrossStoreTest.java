package io.jato.stm;

import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transaction of one store started inside a transaction of another on the same thread is refused:
 * before, the inner one committed on its own, once per attempt of the outer one, and stayed
 * committed when the outer one rolled back. Nothing of either is committed, the outer one sees the
 * refusal as an exception from its body, and both stores stay usable.
 */
@Timeout(30)
class CrossStoreTest {
    private final Stm a = Stm.builder().name("A").build();
    private final Stm b = Stm.builder().name("B").build();
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    private static void write(Txn txn, Stm stm, LongItem item, long v) {
        TxnContext.of(txn, stm).writeLong(item, v);
    }

    /** The three ways to start a transaction on {@code b}, each given a body that writes y. */
    private List<BiConsumer<Stm, AtomicInteger>> entryPoints() {
        return List.of(
                (s, runs) -> s.run(t -> {
                    runs.incrementAndGet();
                    write(t, s, y, 1);
                }),
                (s, runs) -> s.atomic(t -> {
                    runs.incrementAndGet();
                    write(t, s, y, 1);
                    return null;
                }),
                (s, runs) -> s.readOnly(t -> {
                    runs.incrementAndGet();
                    return null;
                }));
    }

    @Test
    void aTransactionOfAnotherStoreInsideOneIsRefusedAndNothingCommits() {
        for (BiConsumer<Stm, AtomicInteger> inner : entryPoints()) {
            AtomicInteger innerRuns = new AtomicInteger();
            AtomicInteger outerRuns = new AtomicInteger();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> a.run(t -> {
                outerRuns.incrementAndGet();
                write(t, a, x, 1);
                inner.accept(b, innerRuns);
            }));
            assertTrue(e.getMessage().contains("store 'B'") && e.getMessage().contains("store 'A'"), e.getMessage());
            assertEquals(0, innerRuns.get(), "the inner body never ran");
            assertEquals(1, outerRuns.get(), "the refusal is the outer body's exception: not retried");
            assertEquals(0, a.concurrencyControl().loadLong(x));
            assertEquals(0, b.concurrencyControl().loadLong(y));
            assertTrue(!a.inTransaction() && !b.inTransaction());
        }
        assertEquals(0, b.statistics().starts(), "store B never started a transaction");
        assertEquals(3, a.statistics().aborts(AbortCause.USER_EXCEPTION));
        // Both stores work afterwards, one after the other on this thread.
        a.run(t -> write(t, a, x, 2));
        b.run(t -> write(t, b, y, 3));
        assertEquals(2, a.concurrencyControl().loadLong(x));
        assertEquals(3, b.concurrencyControl().loadLong(y));
    }

    @Test
    void nestingInTheSameStoreStillJoins() {
        a.run(t -> {
            write(t, a, x, 4);
            a.run(inner -> write(inner, a, y, 5));
        });
        assertEquals(4, a.concurrencyControl().loadLong(x));
        assertEquals(5, a.concurrencyControl().loadLong(y));
        assertEquals(1, a.statistics().commits());
    }

    @Test
    void aCaughtRefusalLeavesTheOuterTransactionToCommit() {
        a.run(t -> {
            write(t, a, x, 6);
            try {
                b.run(inner -> write(inner, b, y, 7));
            } catch (IllegalStateException expected) {
                // The application decided to go on without the other store.
            }
        });
        assertEquals(6, a.concurrencyControl().loadLong(x));
        assertEquals(0, b.concurrencyControl().loadLong(y));
    }
}
