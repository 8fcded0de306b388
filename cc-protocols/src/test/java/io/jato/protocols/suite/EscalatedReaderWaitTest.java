package io.jato.protocols.suite;

import io.jato.collections.TxCounter;
import io.jato.collections.TxLong;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The escalation bound's premise (docs/lock-family.md, "the bound"): an escalated transaction
 * waits for a commit that is already writing back instead of aborting on it. A writer's
 * commit-time updater stalls inside the commit, holding whatever the protocol holds while it
 * installs, as a writer descheduled there would on an oversubscribed machine. A reader that
 * meets it may abort once; the attempt after that is escalated ({@code escalateAfter(1)}) and must
 * wait until the writer is let go. Before the fix, {@code swisstm} and {@code mvcc} aborted the
 * escalated reader every time it met the write-back, so the audit of {@code StarvationBoundTest}
 * took 20 attempts (bound 12) on {@code occ+swisstm} on a loaded machine; here each stalled
 * write-back cost the reader dozens of attempts.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EscalatedReaderWaitTest {
    /**
     * How long the writer stalls in its commit: many of the reader's backoffs (dozens of aborts
     * without the fix), and well within how long an escalated transaction waits for one holder
     * ({@code TxnContext.ESCALATED_WAIT_NANOS}).
     */
    private static final long STALL_MILLIS = 100;

    static java.util.stream.Stream<String> protocols() {
        return Protocols.singles();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void anEscalatedReadOnlyTransactionWaitsForAStalledWriteBack(String protocol) throws Exception {
        check(protocol, true);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void anEscalatedWritingTransactionWaitsForAStalledWriteBack(String protocol) throws Exception {
        check(protocol, false);
    }

    private static void check(String protocol, boolean readOnly) throws Exception {
        Stm stm = Protocols.builder(protocol).escalateAfter(1).build();
        TxCounter counter = new TxCounter(stm);
        TxLong other = new TxLong(stm, 0);
        CountDownLatch installing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread writer = new Thread(() -> stm.run(t -> counter.update(t, v -> {
            installing.countDown();
            awaitQuietly(release);
            return v + 1;
        })), "stalled-writer");
        writer.start();
        try {
            assertTrue(installing.await(10, TimeUnit.SECONDS), "the writer reached its commit-time update");
            Thread releaser = new Thread(() -> {
                sleepQuietly(STALL_MILLIS);
                release.countDown();
            }, "releaser");
            releaser.start();
            AtomicInteger attempts = new AtomicInteger();
            long seen;
            if (readOnly) {
                seen = stm.readOnlyLong(t -> {
                    attempts.incrementAndGet();
                    return counter.get(t);
                });
            } else {
                seen = stm.atomicLong(t -> {
                    attempts.incrementAndGet();
                    long v = counter.get(t);
                    other.set(t, v);
                    return v;
                });
            }
            releaser.join();
            assertTrue(seen == 0 || seen == 1, "the reader saw the counter before or after the writer: " + seen);
            int n = attempts.get();
            assertTrue(n <= 2, () -> protocol + ": the reader took " + n
                    + " attempts; once escalated it must wait for the write-back, not abort on it");
        } finally {
            release.countDown();
            writer.join();
        }
        assertEquals(1, counter.single().get(), "the writer committed");
        Quiescence.assertQuiescent(counter, other);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
