package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.collections.TxRef;
import io.jato.stm.Stm;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Word-logged reads ({@code ConcurrencyControl.logsReadWords}): a declared read-only attempt of
 * such a protocol logs its reads of value cells as (item, word) pairs, with no entry. They must be
 * validated like entries — at commit, and when the body throws on what may be an inconsistent
 * snapshot — or a read-only transaction could return a value that was overwritten before it
 * committed. Each test makes another thread commit between the first attempt's read and its end;
 * on the protocols that log words (OCC serializes a read-only transaction at its commit point) the
 * stale attempt must not commit and its exception must not escape. The other protocols are left
 * out of those two on purpose: a timestamp-ordered one may legitimately serialize the reader
 * before the writer, and the global lock makes the writer wait for the reader.
 */
@Timeout(60)
class WordLogTest {

    static Stream<String> everyProtocol() {
        return Protocols.all();
    }

    /** The protocols (alone: a mixed store logs no words) whose read-only attempts log words. */
    static Stream<String> wordLogging() {
        List<String> names = Protocols.singles()
                .filter(p -> Protocols.store(p).concurrencyControl().logsReadWords())
                .collect(Collectors.toList());
        assertTrue(names.contains("occ") || !Protocols.isSelected("occ"), "occ logs read words: " + names);
        return Protocols.orNone(names);
    }

    /** Runs {@code write} on another thread and waits for it: a commit between two reads. */
    private static void commitElsewhere(Runnable write) {
        Thread t = new Thread(write, "word-log-writer");
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wordLogging")
    void aLoggedReadOverwrittenBeforeCommitMakesTheAttemptRetry(String protocol) {
        Protocols.assumeSome(protocol, "logs read words");
        Stm stm = Protocols.store(protocol);
        TxLong a = new TxLong(stm, 1);
        TxRef<String> b = new TxRef<>(stm, "b0");
        AtomicInteger attempts = new AtomicInteger();
        String seen = stm.readOnly(t -> {
            long va = a.get(t);
            String vb = b.get(t);
            if (attempts.incrementAndGet() == 1) {
                // a and b were read; both change and commit before this attempt ends.
                commitElsewhere(() -> stm.run(w -> {
                    a.set(w, 2);
                    b.set(w, "b1");
                }));
            }
            return va + "/" + vb;
        });
        assertEquals("2/b1", seen, "a read-only transaction committed values overwritten before its commit");
        assertEquals(2, attempts.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wordLogging")
    void anExceptionOnAStaleLoggedReadIsRetriedNotThrown(String protocol) {
        Protocols.assumeSome(protocol, "logs read words");
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 5);
        TxLong y = new TxLong(stm, 5);
        AtomicInteger attempts = new AtomicInteger();
        long sum = stm.readOnly(t -> {
            long vx = x.get(t);
            if (attempts.incrementAndGet() == 1) {
                // The invariant x == y holds in every committed state; this makes the attempt's
                // snapshot mix two of them.
                commitElsewhere(() -> stm.run(w -> {
                    x.set(w, 7);
                    y.set(w, 7);
                }));
            }
            long vy = y.get(t);
            if (vx != vy) {
                throw new IllegalStateException("inconsistent snapshot: " + vx + " != " + vy);
            }
            return vx + vy;
        });
        assertEquals(14, sum);
        assertEquals(2, attempts.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyProtocol")
    void onlyValueCellReadsOfDeclaredReadOnlyAttemptsAreLogged(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong a = new TxLong(stm, 3);
        boolean words = stm.concurrencyControl().validatesEveryRead() && stm.concurrencyControl().logsReadWords();
        int inReadOnly = stm.readOnly(t -> {
            a.get(t);
            a.get(t);
            return TxnContext.of(t, stm).loggedReadCount();
        });
        int inWriting = stm.atomic(t -> {
            a.get(t);
            return TxnContext.of(t, stm).loggedReadCount();
        });
        assertEquals(words ? 2 : 0, inReadOnly);
        assertEquals(0, inWriting);
        assertTrue(!words || "occ".equals(protocol), "only occ logs read words today, not " + protocol);
    }
}
