package io.jato.stm.internal.jfr;

import io.jato.stm.Stm;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Events}: no JFR work of Jato's before a recording exists in the JVM, registration by the
 * first transaction after one starts, and the starvation marks. Ordered: the first test needs a JVM
 * in which nothing has started JFR yet (no other test of this module records).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EventsTest {
    static {
        // The test is patched into io.jato.stm, which only "requires static" jdk.jfr.
        EventsTest.class.getModule().addReads(ModuleLayer.boot().findModule("jdk.jfr").orElseThrow());
    }

    @Test
    @Order(1)
    void nothingIsRegisteredUntilARecordingStartsThenTheNextTransactionRegisters() {
        assertFalse(FlightRecorder.isInitialized(), "a test before this one started JFR: this test needs a JVM without it");
        Stm stm = Stm.builder().name("events-test").build();
        for (int i = 0; i < 1000; i++) {
            stm.run(t -> { });
        }
        assertFalse(Events.registered(), "transactions without a recording registered JFR events");
        assertNull(Events.beginTransaction());
        assertFalse(FlightRecorder.isInitialized(), "transactions initialized JFR");

        try (Recording r = new Recording()) {
            r.enable("io.jato.Transaction");
            r.start();
            Object event = Events.beginTransaction();
            assertTrue(Events.registered());
            assertNotNull(event, "the event is enabled in the running recording");
            Events.endTransaction(event, "events-test", "occ", io.jato.stm.TxnType.UNTYPED, 1, "committed", false);
            r.stop();
        }
        assertNull(Events.beginTransaction(), "no recording enables it any more");
    }

    @Test
    @Order(2)
    void anEventThatCannotBeFilledIsDroppedNotThrown() {
        try (Recording r = new Recording()) {
            r.enable("io.jato.Transaction").withoutThreshold();
            r.enable("io.jato.Abort");
            r.start();
            Object event = Events.beginTransaction();
            // A null type cannot be named: the event is dropped, the caller never sees a throwable.
            Events.endTransaction(event, "s", "occ", null, 1, "committed", false);
            Events.abort("s", "occ", null, io.jato.stm.AbortCause.USER_ABORT, 1);
            Events.endTransaction("not an event", "s", "occ", io.jato.stm.TxnType.UNTYPED, 1, "committed", false);
        }
    }

    /**
     * Registering the events runs inside a transaction: an OutOfMemoryError there must not reach
     * the caller (nor, on a rollback, skip the release of its locks). The JVM then runs without
     * the events, and the thread's transactions go on.
     */
    @Test
    @Order(3)
    void aRegistrationThatFailsLeavesTheTransactionAndTheThreadAlone() {
        Stm stm = Stm.builder().name("events-registration").build();
        Events.resetForTests();
        Events.failNextRegistration = new OutOfMemoryError("injected into the registration");
        try (Recording r = new Recording()) {
            r.enable("io.jato.Transaction");
            r.enable("io.jato.Abort");
            r.start();
            io.jato.stm.TxnAbortedException e = org.junit.jupiter.api.Assertions.assertThrows(
                    io.jato.stm.TxnAbortedException.class, () -> stm.run(t -> {
                        throw t.abort();
                    }), "the user's abort, not the registration's error");
            assertEquals(io.jato.stm.AbortCause.USER_ABORT, e.abortCause());
            assertEquals(Integer.valueOf(7), stm.atomic(t -> 7), "the thread runs transactions afterwards");
            assertFalse(Events.registered(), "a failed registration is not retried per transaction");
            assertEquals(1, stm.statistics().commits());
        } finally {
            Events.failNextRegistration = null;
            Events.resetForTests();
        }
        try (Recording r = new Recording()) {
            r.start();
            assertTrue(Events.registered(), "registered again after the reset");
        }
    }

    @Test
    void starvationIsReportedAt16And64And256AbortedAttempts() {
        List<Integer> marks = new java.util.ArrayList<>();
        for (int n = 1; n <= 5000; n++) {
            if (Events.isStarvationMark(n)) {
                marks.add(n);
            }
        }
        assertEquals(List.of(16, 64, 256, 1024, 4096), marks);
    }
}
