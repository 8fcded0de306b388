package io.jato.protocols.suite;

import io.jato.collections.LongUpdater;
import io.jato.collections.TxCounter;
import io.jato.collections.TxHashMap;
import io.jato.collections.ValueUpdater;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Commit-time updates of counters ({@link TxCounter#update}) and map values
 * ({@link TxHashMap#update}, {@link TxHashMap#merge}) under every protocol: they apply at commit
 * in program order, a later read sees them, two transactions that only update never invalidate
 * each other, and an update scheduled for a key that is deleted meanwhile retries.
 */
@Timeout(120)
class CommitTimeUpdateContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    private static final LongUpdater TIMES_TEN = v -> v * 10;

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void counterUpdatersApplyInProgramOrderAndReadsSeeThem(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter c = new TxCounter(stm, 1);
        stm.run(t -> {
            c.add(t, 2);          // 3
            c.update(t, TIMES_TEN); // 30
            c.add(t, 4);          // 34
        });
        assertEquals(34, c.single().get());
        List<Long> seen = stm.atomic(t -> {
            c.update(t, TIMES_TEN);
            long first = c.get(t);  // 340: applied on read
            c.update(t, v -> v + 1); // applied at once now
            c.add(t, 1);
            return List.of(first, c.get(t));
        });
        assertEquals(List.of(340L, 342L), seen);
        assertEquals(342, c.single().get());
        c.single().update(v -> -v);
        assertEquals(-342, c.single().get());
        Quiescence.assertQuiescent(c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void counterUpdatersOfConcurrentTransactionsBothApply(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter c = new TxCounter(stm, 0);
        AtomicInteger t1Attempts = new AtomicInteger();
        Interleaving il = new Interleaving();
        il.thread("T1", () -> stm.run(t -> {
            c.update(t, v -> v * 10 + 1);
            if (t1Attempts.getAndIncrement() == 0) {
                il.signal("T1 scheduled");
                il.await("T2 committed");
            }
        }));
        il.thread("T2", () -> {
            il.await("T1 scheduled");
            stm.run(t -> c.update(t, v -> v * 10 + 2));
            il.signal("T2 committed");
        });
        il.run();
        long v = c.single().get();
        if (il.followedSchedule()) {
            assertEquals(21, v, "updaters apply in commit order");
            assertEquals(1, t1Attempts.get(), "a blind update takes no read dependency");
        } else {
            assertTrue(v == 12 || v == 21, () -> "not a serial result: " + v);
        }
        Quiescence.assertQuiescent(c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void mapUpdateAndMergeApplyAtCommit(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, String> m = new TxHashMap<>(stm);
        m.single().put("a", "x");
        ValueUpdater<String> appendY = s -> s + "y";
        stm.run(t -> {
            assertTrue(m.update(t, "a", appendY));
            assertFalse(m.update(t, "missing", appendY));
            m.merge(t, "b", "new", appendY);
            m.merge(t, "a", "unused", appendY);
        });
        assertEquals("xyy", m.single().get("a"));
        assertEquals("new", m.single().get("b"));
        assertNull(m.single().get("missing"));
        String read = stm.atomic(t -> {
            m.update(t, "a", appendY);
            String v = m.get(t, "a");        // applied on read
            m.update(t, "a", s -> s + "z"); // applied at once
            return v + "/" + m.get(t, "a");
        });
        assertEquals("xyyy/xyyyz", read);
        stm.run(t -> {
            m.put(t, "c", "p");
            m.update(t, "c", appendY);       // own insert: applied to the pending value
            m.remove(t, "b");
            assertFalse(m.update(t, "b", appendY), "deleted by this transaction");
        });
        assertEquals("py", m.single().get("c"));
        assertNull(m.single().get("b"));
        Quiescence.assertQuiescent(m);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void updateOfAKeyDeletedConcurrentlyRetriesAndSeesAbsence(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, Integer> m = new TxHashMap<>(stm);
        m.single().put("k", 1);
        AtomicInteger attempts = new AtomicInteger();
        List<Boolean> results = new java.util.concurrent.CopyOnWriteArrayList<>();
        Interleaving il = new Interleaving();
        il.thread("T1", () -> stm.run(t -> {
            results.add(m.update(t, "k", v -> v + 1));
            if (attempts.getAndIncrement() == 0) {
                il.signal("T1 scheduled");
                il.await("T2 committed");
            }
        }));
        il.thread("T2", () -> {
            il.await("T1 scheduled");
            stm.run(t -> m.remove(t, "k"));
            il.signal("T2 committed");
        });
        il.run();
        assertNull(m.single().get("k"), "the update must not resurrect a deleted key");
        if (il.followedSchedule()) {
            assertEquals(List.of(true, false), results);
        }
        Quiescence.assertQuiescent(m);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void concurrentMapUpdatersLoseNothing(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxHashMap<Integer, Long> m = new TxHashMap<>(stm);
        for (int k = 0; k < 4; k++) {
            m.single().put(k, 0L);
        }
        int threads = 2;
        int perThread = 2_000 * Protocols.scale();
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            int seed = i;
            ts[i] = new Thread(() -> {
                for (int n = 0; n < perThread; n++) {
                    int k = (n + seed) & 3;
                    stm.run(t -> {
                        m.update(t, k, v -> v + 1);
                        m.merge(t, (k + 1) & 3, 0L, v -> v + 1);
                    });
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        long sum = 0;
        for (int k = 0; k < 4; k++) {
            sum += m.single().get(k);
        }
        assertEquals(2L * threads * perThread, sum);
        Quiescence.assertQuiescent(m);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void anUpdaterThatFailsAtCommitLeavesNothingWritten(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, String> m = new TxHashMap<>(stm);
        TxCounter c = new TxCounter(stm, 5);
        m.single().put("a", "x");
        assertThrows(NullPointerException.class, () -> stm.run(t -> {
            c.add(t, 1);
            m.put(t, "b", "y");
            m.update(t, "a", s -> null);
        }));
        assertEquals(5, c.single().get());
        assertNull(m.single().get("b"));
        assertEquals("x", m.single().get("a"));
        Quiescence.assertQuiescent(m, c);
    }
}
