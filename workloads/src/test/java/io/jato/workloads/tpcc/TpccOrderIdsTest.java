package io.jato.workloads.tpcc;

import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fast order-id policy: per-district counters, and the exact forms of consistency conditions
 * 2 and 3 that account for every id taken, checked against seeded violations.
 */
class TpccOrderIdsTest {
    private static final long NOW = 1_700_000_000_000L;
    private static TpccDatabase db;

    @BeforeAll
    static void load() {
        db = new TpccDatabase(Stm.create(), 1, RecordLayout.COARSE, 5, TpccOrderIds.Policy.FAST);
        db.load(new ThreadsLoader(2), NOW);
    }

    @Test
    void countersStartAfterTheLoadedOrdersAndAreIndependentPerDistrict() {
        TpccOrderIds ids = new TpccOrderIds(TpccOrderIds.Policy.FAST, 2);
        assertEquals(3001, ids.take(1, 1));
        assertEquals(3002, ids.take(1, 1));
        assertEquals(3001, ids.take(2, 10));
        assertEquals(3003, ids.next(1, 1));
        assertEquals(3001, ids.next(1, 2));
        ids.abandon(1, 1, 3002);
        ids.abandon(1, 1, 3001);
        assertArrayEquals(new long[] {3001, 3002}, ids.abandoned(1, 1));
        assertArrayEquals(new long[0], ids.abandoned(1, 2));
        assertTrue(ids.fast());
        assertFalse(new TpccOrderIds(TpccOrderIds.Policy.STRICT, 1).fast());
    }

    @Test
    void rolledBackAndCommittedNewOrdersKeepTheCheckExact() {
        TpccTransactions tx = new TpccTransactions(db, TpccMode.BASE, 0, 1, 77);
        int committed = 0;
        int rolledBack = 0;
        while (committed < 50 || rolledBack < 2) {
            tx.drawNewOrder();
            if (tx.executeNewOrder()) {
                committed++;
            } else {
                rolledBack++;
            }
        }
        assertEquals(List.of(), TpccConsistency.check(db));
        long abandoned = 0;
        long taken = 0;
        for (int d = 1; d <= TpccDatabase.DISTRICTS_PER_WAREHOUSE; d++) {
            abandoned += db.orderIds.abandoned(1, d).length;
            taken += db.orderIds.next(1, d) - TpccDatabase.ORDERS_PER_DISTRICT - 1;
            // D_NEXT_O_ID is not advanced under the fast policy.
            assertEquals(TpccDatabase.ORDERS_PER_DISTRICT + 1,
                    db.district.single().get(TpccKeys.district(1, d)).single().get().nextOrderId());
        }
        assertEquals(rolledBack, abandoned);
        assertEquals(committed + rolledBack, taken);
    }

    @Test
    void theCheckerNamesSeededViolationsOfTheFastForms() {
        TpccDatabase fresh = new TpccDatabase(Stm.create(), 1, RecordLayout.COARSE, 5, TpccOrderIds.Policy.FAST);
        fresh.load(new ThreadsLoader(2), NOW);
        assertEquals(List.of(), TpccConsistency.check(fresh));

        // District 2: an id taken and neither committed nor reported rolled back.
        fresh.orderIds.take(1, 2);
        // District 4: an id reported rolled back that has an ORDER row.
        fresh.orderIds.abandon(1, 4, 2000);
        // District 6: an undelivered order in the middle of NEW-ORDER lost its row (also breaks 5).
        fresh.newOrder.single().remove(TpccKeys.order(1, 6, 2500));
        // District 8: a rolled-back id between NEW-ORDER rows is fine.
        long gap = fresh.orderIds.take(1, 8);
        fresh.orderIds.abandon(1, 8, gap);

        List<TpccConsistency.Violation> v = TpccConsistency.check(fresh);
        assertEquals(List.of("2 1 2", "2 1 4", "3 1 6", "5 1 6"),
                v.stream().map(x -> x.condition() + " " + x.warehouse() + " " + x.district()).toList(), v.toString());
        assertTrue(v.get(0).detail().startsWith("order id 3001: taken below the next order id 3002"), v.get(0).detail());
        assertTrue(v.get(1).detail().startsWith("order id 2000: has an ORDER row"), v.get(1).detail());
        assertTrue(v.get(2).detail().startsWith("order id 2500: between min(NO_O_ID)"), v.get(2).detail());
    }

    @Test
    void theStrictPolicyStillChecksConditionsTwoAndThreeAsWritten() {
        TpccDatabase strict = new TpccDatabase(Stm.create(), 1, RecordLayout.COARSE, 5);
        strict.load(new ThreadsLoader(2), NOW);
        // Taking a fast id means nothing to the strict check: D_NEXT_O_ID is the source.
        strict.orderIds.take(1, 3);
        assertEquals(List.of(), TpccConsistency.check(strict));
        strict.newOrder.single().remove(TpccKeys.order(1, 3, 2500));
        List<TpccConsistency.Violation> v = TpccConsistency.check(strict);
        assertEquals(List.of("3 1 3", "5 1 3"),
                v.stream().map(x -> x.condition() + " " + x.warehouse() + " " + x.district()).toList(), v.toString());
    }
}
