package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.TxnAbortedException;
import io.jato.stm.TxnType;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The core's JFR events, recorded for real and read back: {@code io.jato.Abort} per rolled-back
 * attempt with its cause, {@code io.jato.Transaction} per transaction above the threshold with its
 * attempts and outcome, {@code io.jato.Starving} while a transaction keeps aborting.
 */
class JfrEventsTest {
    private static final TxnType TRANSFER = TxnType.of("jfr-test-transfer");

    static {
        // The tests run in this module (patched), which does not require jdk.jfr: the core only
        // "requires static" it. A test that records must read it, as an application's module
        // would with "requires jdk.jfr".
        JfrEventsTest.class.getModule().addReads(ModuleLayer.boot().findModule("jdk.jfr").orElseThrow());
    }

    private Recording recording;

    @BeforeEach
    void start() {
        recording = new Recording();
        recording.enable("io.jato.Abort");
        recording.enable("io.jato.Transaction").withThreshold(Duration.ZERO);
        recording.enable("io.jato.Starving");
        recording.start();
    }

    @AfterEach
    void close() {
        recording.close();
    }

    /** Stops the recording and returns its Jato events of {@code name} for {@code store}, in order. */
    private List<RecordedEvent> events(String name, String store) throws IOException {
        if (recording.getState() == jdk.jfr.RecordingState.RUNNING) {
            recording.stop();
        }
        Path file = Files.createTempFile("jato-jfr", ".jfr");
        try {
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals(name) && store.equals(e.getString("store")))
                    .sorted((a, b) -> a.getStartTime().compareTo(b.getStartTime()))
                    .collect(Collectors.toList());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Makes the transaction's read of {@code x} stale: another thread writes it and finishes. */
    private static void writeFromAnotherThread(TxLong x, long value) {
        Thread w = new Thread(() -> x.single().set(value));
        w.start();
        try {
            w.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aConflictIsAnAbortEventAndTheTransactionEventCountsTheRetry() throws IOException {
        Stm stm = Stm.builder().name("jfr-conflict").protocol("occ").build();
        TxLong x = new TxLong(stm, 0);
        TxLong y = new TxLong(stm, 0);
        int[] attempts = {0};
        stm.run(TRANSFER, t -> {
            long v = x.get(t);
            if (attempts[0]++ == 0) {
                writeFromAnotherThread(x, 7);
            }
            y.set(t, v + 1);
        });
        assertEquals(8, y.single().get());

        List<RecordedEvent> aborts = events("io.jato.Abort", "jfr-conflict");
        assertEquals(1, aborts.size(), aborts::toString);
        RecordedEvent abort = aborts.get(0);
        assertEquals("READ_VALIDATION", abort.getString("cause"));
        assertEquals(1, abort.getInt("attempt"));
        assertEquals("occ", abort.getString("protocol"));
        assertEquals("jfr-test-transfer", abort.getString("transactionType"));

        List<RecordedEvent> txns = events("io.jato.Transaction", "jfr-conflict");
        assertEquals(1, txns.size(), txns::toString);
        assertEquals(2, txns.get(0).getInt("attempts"));
        assertEquals("committed", txns.get(0).getString("outcome"));
        assertTrue(!txns.get(0).getBoolean("readOnly"));
    }

    @Test
    void everyWayOutOfATransactionHasItsOutcome() throws IOException {
        Stm stm = Stm.builder().name("jfr-outcomes").build();
        TxLong x = new TxLong(stm, 0);
        stm.readOnly(x::get);
        assertThrows(TxnAbortedException.class, () -> stm.run(t -> {
            x.set(t, 1);
            throw t.abort();
        }));
        assertThrows(IllegalStateException.class, () -> stm.run(t -> {
            x.set(t, 2);
            throw new IllegalStateException("the body's own");
        }));
        List<RecordedEvent> txns = events("io.jato.Transaction", "jfr-outcomes");
        assertEquals(List.of("committed", "user-abort", "exception"),
                txns.stream().map(e -> e.getString("outcome")).collect(Collectors.toList()));
        assertTrue(txns.get(0).getBoolean("readOnly"));
        List<RecordedEvent> aborts = events("io.jato.Abort", "jfr-outcomes");
        assertEquals(List.of("USER_ABORT", "USER_EXCEPTION"),
                aborts.stream().map(e -> e.getString("cause")).collect(Collectors.toList()));
        assertEquals(0, x.single().get(), "nothing of the rolled-back transactions is visible");
    }

    @Test
    void aTransactionThatKeepsAbortingIsReportedStarvingWhileItRetries() throws IOException {
        Stm stm = Stm.builder().name("jfr-starving").backoff(0, 0).build();
        TxLong x = new TxLong(stm, 0);
        TxLong y = new TxLong(stm, 0);
        int[] attempts = {0};
        stm.run(t -> {
            long v = x.get(t);
            if (attempts[0]++ < 20) {
                writeFromAnotherThread(x, attempts[0]);
            }
            y.set(t, v);
        });
        assertEquals(21, attempts[0]);
        List<RecordedEvent> starving = events("io.jato.Starving", "jfr-starving");
        assertEquals(1, starving.size(), "one report, at 16 aborted attempts: " + starving);
        assertEquals(16, starving.get(0).getInt("abortedAttempts"));
        assertEquals("READ_VALIDATION", starving.get(0).getString("lastCause"));
        assertTrue(starving.get(0).getLong("retryingFor") > 0);
        assertEquals(20, events("io.jato.Abort", "jfr-starving").size());
        assertEquals(21, events("io.jato.Transaction", "jfr-starving").get(0).getInt("attempts"));
    }

    @Test
    void aTransactionUnderTheThresholdIsNotRecordedByDefault() throws IOException {
        recording.close();
        recording = new Recording();
        recording.enable("io.jato.Transaction");     // the event's own threshold: 10 ms
        recording.start();
        Stm stm = Stm.builder().name("jfr-threshold").build();
        TxLong x = new TxLong(stm, 0);
        stm.run(t -> x.set(t, 1));
        stm.run(t -> {
            x.set(t, 2);
            sleep(30);
        });
        List<RecordedEvent> txns = events("io.jato.Transaction", "jfr-threshold");
        assertEquals(1, txns.size(), "only the long one: " + txns);
        assertTrue(txns.get(0).getDuration().toMillis() >= 30);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
