package io.jato.stm;

import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transaction core through the SPI, with the default protocol: lifecycle, retries, bad input. */
class StmTest {
    private final Stm stm = Stm.create();
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    private long read(Txn t, LongItem item) {
        return TxnContext.of(t, stm).readLong(item);
    }

    private void write(Txn t, LongItem item, long v) {
        TxnContext.of(t, stm).writeLong(item, v);
    }

    private long committed(LongItem item) {
        return stm.concurrencyControl().loadLong(item);
    }

    private void assertQuiescent(LongItem... items) {
        for (LongItem i : items) {
            assertNull(stm.concurrencyControl().checkQuiescent(i));
        }
    }

    /** Changes an item from another thread, as a concurrent committed writer would. */
    private void concurrentWrite(LongItem item, long v) {
        Thread t = new Thread(() -> stm.run(txn -> write(txn, item, v)));
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void atomicReturnsTheResultAndCommits() {
        long r = stm.atomic(t -> {
            write(t, x, 5);
            return read(t, x) + 1;
        });
        assertEquals(6, r);
        assertEquals(5, committed(x));
        assertQuiescent(x);
    }

    @Test
    void readYourOwnWritesAndCommitTimeAdds() {
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            c.addLong(x, 3);
            c.addLong(x, 4);
            assertEquals(7, c.readLong(x));
            c.addLong(x, 1);
            assertEquals(8, c.readLong(x));
            c.writeLong(x, 100);
            c.addLong(x, 1);
            assertEquals(101, c.readLong(x));
        });
        assertEquals(101, committed(x));
        stm.run(t -> TxnContext.of(t, stm).addLong(x, -1));
        assertEquals(100, committed(x));
    }

    @Test
    void largeTransactionsGrowTheAccessSetAndItsIndex() {
        LongItem[] items = new LongItem[2000];
        for (int i = 0; i < items.length; i++) {
            items[i] = new LongItem(i);
        }
        long sum = stm.atomic(t -> {
            long s = 0;
            for (LongItem it : items) {
                s += read(t, it);
                write(t, it, read(t, it) + 1);
            }
            for (LongItem it : items) {
                s += read(t, it); // read-your-writes through the hash index
            }
            return s;
        });
        long n = items.length;
        assertEquals(n * (n - 1) / 2 + n * (n + 1) / 2, sum);
        assertQuiescent(items);
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 20, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void smallIndexedTransactionsAfterALargeOneLeaveNoStaleSlots() {
        // The index keeps the large transaction's size; later small ones clear only their own
        // slots. A slot left behind would make probes longer each time until the table is full.
        LongItem[] items = new LongItem[4000];
        for (int i = 0; i < items.length; i++) {
            items[i] = new LongItem(i);
        }
        stm.atomic(t -> {
            for (LongItem it : items) {
                read(t, it);
            }
            return null;
        });
        int perTxn = 40;        // above the linear-scan limit, far below the index's size / 8
        for (int round = 0; round < 2000; round++) {
            int base = (round * perTxn) % (items.length - perTxn);
            long got = stm.atomic(t -> {
                long s = 0;
                for (int i = 0; i < perTxn; i++) {
                    write(t, items[base + i], read(t, items[base + i]) + 1);
                }
                for (int i = 0; i < perTxn; i++) {
                    s += read(t, items[base + i]);
                }
                return s;
            });
            long expected = 0;
            for (int i = 0; i < perTxn; i++) {
                expected += committed(items[base + i]);
            }
            assertEquals(expected, got, "round " + round);
        }
        assertQuiescent(items);
    }

    @Test
    void userExceptionRollsBackAndIsRethrownUnchanged() {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> stm.run(t -> {
            write(t, x, 42);
            throw boom;
        }));
        assertSame(boom, thrown);
        assertEquals(0, committed(x));
        assertEquals(1, stm.statistics().aborts(AbortCause.USER_EXCEPTION));
        assertQuiescent(x);
    }

    @Test
    void exceptionFromAnInconsistentSnapshotIsRetriedNotReported() {
        int[] attempts = {0};
        long r = stm.atomic(t -> {
            attempts[0]++;
            long v = read(t, x);
            if (t.attempt() == 0) {
                concurrentWrite(x, 7);
                throw new IllegalStateException("saw a state that was already stale");
            }
            return v;
        });
        assertEquals(7, r);
        assertEquals(2, attempts[0]);
        assertEquals(1, stm.statistics().aborts(AbortCause.INCONSISTENT_READ));
    }

    @Test
    void conflictingCommitIsRetried() {
        long r = stm.atomic(t -> {
            long v = read(t, x);
            if (t.attempt() == 0) {
                concurrentWrite(x, 10);
            }
            write(t, y, v);
            return v;
        });
        assertEquals(10, r);
        assertEquals(10, committed(y));
        assertEquals(1, stm.statistics().aborts(AbortCause.READ_VALIDATION));
        assertQuiescent(x, y);
    }

    @Test
    void maxAttemptsBoundsRetries() {
        Stm limited = Stm.builder().maxAttempts(3).backoff(0, 0).build();
        LongItem z = new LongItem(0);
        TxnAbortedException e = assertThrows(TxnAbortedException.class, () -> limited.run(t -> {
            TxnContext c = TxnContext.of(t, limited);
            c.readLong(z);
            Thread w = new Thread(() -> limited.run(t2 -> TxnContext.of(t2, limited).addLong(z, 1)));
            w.start();
            try {
                w.join();
            } catch (InterruptedException ie) {
                throw new AssertionError(ie);
            }
            c.writeLong(y, 1);
        }));
        assertEquals(3, e.attempts());
        assertEquals(AbortCause.READ_VALIDATION, e.abortCause());
        assertEquals(3, limited.concurrencyControl().loadLong(z));
        assertNull(limited.concurrencyControl().checkQuiescent(z));
    }

    @Test
    void userAbortEndsWithoutRetryAndWithoutEffects() {
        TxnAbortedException e = assertThrows(TxnAbortedException.class, () -> stm.run(t -> {
            write(t, x, 1);
            throw t.abort();
        }));
        assertEquals(AbortCause.USER_ABORT, e.abortCause());
        assertEquals(1, e.attempts());
        assertEquals(0, committed(x));
    }

    @Test
    void swallowingTheRollbackSignalDoesNotCommit() {
        assertThrows(TxnAbortedException.class, () -> stm.run(t -> {
            write(t, x, 1);
            try {
                t.abort();
            } catch (Throwable ignored) {
                // a careless body
            }
            write(t, y, 1);
        }));
        assertEquals(0, committed(x));
        assertEquals(0, committed(y));
        assertQuiescent(x, y);
    }

    @Test
    void nestedAtomicJoinsTheOuterTransaction() {
        assertThrows(TxnAbortedException.class, () -> stm.run(outer -> {
            stm.run(inner -> {
                assertSame(outer, inner);
                write(inner, x, 9);
            });
            assertEquals(9, read(outer, x));
            outer.abort();
        }));
        assertEquals(0, committed(x));
        stm.run(outer -> stm.run(inner -> write(inner, x, 3)));
        assertEquals(3, committed(x));
    }

    @Test
    void readOnlyTransactionsRejectWrites() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> stm.readOnly(t -> {
            write(t, x, 1);
            return null;
        }));
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        assertEquals(0, committed(x));
        assertEquals(Long.valueOf(0L), stm.readOnly(t -> read(t, x)));
    }

    @Test
    void txnUsedAfterItEndedIsRejected() {
        Txn leaked = stm.atomic(t -> t);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> read(leaked, x));
        assertTrue(e.getMessage().contains("after it ended"), e.getMessage());
        assertThrows(IllegalStateException.class, leaked::abort);
        assertQuiescent(x);
    }

    @Test
    void txnUsedFromAnotherThreadIsRejected() throws InterruptedException {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        stm.run(t -> {
            write(t, x, 1);
            Thread other = new Thread(() -> {
                try {
                    write(t, y, 2);
                } catch (Throwable ex) {
                    seen.set(ex);
                }
            });
            other.start();
            try {
                other.join();
            } catch (InterruptedException ie) {
                throw new AssertionError(ie);
            }
        });
        assertTrue(seen.get() instanceof IllegalStateException, String.valueOf(seen.get()));
        assertTrue(seen.get().getMessage().contains("another") || seen.get().getMessage().contains("belongs to thread"));
        assertEquals(1, committed(x));
        assertEquals(0, committed(y));
        assertQuiescent(x, y);
    }

    @Test
    void objectsOfAnotherStoreAreRejected() {
        Stm other = Stm.builder().name("other").build();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> other.run(t -> TxnContext.of(t, stm).readLong(x)));
        assertTrue(e.getMessage().contains("other"), e.getMessage());
        assertThrows(NullPointerException.class, () -> TxnContext.of(null, stm));
    }

    @Test
    void referenceCellsKeepTheirFirstReadWithinATransaction() {
        RefItem r = new RefItem("a");
        String[] seen = new String[2];
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            seen[0] = (String) c.readRef(r);
            if (t.attempt() == 0) {
                Thread w = new Thread(() -> stm.run(t2 -> TxnContext.of(t2, stm).writeRef(r, "b")));
                w.start();
                try {
                    w.join();
                } catch (InterruptedException ie) {
                    throw new AssertionError(ie);
                }
            }
            seen[1] = (String) c.readRef(r);
        });
        assertEquals(seen[0], seen[1], "repeated reads inside one attempt must agree");
        assertEquals("b", stm.concurrencyControl().loadRef(r));
    }

    @Test
    void participantChecksRunAtCommitAndCleanupsAtTheEnd() {
        int[] checks = {0};
        int[] cleanups = {0};
        io.jato.stm.spi.TxParticipant p = new io.jato.stm.spi.TxParticipant() {
            @Override
            public boolean check(TxnContext txn, io.jato.stm.spi.Entry entry) {
                return ++checks[0] > 1; // refuse the first commit
            }

            @Override
            public void install(TxnContext txn, io.jato.stm.spi.Entry entry, long ts) {
                throw new AssertionError("not a custom write");
            }

            @Override
            public void cleanup(TxnContext txn, io.jato.stm.spi.Entry entry, boolean committed) {
                cleanups[0]++;
            }
        };
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            c.readLong(x);
            io.jato.stm.spi.Entry e = c.find(x);
            c.requestCheck(e, p);
            c.requestCleanup(e, p);
            c.writeLong(y, 5);
        });
        assertEquals(2, checks[0]);
        assertEquals(2, cleanups[0]);
        assertEquals(5, committed(y));
        assertEquals(1, stm.statistics().aborts(AbortCause.READ_VALIDATION));
        assertQuiescent(x, y);
    }

    @Test
    void statisticsCountStartsCommitsAndAborts() {
        Stm s = Stm.create();
        StmStatistics before = s.statistics();
        for (int i = 0; i < 10; i++) {
            s.run(t -> TxnContext.of(t, s).addLong(x, 1));
        }
        assertThrows(TxnAbortedException.class, () -> s.run(Txn::abort));
        StmStatistics d = s.statistics().minus(before);
        assertEquals(11, d.starts());
        assertEquals(10, d.commits());
        assertEquals(1, d.aborts(AbortCause.USER_ABORT));
        assertEquals(1, d.aborts());
        assertFalse(d.abortsByCause().containsKey(AbortCause.READ_VALIDATION));
        Stm quiet = Stm.builder().statistics(false).build();
        quiet.run(t -> TxnContext.of(t, quiet).addLong(y, 1));
        assertEquals(0, quiet.statistics().commits());
    }

    @Test
    void threadCountersAreTheCallingThreadsOwn() throws InterruptedException {
        Stm s = Stm.create();
        long[] c = new long[Stm.COUNTER_SLOTS + 1];
        c[Stm.COUNTER_SLOTS] = 42;
        s.copyThreadCounters(c);
        assertEquals(0, Arrays.stream(c, 0, Stm.COUNTER_SLOTS).sum(), "no context yet: zeros");
        for (int i = 0; i < 3; i++) {
            s.run(t -> TxnContext.of(t, s).addLong(x, 1));
        }
        assertThrows(TxnAbortedException.class, () -> s.run(Txn::abort));
        Thread other = new Thread(() -> s.run(t -> TxnContext.of(t, s).addLong(y, 1)));
        other.start();
        other.join();
        s.copyThreadCounters(c);
        assertEquals(4, c[0], "starts");
        assertEquals(3, c[1], "commits: not the other thread's");
        assertEquals(1, c[2 + AbortCause.USER_ABORT.ordinal()]);
        assertEquals(4, s.statistics().commits(), "the store's total has both threads");
        assertEquals(42, c[Stm.COUNTER_SLOTS], "slots beyond are left alone");

        Stm quiet = Stm.builder().statistics(false).build();
        quiet.run(t -> TxnContext.of(t, quiet).addLong(y, 1));
        quiet.copyThreadCounters(c);
        assertEquals(0, Arrays.stream(c, 0, Stm.COUNTER_SLOTS).sum(), "statistics off: zeros");
        assertThrows(IllegalArgumentException.class, () -> s.copyThreadCounters(new long[Stm.COUNTER_SLOTS - 1]));
        NullPointerException npe = assertThrows(NullPointerException.class, () -> s.copyThreadCounters(null));
        assertEquals("into", npe.getMessage());
    }

    @Test
    void concurrentCommitTimeAddsNeverInvalidateEachOther() throws InterruptedException {
        Stm s = Stm.create();
        LongItem counter = new LongItem(0);
        int perThread = 20_000;
        Thread[] ts = new Thread[2];
        for (int k = 0; k < ts.length; k++) {
            ts[k] = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    s.run(t -> TxnContext.of(t, s).addLong(counter, 1));
                }
            });
            ts[k].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        assertEquals(2L * perThread, s.concurrencyControl().loadLong(counter));
        StmStatistics st = s.statistics();
        assertEquals(0, st.aborts(AbortCause.READ_VALIDATION));
        assertEquals(0, st.aborts(AbortCause.READ_LOCKED));
        assertNull(s.concurrencyControl().checkQuiescent(counter));
    }

    @Test
    void aCleanupThatThrowsAfterCommitLeavesTheThreadUsable() {
        io.jato.stm.spi.TxParticipant failingCleanup = new io.jato.stm.spi.TxParticipant() {
            @Override
            public void install(TxnContext txn, io.jato.stm.spi.Entry entry, long commitTimestamp) {
            }

            @Override
            public void cleanup(TxnContext txn, io.jato.stm.spi.Entry entry, boolean committed) {
                throw new IllegalStateException("cleanup bug");
            }
        };
        assertThrows(IllegalStateException.class, () -> stm.run(t -> {
            write(t, x, 5);
            TxnContext c = TxnContext.of(t, stm);
            c.requestCleanup(c.entry(y), failingCleanup);
        }));
        long after = stm.atomic(t -> read(t, x));
        assertEquals(5L, after, "the commit happened and the next transaction runs");
        assertFalse(stm.inTransaction());
    }
}
