package io.jato.protocols.suite;

import io.jato.stm.StmStatistics;

import io.jato.stm.AbortCause;

import io.jato.collections.LongUpdater;
import io.jato.collections.TxCounter;
import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongHashMap;
import io.jato.collections.ValueUpdater;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Commit-time updates of counters ({@link TxCounter#update}) and map values
 * ({@link TxHashMap#update}, {@link TxHashMap#merge} and the same on {@link TxLongHashMap}) under
 * every protocol: they apply at commit
 * in program order, a later read sees them, two transactions that only update never invalidate
 * each other, and an update scheduled for a key that is deleted meanwhile retries.
 */
@Timeout(120)
class CommitTimeUpdateContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    private static final LongUpdater TIMES_TEN = v -> v * 10;
    private static final String PROTOCOLS_AND_MAPS = "protocolsAndMaps";
    private static final String[] KEYS = {"k0", "k1", "k2", "k3"};
    private static final List<String> MAP_KINDS = List.of("TxHashMap", "TxLongHashMap");

    /** @return every (protocol, hash map kind) pair */
    static Stream<Arguments> protocolsAndMaps() {
        return Protocols.all().flatMap(p -> MAP_KINDS.stream().map(k -> Arguments.of(p, k)));
    }

    /** The hash maps' update API behind {@code String} keys (a long-key map gets a fixed long per key). */
    private interface UpdatableMap<V> extends Quiescence.Quiescent {
        boolean update(Txn txn, String key, ValueUpdater<V> updater);

        void merge(Txn txn, String key, V value, ValueUpdater<V> updater);

        V get(Txn txn, String key);

        V put(Txn txn, String key, V value);

        V remove(Txn txn, String key);

        V singleGet(String key);

        V singlePut(String key, V value);
    }

    private static <V> UpdatableMap<V> map(String kind, Stm stm) {
        if (kind.equals("TxHashMap")) {
            TxHashMap<String, V> m = new TxHashMap<>(stm);
            return new UpdatableMap<V>() {
                @Override
                public boolean update(Txn txn, String key, ValueUpdater<V> updater) {
                    return m.update(txn, key, updater);
                }

                @Override
                public void merge(Txn txn, String key, V value, ValueUpdater<V> updater) {
                    m.merge(txn, key, value, updater);
                }

                @Override
                public V get(Txn txn, String key) {
                    return m.get(txn, key);
                }

                @Override
                public V put(Txn txn, String key, V value) {
                    return m.put(txn, key, value);
                }

                @Override
                public V remove(Txn txn, String key) {
                    return m.remove(txn, key);
                }

                @Override
                public V singleGet(String key) {
                    return m.single().get(key);
                }

                @Override
                public V singlePut(String key, V value) {
                    return m.single().put(key, value);
                }

                @Override
                public String checkQuiescent() {
                    return m.checkQuiescent();
                }
            };
        }
        if (!kind.equals("TxLongHashMap")) {
            throw new IllegalArgumentException("unknown map kind " + kind);
        }
        TxLongHashMap<V> m = new TxLongHashMap<>(stm, 0);
        return new UpdatableMap<V>() {
            @Override
            public boolean update(Txn txn, String key, ValueUpdater<V> updater) {
                return m.update(txn, longKey(key), updater);
            }

            @Override
            public void merge(Txn txn, String key, V value, ValueUpdater<V> updater) {
                m.merge(txn, longKey(key), value, updater);
            }

            @Override
            public V get(Txn txn, String key) {
                return m.get(txn, longKey(key));
            }

            @Override
            public V put(Txn txn, String key, V value) {
                return m.put(txn, longKey(key), value);
            }

            @Override
            public V remove(Txn txn, String key) {
                return m.remove(txn, longKey(key));
            }

            @Override
            public V singleGet(String key) {
                return m.single().get(longKey(key));
            }

            @Override
            public V singlePut(String key, V value) {
                return m.single().put(longKey(key), value);
            }

            @Override
            public String checkQuiescent() {
                return m.checkQuiescent();
            }
        };
    }

    /** Distinct for the scenarios' short keys; high bits set, like packed composite keys. */
    private static long longKey(String key) {
        return (long) key.hashCode() << 32 | key.length();
    }

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

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(PROTOCOLS_AND_MAPS)
    void mapUpdateAndMergeApplyAtCommit(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        UpdatableMap<String> m = map(kind, stm);
        m.singlePut("a", "x");
        ValueUpdater<String> appendY = s -> s + "y";
        stm.run(t -> {
            assertTrue(m.update(t, "a", appendY));
            assertFalse(m.update(t, "missing", appendY));
            m.merge(t, "b", "new", appendY);
            m.merge(t, "a", "unused", appendY);
        });
        assertEquals("xyy", m.singleGet("a"));
        assertEquals("new", m.singleGet("b"));
        assertNull(m.singleGet("missing"));
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
        assertEquals("py", m.singleGet("c"));
        assertNull(m.singleGet("b"));
        Quiescence.assertQuiescent(m);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(PROTOCOLS_AND_MAPS)
    void updateOfAKeyDeletedConcurrentlyRetriesAndSeesAbsence(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        UpdatableMap<Integer> m = map(kind, stm);
        m.singlePut("k", 1);
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
        assertNull(m.singleGet("k"), "the update must not resurrect a deleted key");
        if (il.followedSchedule()) {
            assertEquals(List.of(true, false), results);
        }
        Quiescence.assertQuiescent(m);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(PROTOCOLS_AND_MAPS)
    void concurrentMapUpdatersLoseNothing(String protocol, String kind) throws Exception {
        Stm stm = Protocols.store(protocol);
        UpdatableMap<Long> m = map(kind, stm);
        for (int k = 0; k < 4; k++) {
            m.singlePut(KEYS[k], 0L);
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
                        m.update(t, KEYS[k], v -> v + 1);
                        m.merge(t, KEYS[(k + 1) & 3], 0L, v -> v + 1);
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
            sum += m.singleGet(KEYS[k]);
        }
        assertEquals(2L * threads * perThread, sum);
        Quiescence.assertQuiescent(m);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(PROTOCOLS_AND_MAPS)
    void anUpdaterThatFailsAtCommitLeavesNothingWritten(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        UpdatableMap<String> m = map(kind, stm);
        TxCounter c = new TxCounter(stm, 5);
        m.singlePut("a", "x");
        assertThrows(NullPointerException.class, () -> stm.run(t -> {
            c.add(t, 1);
            m.put(t, "b", "y");
            m.update(t, "a", s -> null);
        }));
        assertEquals(5, c.single().get());
        assertNull(m.singleGet("b"));
        assertEquals("x", m.singleGet("a"));
        Quiescence.assertQuiescent(m, c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anUpdaterThatCallsItsOwnObjectsSingleViewThrowsInsteadOfWaitingForever(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter c = new TxCounter(stm, 5);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> stm.run(t -> c.update(t, v -> v + c.single().get())));
        assertTrue(e.getMessage().contains("commit-time updater"), e.getMessage());
        StmStatistics st = stm.statistics();
        assertEquals(st.starts(), st.commits() + st.aborts(), st::toString);
        assertEquals(1, st.aborts(AbortCause.USER_EXCEPTION), st::toString);
        assertEquals(5, c.single().get());
        Quiescence.assertQuiescent(c);
        stm.run(t -> c.add(t, 1));
        assertEquals(6, c.single().get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void anUpdaterThatStartsATransactionIsToldItRunsWhileItsTransactionCommits(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter c = new TxCounter(stm, 5);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> stm.run(t -> c.update(t, v -> stm.atomic(inner -> v + 1))));
        assertTrue(e.getMessage().contains("while it commits"), e.getMessage());
        assertEquals(5, c.single().get());
        Quiescence.assertQuiescent(c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aThrowingCounterUpdaterIsCountedAndLeavesTheCountsConsistent(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter c = new TxCounter(stm, 5);
        TxCounter d = new TxCounter(stm, 0);
        assertThrows(ArithmeticException.class, () -> stm.run(t -> {
            d.add(t, 1);
            c.update(t, v -> Math.floorDiv(v, v - 5));
        }));
        StmStatistics st = stm.statistics();
        assertEquals(1, st.starts(), st::toString);
        assertEquals(1, st.aborts(AbortCause.USER_EXCEPTION), st::toString);
        assertEquals(st.starts(), st.commits() + st.aborts(), st::toString);
        assertEquals(5, c.single().get());
        assertEquals(0, d.single().get());
        Quiescence.assertQuiescent(c, d);
    }
}
