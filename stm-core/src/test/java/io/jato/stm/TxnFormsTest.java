package io.jato.stm;

import io.jato.stm.spi.LongItem;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The primitive, void read-only and checked-exception transaction forms of {@link Stm}. */
class TxnFormsTest {
    private final Stm stm = Stm.create();
    private final LongItem x = new LongItem(5);

    private long read(Txn t) {
        return LongCells.read(stm, t, x);
    }

    private void write(Txn t, long v) {
        LongCells.write(stm, t, x, v);
    }

    @Test
    void atomicLongReturnsItsResultThroughRetriesNestingAndHooks() {
        long[] fromHook = {0};
        long r = stm.atomicLong(txn -> {
            long v = read(txn);
            if (txn.attempt() == 0) {
                CompletableFuture.runAsync(() -> stm.run(t -> write(t, 10))).join();   // forces a retry
            }
            long inner = stm.atomicLong(nested -> read(nested) * 2);                 // joins, same adapter
            txn.afterCommit(() -> fromHook[0] = stm.atomicLong(t -> read(t) + 1000)); // a new transaction
            write(txn, v + 1);
            return v + inner;
        });
        assertEquals(10 + 20, r, "the outer result survives the nested call and the hook's transaction");
        assertEquals(1011, fromHook[0]);
        assertEquals(11, stm.readOnlyLong(this::read));
        assertThrows(IllegalStateException.class, () -> stm.readOnlyLong(txn -> {
            write(txn, 1);
            return 0;
        }));
        assertThrows(NullPointerException.class, () -> stm.atomicLong(null));
    }

    @Test
    void runReadOnlyRefusesWrites() {
        long[] seen = {0};
        stm.runReadOnly(txn -> seen[0] = read(txn));
        assertEquals(5, seen[0]);
        assertThrows(IllegalStateException.class, () -> stm.runReadOnly(txn -> write(txn, 1)));
        assertEquals(5, stm.atomicLong(this::read), "the refused write changed nothing");
    }

    @Test
    void callRethrowsTheBodysCheckedExceptionUnchangedAfterRollingBack() {
        IOException failure = new IOException("disk full");
        IOException thrown = assertThrows(IOException.class, () -> stm.call(txn -> {
            write(txn, 99);
            throw failure;
        }));
        assertSame(failure, thrown);
        assertEquals(5, stm.atomicLong(this::read), "rolled back");
        assertEquals(StmStatistics.class, stm.statistics().getClass());
        String r = assertDoesNotThrowChecked();
        assertEquals("5", r);
        assertNull(stm.callReadOnly(txn -> null));
        assertThrows(IllegalStateException.class, () -> stm.callReadOnly(txn -> {
            write(txn, 1);
            return null;
        }));
        assertTrue(stm.statistics().aborts(AbortCause.USER_EXCEPTION) >= 2);
    }

    /** A body that throws nothing checked needs no try/catch: X is inferred as RuntimeException. */
    private String assertDoesNotThrowChecked() {
        return stm.call(txn -> Long.toString(read(txn)));
    }
}
