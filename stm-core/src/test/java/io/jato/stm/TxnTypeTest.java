package io.jato.stm;

import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Transaction types: interned by name, visible in the body, counted per type, kept by nested blocks. */
@Timeout(30)
class TxnTypeTest {
    private static final TxnType PAY = TxnType.of("test-pay");
    private static final TxnType AUDIT = TxnType.of("test-audit");

    private final Stm stm = Stm.create();
    private final LongItem x = new LongItem(0);

    @Test
    void typesAreInternedByName() {
        assertSame(PAY, TxnType.of("test-pay"));
        assertEquals("test-pay", PAY.name());
        assertEquals(0, TxnType.UNTYPED.id());
        assertTrue(PAY.id() > 0 && PAY.id() < TxnType.MAX_TYPES);
        assertTrue(TxnType.all().contains(PAY));
        assertThrows(IllegalArgumentException.class, () -> TxnType.of(""));
        assertThrows(IllegalArgumentException.class, () -> TxnType.of("new order"));
        assertThrows(NullPointerException.class, () -> TxnType.of(null));
    }

    @Test
    void theBodySeesItsTypeAndNestedBlocksKeepTheOuterOne() {
        List<TxnType> seen = new ArrayList<>();
        stm.run(PAY, txn -> {
            seen.add(txn.type());
            stm.run(AUDIT, inner -> seen.add(inner.type()));
        });
        stm.run(txn -> seen.add(txn.type()));
        assertEquals(List.of(PAY, PAY, TxnType.UNTYPED), seen);
        assertThrows(NullPointerException.class, () -> stm.run((TxnType) null, txn -> { }));
    }

    @Test
    void statisticsAreKeptPerType() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            stm.run(PAY, txn -> TxnContext.of(txn, stm).writeLong(x, 1));
        }
        long[] attempts = {0};
        stm.run(AUDIT, txn -> {
            if (attempts[0]++ == 0) {
                throw TxnContext.of(txn, stm).rollback(AbortCause.READ_VALIDATION);
            }
        });
        assertThrows(TxnAbortedException.class, () -> stm.readOnly(AUDIT, txn -> {
            throw txn.abort();
        }));
        // A thread that ran typed transactions and died still counts.
        Thread t = new Thread(() -> stm.run(PAY, txn -> TxnContext.of(txn, stm).writeLong(x, 2)));
        t.start();
        t.join();
        stm.run(txn -> { });

        StmStatistics pay = stm.statistics(PAY);
        assertEquals(4, pay.commits());
        assertEquals(4, pay.starts());
        StmStatistics audit = stm.statistics(AUDIT);
        assertEquals(1, audit.commits());
        assertEquals(3, audit.starts());
        assertEquals(1, audit.aborts(AbortCause.READ_VALIDATION));
        assertEquals(1, audit.aborts(AbortCause.USER_ABORT));
        assertEquals(1, stm.statistics(TxnType.UNTYPED).commits());
        Map<TxnType, StmStatistics> byType = stm.statisticsByType();
        assertEquals(List.of(TxnType.UNTYPED, PAY, AUDIT), new ArrayList<>(byType.keySet()));
        StmStatistics all = stm.statistics();
        assertEquals(all.commits(), pay.commits() + audit.commits() + 1);
        assertEquals(0, stm.statistics(TxnType.of("test-never-ran")).starts());
    }
}
