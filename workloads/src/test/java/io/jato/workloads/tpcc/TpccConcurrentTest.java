package io.jato.workloads.tpcc;

import io.jato.stm.Stm;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two threads run the standard mix for about 0.6 s (on one warehouse, or homed at one each of
 * two, which adds remote order lines and payments); then every consistency condition must hold,
 * every record and map must be quiescent, and the row counts must match what the workers
 * committed. Finally deliveries drain the NEW-ORDER table, and one more delivers nothing.
 */
class TpccConcurrentTest {
    private static final long RUN_NANOS = 600_000_000L;
    private static final int THREADS = 2;
    private static final int MIN_TRANSACTIONS = 400;

    @ParameterizedTest(name = "{0} {1} {2} warehouse(s), {3} order ids")
    @CsvSource({"occ, BASE, 1, STRICT", "occ, CU_TS, 1, STRICT", "occ, CU_TS, 1, FAST", "occ, CU, 2, STRICT",
            "occ, TS, 2, FAST", "global-lock, BASE, 1, STRICT", "global-lock, CU_TS, 1, FAST",
            "tictoc, BASE, 1, FAST", "tictoc, CU_TS, 1, STRICT", "tictoc, CU, 2, FAST"})
    void theStandardMixKeepsTheDatabaseConsistent(String protocol, TpccMode mode, int warehouses,
                                                  TpccOrderIds.Policy orderIds) throws InterruptedException {
        TpccDatabase db = new TpccDatabase(Stm.builder().protocol(protocol).build(), warehouses, mode.layout(), 99,
                orderIds);
        db.load(new ThreadsLoader(2), System.currentTimeMillis());
        int orders = db.order.single().size();
        int newOrders = db.newOrder.single().size();
        int history = db.history.single().size();

        long[][] committed = new long[THREADS][TpccMix.Type.values().length];
        long[] rolledBack = new long[THREADS];
        long[] delivered = new long[THREADS];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[THREADS];
        long end = System.nanoTime() + RUN_NANOS;
        for (int t = 0; t < THREADS; t++) {
            int index = t;
            threads[t] = new Thread(() -> {
                try {
                    TpccTransactions tx = new TpccTransactions(db, mode, index, index % warehouses + 1,
                            1000 + index);
                    // At least MIN_TRANSACTIONS, so that even a slow machine runs every type.
                    for (long done = 0; System.nanoTime() < end || done < MIN_TRANSACTIONS; done++) {
                        TpccMix.Type type = tx.nextType();
                        if (tx.run(type)) {
                            committed[index][type.ordinal()]++;
                            if (type == TpccMix.Type.DELIVERY) {
                                delivered[index] += tx.deliveredDistricts;
                            }
                        } else {
                            rolledBack[index]++;
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "tpcc-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a worker failed", failure.get());
        }

        long[] byType = new long[TpccMix.Type.values().length];
        long rollbacks = 0;
        long deliveries = 0;
        for (int t = 0; t < THREADS; t++) {
            for (int k = 0; k < byType.length; k++) {
                byType[k] += committed[t][k];
            }
            rollbacks += rolledBack[t];
            deliveries += delivered[t];
        }
        for (TpccMix.Type type : TpccMix.Type.values()) {
            assertTrue(byType[type.ordinal()] > 0, "no " + type + " committed");
        }
        assertNull(db.checkQuiescent());
        assertEquals(List.of(), TpccConsistency.check(db));
        long newOrderCommits = byType[TpccMix.Type.NEW_ORDER.ordinal()];
        assertEquals(orders + newOrderCommits, db.order.single().size());
        assertEquals(newOrders + newOrderCommits - deliveries, db.newOrder.single().size());
        assertEquals(history + byType[TpccMix.Type.PAYMENT.ordinal()], db.history.single().size());
        assertTrue(rollbacks < newOrderCommits / 20 + 5, rollbacks + " rollbacks for " + newOrderCommits + " new-orders");
        if (warehouses > 1) {
            long[] remote = {0, 0};
            db.history.single().forEach((k, h) -> {
                History.Image hi = h.single().get();
                remote[0] += hi.customerWarehouseId() != hi.warehouseId() ? 1 : 0;
            });
            db.stock.single().forEach((k, s) -> remote[1] += s.single().get().remoteCount());
            assertTrue(remote[0] > 0 && remote[1] > 0, "remote payments " + remote[0] + ", remote stock orders " + remote[1]);
        }

        TpccTransactions drain = new TpccTransactions(db, mode, THREADS, 1, 7);
        int rounds = 0;
        do {
            drain.drawDelivery();
            drain.executeDelivery();
            assertTrue(++rounds <= TpccDatabase.ORDERS_PER_DISTRICT + newOrderCommits, "deliveries do not drain");
        } while (drain.deliveredDistricts > 0);
        for (int d = 1; d <= TpccDatabase.DISTRICTS_PER_WAREHOUSE; d++) {
            long first = TpccKeys.firstOrderOf(1, d);
            db.newOrder.single().scan(first, true, TpccKeys.lastOrderOf(1, d), true, 1, false, (k, o) -> {
                throw new AssertionError("NEW-ORDER row " + k + " left after a delivery that delivered nothing");
            });
        }
        assertEquals(List.of(), TpccConsistency.check(db));
    }
}
