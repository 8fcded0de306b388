package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.stm.Capabilities;
import io.jato.stm.Stm;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Read logs: a declared read-only transaction of a protocol that validates every read
 * ({@code ConcurrencyControl.validatesEveryRead}) appends its reads without looking each item up
 * first, so an item read again (not right after its last access) gets a second entry. Checked
 * here: that the mode is on exactly where the protocol allows it, that a repeated read still
 * commits only with the value it first returned (on every protocol and cell kind, weakly
 * isolated ones included, whose repeatable reads rely on one entry per item), and that a
 * transaction re-reading the same items forever cannot grow its log without bound.
 */
@Timeout(120)
class ReadLogTest {

    /** Every protocol, weakly isolated ones included, by itself and paired. */
    static Stream<String> everyProtocol() {
        return Stream.concat(Protocols.all(), Protocols.weaklyIsolated().stream());
    }

    static Stream<Arguments> everyProtocolAndKind() {
        return everyProtocol().flatMap(p -> Cells.KINDS.stream().map(k -> Arguments.of(p, k)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyProtocol")
    void onlyDeclaredReadOnlyTransactionsOfValidatingProtocolsKeepLogs(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong a = new TxLong(stm, 1);
        TxLong b = new TxLong(stm, 2);
        boolean logs = stm.concurrencyControl().validatesEveryRead();
        // A protocol that logs read words keeps the value cells' reads out of the entries.
        boolean words = logs && stm.concurrencyControl().logsReadWords();
        // A multi-version protocol alone in its store reads cells at the snapshot with no entry at all.
        boolean snapshots = !Protocols.isPair(protocol)
                && Stm.protocolCapabilities(Protocols.protocolName(protocol)).has(Capabilities.Feature.SNAPSHOT_READS);
        // a, a (consecutive: one entry either way), b, a (a repeat: a second entry in a log).
        int[] logged = new int[1];
        int readOnly = stm.readOnly(t -> {
            long s = a.get(t) + a.get(t) + b.get(t) + a.get(t);
            assertEquals(5, s);
            logged[0] = TxnContext.of(t, stm).loggedReadCount();
            return TxnContext.of(t, stm).size();
        });
        int writing = stm.atomic(t -> {
            long s = a.get(t) + a.get(t) + b.get(t) + a.get(t);
            assertEquals(5, s);
            return TxnContext.of(t, stm).size();
        });
        assertEquals(words || snapshots ? 0 : logs ? 3 : 2, readOnly, "entries of a declared read-only transaction");
        assertEquals(words ? 4 : 0, logged[0], "reads logged as words");
        assertEquals(2, writing, "entries of a transaction that may write");
        // A read-only block nested in a writing transaction does not make it a log.
        int nested = stm.atomic(t -> stm.readOnly(t2 -> {
            long s = a.get(t2) + b.get(t2) + a.get(t2);
            assertEquals(4, s);
            return TxnContext.of(t2, stm).size();
        }));
        assertEquals(2, nested, "entries of a read-only block inside a writing transaction");
    }

    /**
     * Reads x, then y; meanwhile (first attempt only) another thread commits x + 1; then reads x
     * again. Whatever the protocol and cell, the transaction commits only if both reads of x
     * agree.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyProtocolAndKind")
    void aRepeatedReadCommitsOnlyWithTheValueItFirstReturned(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        Cells[] c = Cells.create(kind, stm, 10, 20);
        Cells x = c[0];
        Cells y = c[1];
        AtomicReference<String> seen = new AtomicReference<>();
        Writer writer = new Writer(() -> stm.run(w -> x.set(w, x.get(w) + 1)));
        stm.readOnly(t -> {
            long x1 = x.get(t);
            if (t.attempt() == 0) {
                // Commits now, or (a protocol that runs transactions one at a time) after us.
                writer.startAndWait(200);
            }
            long y1 = y.get(t);
            long x2 = x.get(t);
            seen.set(x1 + "," + y1 + "," + x2);
            return null;
        });
        writer.join();
        String[] v = seen.get().split(",");
        assertEquals(v[0], v[2], "x read twice in one committed transaction: " + seen.get());
        assertEquals(11, x.committed());
        assertEquals(List.of(), Quiescence.problems((Object[]) c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyProtocol")
    void rereadingTheSameItemsForeverKeepsTheSetBounded(String protocol) {
        Stm stm = Protocols.store(protocol);
        List<TxLong> cells = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            cells.add(new TxLong(stm, i));
        }
        int size = stm.readOnly(t -> {
            long s = 0;
            for (int round = 0; round < 10_000; round++) {
                for (TxLong c : cells) {
                    s += c.get(t);
                }
            }
            assertEquals(30_000, s);
            return TxnContext.of(t, stm).size();
        });
        assertTrue(size <= 1100, "a read-only transaction over 3 items holds " + size + " entries");
        // The same context serves the next transaction normally.
        assertEquals(3, (long) stm.readOnly(t -> cells.get(0).get(t) + cells.get(1).get(t) + cells.get(2).get(t)));
    }

    @Test
    void occSerializableTicTocAndMvccKeepLogsAndRepeatableReadDoesNot() {
        assertTrue(Stm.builder().protocol("occ").build().concurrencyControl().validatesEveryRead());
        for (String p : Stm.availableProtocols()) {
            if (p.equals("tictoc") || p.equals("tictoc-si") || p.equals("mvcc")) {
                assertTrue(Stm.builder().protocol(p).build().concurrencyControl().validatesEveryRead(), p);
            }
            if (p.equals("tictoc-rr")) {
                assertEquals(false, Stm.builder().protocol(p).build().concurrencyControl().validatesEveryRead(), p);
            }
        }
    }

    /** A thread that runs one action; its failure fails the test. */
    private static final class Writer {
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread thread;

        Writer(Runnable action) {
            thread = new Thread(() -> {
                try {
                    action.run();
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "writer");
        }

        void startAndWait(long millis) {
            thread.start();
            try {
                thread.join(millis);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }

        void join() {
            try {
                thread.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
        }
    }
}
