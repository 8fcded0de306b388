package io.jato.protocols.suite;

import io.jato.protocols.suite.probe.ProbeProtocol;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.TxnAbortedException;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit driver's protocol-facing steps that the lock family, MaaT and MVCC need, seen through
 * {@link ProbeProtocol} (OCC that declares remote aborts and records the driver's calls): prepare
 * runs once per commit of every shape and may abort; finish learns the cause; another thread can
 * abort an attempt until its point of no return and not after; the registry of live transaction
 * states follows the threads.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CommitDriverSpiTest {
    private final Stm stm = Stm.builder().protocol(ProbeProtocol.NAME).build();
    private final ProbeProtocol.Control probe = (ProbeProtocol.Control) stm.concurrencyControl();
    private final LongItem x = new LongItem(0);

    private long read(LongItem item) {
        return stm.atomic(txn -> TxnContext.of(txn, stm).readLong(item));
    }

    private void write(LongItem item, long v) {
        stm.run(txn -> TxnContext.of(txn, stm).writeLong(item, v));
    }

    @Test
    void prepareRunsOncePerCommitOfEveryShape() {
        write(x, 1);                                         // write-only
        assertEquals(1, probe.prepares.get());
        assertEquals(1, read(x));                            // read-only (prepare ran once more)
        assertEquals(2, probe.prepares.get());
        stm.readOnly(txn -> TxnContext.of(txn, stm).readLong(x)); // declared read-only
        assertEquals(3, probe.prepares.get());
        stm.run(txn -> {                                     // read-write
            TxnContext c = TxnContext.of(txn, stm);
            c.writeLong(x, c.readLong(x) + 1);
        });
        assertEquals(4, probe.prepares.get());
        stm.run(txn -> { });                                 // empty
        assertEquals(5, probe.prepares.get());
    }

    @Test
    void anAbortFromPrepareRollsBackWithTheCauseAndIsRetried() {
        LongItem y = new LongItem(0);
        probe.prepareAnswer = AbortCause.TIMESTAMP_ORDER;
        AtomicInteger attempts = new AtomicInteger();
        stm.run(txn -> {                                      // write-only: no read to validate
            attempts.incrementAndGet();
            TxnContext.of(txn, stm).writeLong(x, 5);
            TxnContext.of(txn, stm).writeLong(y, 6);
        });
        assertEquals(2, attempts.get());
        assertEquals(5, stm.concurrencyControl().loadLong(x));
        assertEquals(6, stm.concurrencyControl().loadLong(y));
        assertNull(stm.concurrencyControl().checkQuiescent(x));
        assertNull(stm.concurrencyControl().checkQuiescent(y));
        assertEquals(1, stm.statistics().aborts(AbortCause.TIMESTAMP_ORDER));
        assertEquals(List.of(new ProbeProtocol.Finish(false, AbortCause.TIMESTAMP_ORDER),
                new ProbeProtocol.Finish(true, null)), probe.finishes);
    }

    @Test
    void finishLearnsWhyAnAttemptEnded() {
        assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            TxnContext.of(txn, stm).writeLong(x, 1);
            txn.abort();
        }));
        IllegalStateException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> stm.run(txn -> {
            TxnContext.of(txn, stm).writeLong(x, 2);
            throw boom;
        })));
        write(x, 3);
        assertEquals(List.of(new ProbeProtocol.Finish(false, AbortCause.USER_ABORT),
                new ProbeProtocol.Finish(false, AbortCause.USER_EXCEPTION),
                new ProbeProtocol.Finish(true, null)), probe.finishes);
    }

    /** Runs {@code body} on a new thread; returns it started. */
    private static Thread start(Runnable body, AtomicReference<Throwable> failure) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.start();
        return t;
    }

    @Test
    void aRemoteAbortBeforeThePointOfNoReturnEndsThatAttempt() throws Exception {
        CountDownLatch inBody = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean sawRequest = new AtomicBoolean();
        List<Integer> attempts = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread b = start(() -> stm.run(txn -> {
            TxnContext c = TxnContext.of(txn, stm);
            attempts.add(txn.attempt());
            c.writeLong(x, c.readLong(x) + 1);
            if (txn.attempt() == 0) {
                inBody.countDown();
                await(go);
                sawRequest.set(c.abortRequested());
            }
        }), failure);
        assertTrue(inBody.await(20, TimeUnit.SECONDS));
        ProbeProtocol.Running r = probe.running.get(b);
        long attempt = r.attemptId;
        assertTrue(r.txn.requestAbort(attempt), "before its point of no return the attempt can be aborted");
        assertTrue(r.txn.requestAbort(attempt), "asking again is answered the same");
        assertFalse(r.txn.requestAbort(attempt + 1), "a later attempt is not aborted in advance");
        go.countDown();
        b.join(20_000);
        assertNull(failure.get());
        assertTrue(sawRequest.get(), "the body can poll the request");
        assertEquals(List.of(0, 1), attempts, "the aborted attempt is retried");
        assertEquals(1, stm.concurrencyControl().loadLong(x), "only the retry committed");
        assertEquals(1, stm.statistics().aborts(AbortCause.REMOTE_ABORT));
        assertEquals(new ProbeProtocol.Finish(false, AbortCause.REMOTE_ABORT), probe.finishes.get(0));
        assertNull(stm.concurrencyControl().checkQuiescent(x));
        assertFalse(r.txn.requestAbort(r.attemptId), "an ended attempt cannot be aborted");
    }

    @Test
    void aRemoteAbortAfterThePointOfNoReturnLoses() throws Exception {
        CountDownLatch inInstall = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        probe.releaseInstall = release;
        probe.inInstall = inInstall;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread b = start(() -> write(x, 9), failure);
        assertTrue(inInstall.await(20, TimeUnit.SECONDS));
        ProbeProtocol.Running r = probe.running.get(b);
        assertFalse(r.txn.requestAbort(r.attemptId), "the commit already passed its point of no return");
        release.countDown();
        b.join(20_000);
        assertNull(failure.get());
        assertEquals(9, stm.concurrencyControl().loadLong(x));
        assertEquals(0, stm.statistics().aborts(AbortCause.REMOTE_ABORT));
        assertEquals(List.of(new ProbeProtocol.Finish(true, null)), probe.finishes);
    }

    @Test
    void remoteAbortsNeedTheCapability() {
        Stm occ = Stm.create();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> occ.run(txn -> TxnContext.of(txn, occ).requestAbort(TxnContext.of(txn, occ).attemptId())));
        assertTrue(e.getMessage().contains("REMOTE_ABORT"), e.getMessage());
    }

    @Test
    void theRegistryHoldsOneStatePerLiveThread() throws Exception {
        assertEquals(0, live(probe.context).size());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(3);
        CountDownLatch end = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            threads.add(start(() -> {
                write(new LongItem(0), 1);
                write(new LongItem(0), 2);
                ran.countDown();
                await(end);
            }, failure));
        }
        assertTrue(ran.await(20, TimeUnit.SECONDS));
        List<Object> states = live(probe.context);
        assertEquals(3, states.size(), "one state per thread, however many transactions it ran");
        assertEquals(3, states.stream().distinct().count());
        assertThrows(UnsupportedOperationException.class, () -> probe.context.txnStates().add(new Object()));
        stm.statistics();
        assertEquals(3, live(probe.context).size(), "live threads keep their states");
        end.countDown();
        for (Thread t : threads) {
            t.join(20_000);
        }
        assertNull(failure.get());
        stm.statistics(); // folds away dead threads' contexts
        assertEquals(0, live(probe.context).size());
        assertEquals(3, probe.retired.size());
        assertTrue(probe.retired.containsAll(states), "the dead threads' states were retired");
        write(x, 1);
        assertEquals(1, live(probe.context).size(), "this thread's context registered its state");
    }

    /** The registered states (the registry's view has a null in each vacant slot). */
    static List<Object> live(ProtocolContext context) {
        List<Object> out = new ArrayList<>();
        List<Object> view = context.txnStates();
        for (int i = 0, n = view.size(); i < n; i++) {
            Object s = view.get(i);
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError("timed out");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
