package io.jato.stm;

import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failure atomicity of the commit driver with the default protocol: a Throwable at any point of a
 * commit (a participant's check or install, i.e. an updater or a data-type bug, or the VM) leaves
 * no lock held, nothing of the failed transaction visible under an old version, the statistics
 * consistent and the thread usable.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CommitFailureTest {
    private final Stm stm = Stm.create();
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    /** A custom participant that throws what it is given from check or install. */
    private static final class Failing implements TxParticipant {
        final Throwable inCheck;
        final Throwable inInstall;
        final AtomicInteger installs = new AtomicInteger();

        Failing(Throwable inCheck, Throwable inInstall) {
            this.inCheck = inCheck;
            this.inInstall = inInstall;
        }

        @Override
        public boolean check(TxnContext txn, Entry entry) {
            if (inCheck != null) {
                throw sneaky(inCheck);
            }
            return true;
        }

        @Override
        public void install(TxnContext txn, Entry entry, long commitTimestamp) {
            installs.incrementAndGet();
            if (inInstall != null) {
                throw sneaky(inInstall);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }

    private long committed(LongItem item) {
        return stm.concurrencyControl().loadLong(item);
    }

    private void assertQuiescent(TxItem... items) {
        for (TxItem i : items) {
            assertNull(stm.concurrencyControl().checkQuiescent(i));
        }
    }

    private void assertCountsAddUp() {
        StmStatistics st = stm.statistics();
        assertEquals(st.starts(), st.commits() + st.aborts(), st::toString);
    }

    /** Writes {@code x = 42} (or adds 1 to it), then a custom entry whose participant fails. */
    private Throwable commitWithFailingEntry(Failing p, boolean add) {
        TxItem custom = new TxItem();
        return assertThrows(Throwable.class, () -> stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            if (add) {
                c.addLong(x, 1);
            } else {
                c.writeLong(x, 42);
            }
            Entry e = c.entry(custom);
            c.writeCustom(e, p, null, null);
            if (p.inCheck != null) {
                c.requestCheck(e, p);
            }
        }));
    }

    @Test
    void aFailedInstallRestoresBuiltInValuesAndGivesEveryItemANewVersion() throws Exception {
        // A reader on another thread reads x = 0 and waits; the failing commit runs; the reader
        // then writes y and tries to commit. It must not commit on x = 0's old version.
        CountDownLatch read = new CountDownLatch(1);
        CountDownLatch failed = new CountDownLatch(1);
        AtomicInteger attempts = new AtomicInteger();
        AtomicReference<Long> seen = new AtomicReference<>();
        Thread reader = new Thread(() -> stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            attempts.incrementAndGet();
            seen.set(c.readLong(x));
            c.writeLong(y, 1);
            if (t.attempt() == 0) {
                read.countDown();
                try {
                    failed.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
        }));
        reader.start();
        assertTrue(read.await(10, TimeUnit.SECONDS));
        long before = Items.wordAcquire(x);
        IllegalStateException boom = new IllegalStateException("install bug");
        Failing p = new Failing(null, boom);
        assertSame(boom, commitWithFailingEntry(p, false));
        failed.countDown();
        reader.join();

        assertEquals(1, p.installs.get());
        assertEquals(0, committed(x), "the built-in install of x was undone");
        assertFalse(before == Items.wordAcquire(x), "x must carry a new version, not its old word");
        assertEquals(2, attempts.get(), "the reader that overlapped the failed commit must retry");
        assertQuiescent(x, y);
        assertEquals(1, stm.statistics().aborts(AbortCause.INTERNAL_FAILURE));
        assertCountsAddUp();
    }

    @Test
    void aFailedInstallDoesNotLeaveACommitTimeAddBehindForTheRetry() {
        Failing p = new Failing(null, new OutOfMemoryError("simulated"));
        assertTrue(commitWithFailingEntry(p, true) instanceof OutOfMemoryError);
        assertEquals(0, committed(x));
        // The caller retries the same work: it is applied once.
        stm.run(t -> TxnContext.of(t, stm).addLong(x, 1));
        assertEquals(1, committed(x));
        assertQuiescent(x);
        assertCountsAddUp();
    }

    @Test
    void aThrowingCheckLeavesNothingInstalledAndIsAUserException() {
        IllegalArgumentException bad = new IllegalArgumentException("updater rejects the value");
        Failing p = new Failing(bad, null);
        long before = Items.wordAcquire(x);
        assertSame(bad, commitWithFailingEntry(p, false));
        assertEquals(0, p.installs.get());
        assertEquals(0, committed(x));
        assertEquals(before, Items.wordAcquire(x), "nothing was installed: the old word is the right one");
        assertQuiescent(x);
        assertEquals(1, stm.statistics().aborts(AbortCause.USER_EXCEPTION));
        assertCountsAddUp();
        stm.run(t -> TxnContext.of(t, stm).writeLong(x, 7));
        assertEquals(7, committed(x));
    }

    @Test
    void anErrorInCheckIsCountedAndTheThreadStaysUsable() {
        StackOverflowError soe = new StackOverflowError("simulated");
        assertSame(soe, commitWithFailingEntry(new Failing(soe, null), false));
        assertFalse(stm.inTransaction());
        assertQuiescent(x);
        assertCountsAddUp();
        int three = stm.atomic(t -> 3);
        assertEquals(3, three);
    }

    @Test
    void aWriteInsideANestedReadOnlyBlockThrows() {
        TxnContext[] ctx = new TxnContext[1];
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> stm.run(t ->
                stm.readOnly(t2 -> {
                    ctx[0] = TxnContext.of(t2, stm);
                    ctx[0].writeLong(x, 42);
                    return null;
                })));
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        assertEquals(0, committed(x));
        // Also for an item the outer part already wrote, and the outer part may write again after.
        assertThrows(IllegalStateException.class, () -> stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            c.writeLong(x, 1);
            stm.readOnly(t2 -> {
                c.writeLong(x, 2);
                return null;
            });
        }));
        assertEquals(0, committed(x));
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            c.writeLong(x, 1);
            long inner = stm.readOnly(t2 -> c.readLong(x));
            assertEquals(1L, inner);
            c.writeLong(x, 2);
        });
        assertEquals(2, committed(x));
    }

    @Test
    void aParticipantThatStartsATransactionWhileCommittingIsToldWhatHappened() {
        TxParticipant nested = new TxParticipant() {
            @Override
            public boolean check(TxnContext txn, Entry entry) {
                return stm.atomic(t -> true);
            }

            @Override
            public void install(TxnContext txn, Entry entry, long commitTimestamp) {
            }
        };
        TxItem custom = new TxItem();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            Entry en = c.entry(custom);
            c.writeCustom(en, nested, null, null);
            c.requestCheck(en, nested);
        }));
        assertTrue(e.getMessage().contains("while it commits"), e.getMessage());
        assertCountsAddUp();
    }

    @Test
    void inTransactionIsTrueWhileCommittingAndAfterASwallowedRollback() {
        boolean[] during = new boolean[2];
        TxParticipant probe = new TxParticipant() {
            @Override
            public boolean check(TxnContext txn, Entry entry) {
                during[0] = stm.inTransaction();
                return true;
            }

            @Override
            public void install(TxnContext txn, Entry entry, long commitTimestamp) {
            }
        };
        TxItem custom = new TxItem();
        stm.run(t -> {
            TxnContext c = TxnContext.of(t, stm);
            Entry en = c.entry(custom);
            c.writeCustom(en, probe, null, null);
            c.requestCheck(en, probe);
        });
        assertTrue(during[0], "a commit-time updater runs inside the transaction");
        assertThrows(TxnAbortedException.class, () -> stm.run(t -> {
            try {
                t.abort();
            } catch (Throwable swallowed) {
                // the body swallows the library's rollback signal
            }
            during[1] = stm.inTransaction();
        }));
        assertTrue(during[1], "a doomed transaction is still inside the store's transaction");
        assertFalse(stm.inTransaction());
    }

    @Test
    void aPendingInterruptDoesNotTurnBackoffIntoAHotLoopAndIsKept() {
        Stm slow = Stm.builder().backoff(2_000_000, 2_000_000).build();
        LongItem z = new LongItem(0);
        AtomicInteger runs = new AtomicInteger();
        Thread.currentThread().interrupt();
        try {
            long start = System.nanoTime();
            slow.run(t -> {
                TxnContext c = TxnContext.of(t, slow);
                c.readLong(z);
                if (runs.incrementAndGet() < 11) {
                    throw c.rollback(AbortCause.READ_VALIDATION);
                }
            });
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt must still be pending after atomic");
            // Ten backoffs of a uniformly random delay below 2 ms each: expected 10 ms in total,
            // below 1 ms with probability 0.5^10 / 10! (about 3e-10). Parks that return at once
            // (the pending interrupt) take microseconds.
            assertTrue(tookMillis >= 1, "backoff did not wait: " + tookMillis + " ms");
        } finally {
            Thread.interrupted();
        }
        assertEquals(11, runs.get());
    }
}
