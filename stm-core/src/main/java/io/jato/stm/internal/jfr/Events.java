package io.jato.stm.internal.jfr;

import io.jato.stm.AbortCause;
import io.jato.stm.TxnType;

/**
 * Where the core emits its JFR events ({@link AbortEvent}, {@link TransactionEvent},
 * {@link StarvingEvent}); {@code docs/observability.md} says how to record and read them.
 *
 * <p>Guarantees:
 * <ul>
 *   <li><b>Nothing until a recording exists.</b> Until the JVM's Flight Recorder has been
 *       initialized (a recording started, by {@code -XX:StartFlightRecording}, {@code jcmd
 *       JFR.start} or the API), the per-transaction check is a read of a null field and of JFR's
 *       own initialized flag, and no JFR class of Jato's is loaded or registered (registering
 *       costs tens of milliseconds once, which a store that is never recorded must not pay). The
 *       first transaction after a recording starts registers the events.</li>
 *   <li><b>No allocation when an event is off</b>: an event object is created only when a
 *       recording has it enabled.</li>
 *   <li><b>Never fails a transaction.</b> An event that cannot be recorded (any throwable while
 *       registering, filling or committing it, {@code OutOfMemoryError} included) is dropped:
 *       telemetry must not turn a commit into an exception or stop a rollback half-way. If the
 *       registration itself fails, the JVM runs without Jato's events from then on.</li>
 *   <li>Works without the {@code jdk.jfr} module (a trimmed runtime image): everything is then a
 *       no-op. Signatures carry no JFR type, so the callers load none.</li>
 * </ul>
 */
public final class Events {
    /** Whether the runtime has JFR at all; decided once. */
    private static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    /** The events' JFR types once registered (see the class comment); null before. */
    private static volatile Jfr jfr;

    private Events() {
    }

    /**
     * @return the registered events if a recording has ever started in this JVM, else null; the
     *         first call after that registers them
     */
    private static Jfr jfr() {
        Jfr j = jfr;
        if (j != null || !AVAILABLE || registrationFailed) {
            return j;
        }
        try {
            return Jfr.ifStarted();
        } catch (Throwable t) {
            // Registration runs inside a transaction (even inside a rollback, before its locks are
            // released): it must not throw there. A JVM that cannot register the events - out of
            // memory at that moment, or a JFR that refuses them - runs without them from now on,
            // rather than paying a failed registration per transaction.
            registrationFailed = true;
            return null;
        }
    }

    /** Set once if registering the events threw (see {@link #jfr()}); never cleared but by tests. */
    private static volatile boolean registrationFailed;

    /** For tests: the next registration throws this instead of registering. */
    static volatile Error failNextRegistration;

    /** For tests: forgets the registration and its failure, so the next call registers again. */
    static synchronized void resetForTests() {
        jfr = null;
        registrationFailed = false;
    }

    /**
     * Starts the event of a transaction about to run its first attempt. Like every method here,
     * never throws.
     *
     * @return an opaque handle for {@link #endTransaction}, or null when no recording wants it
     */
    public static Object beginTransaction() {
        Jfr j = jfr();
        if (j == null) {
            return null;
        }
        try {
            return j.beginTransaction();
        } catch (Throwable dropped) {
            return null;
        }
    }

    /**
     * Ends the event {@link #beginTransaction} returned (no-op for null); committed if it lasted at
     * least the recording's threshold.
     */
    public static void endTransaction(Object event, String store, String protocol, TxnType type, int attempts,
                                      String outcome, boolean readOnly) {
        if (event == null) {
            return;
        }
        try {
            Jfr.endTransaction(event, store, protocol, type, attempts, outcome, readOnly);
        } catch (Throwable dropped) {
            // See the class comment: an event is never worth a failed transaction.
        }
    }

    /** Records that an attempt rolled back, if a recording wants it. */
    public static void abort(String store, String protocol, TxnType type, AbortCause cause, int attempt) {
        Jfr j = jfr();
        if (j == null) {
            return;
        }
        try {
            j.abort(store, protocol, type, cause, attempt);
        } catch (Throwable dropped) {
            // See the class comment.
        }
    }

    /**
     * @param abortedAttempts aborted attempts so far
     * @return whether {@code abortedAttempts} is one at which a still-retrying transaction is
     *         reported starving: 16, 64, 256, ... (powers of four from 16)
     */
    public static boolean isStarvationMark(int abortedAttempts) {
        return abortedAttempts >= 16 && Integer.bitCount(abortedAttempts) == 1
                && (Integer.numberOfTrailingZeros(abortedAttempts) & 1) == 0;
    }

    /** Records a transaction still retrying after {@code abortedAttempts}, if a recording wants it. */
    public static void starving(String store, String protocol, TxnType type, int abortedAttempts, AbortCause lastCause,
                                long retryingNanos) {
        Jfr j = jfr();
        if (j == null) {
            return;
        }
        try {
            j.starving(store, protocol, type, abortedAttempts, lastCause, retryingNanos);
        } catch (Throwable dropped) {
            // See the class comment.
        }
    }

    /** For tests: registers the events now if JFR is initialized; returns whether they are. */
    public static boolean registered() {
        return jfr() != null;
    }

    /**
     * The JFR side, loaded only when JFR is available and initialized. Kept in its own class so
     * that {@link Events}, which every transaction calls, refers to no JFR type.
     */
    private static final class Jfr {
        private final jdk.jfr.EventType abort = jdk.jfr.EventType.getEventType(AbortEvent.class);
        private final jdk.jfr.EventType transaction = jdk.jfr.EventType.getEventType(TransactionEvent.class);
        private final jdk.jfr.EventType starving = jdk.jfr.EventType.getEventType(StarvingEvent.class);

        /** Registers the events once JFR is initialized; until then a volatile read of JFR's flag. */
        static Jfr ifStarted() {
            if (!jdk.jfr.FlightRecorder.isInitialized()) {
                return null;
            }
            synchronized (Jfr.class) {
                Jfr j = jfr;
                if (j == null) {
                    Error fail = failNextRegistration;
                    if (fail != null) {
                        failNextRegistration = null;
                        throw fail;
                    }
                    j = new Jfr();
                    jfr = j;
                }
                return j;
            }
        }

        Object beginTransaction() {
            if (!transaction.isEnabled()) {
                return null;
            }
            TransactionEvent e = new TransactionEvent();
            e.begin();
            return e;
        }

        static void endTransaction(Object event, String store, String protocol, TxnType type, int attempts,
                                   String outcome, boolean readOnly) {
            TransactionEvent e = (TransactionEvent) event;
            e.end();
            if (e.shouldCommit()) {
                fill(e, store, protocol, type);
                e.attempts = attempts;
                e.outcome = outcome;
                e.readOnly = readOnly;
                e.commit();
            }
        }

        void abort(String store, String protocol, TxnType type, AbortCause cause, int attempt) {
            if (!abort.isEnabled()) {
                return;
            }
            AbortEvent e = new AbortEvent();
            if (e.shouldCommit()) {
                fill(e, store, protocol, type);
                e.cause = cause.name();
                e.attempt = attempt;
                e.commit();
            }
        }

        void starving(String store, String protocol, TxnType type, int abortedAttempts, AbortCause lastCause,
                      long retryingNanos) {
            if (!starving.isEnabled()) {
                return;
            }
            StarvingEvent e = new StarvingEvent();
            if (e.shouldCommit()) {
                fill(e, store, protocol, type);
                e.abortedAttempts = abortedAttempts;
                e.lastCause = lastCause == null ? null : lastCause.name();
                e.retryingFor = retryingNanos;
                e.commit();
            }
        }

        private static void fill(StoreEvent e, String store, String protocol, TxnType type) {
            e.store = store;
            e.protocol = protocol;
            e.transactionType = type.name();
        }
    }
}
