package io.jato.protocols.suite.probe;

import io.jato.protocols.suite.ForwardingControl;
import io.jato.stm.AbortCause;
import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.TxnContext;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test-only protocol: OCC with {@link Capabilities.Feature#REMOTE_ABORT} declared, recording what
 * the commit driver calls (prepare, finish with its cause, retired states) and able to stop a
 * commit in prepare or in install, so tests can act on a transaction from another thread at a
 * chosen point. Registered by the test sources; its name starts with {@code test-}, which keeps it
 * out of the suites' protocol list.
 */
public final class ProbeProtocol implements Protocol {
    public static final String NAME = "test-probe";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "TEST ONLY: OCC that declares remote aborts and records the commit driver's calls";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE, Capabilities.Feature.REMOTE_ABORT);
    }

    /** The instance most recently created (a store mixing protocols hides its children behind its own control). */
    public static volatile Control lastCreated;

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        Control c = new Control(ForwardingControl.create("occ", context), context);
        lastCreated = c;
        return c;
    }

    /** The attempt a thread runs, as the probe saw it begin. */
    public static final class Running {
        public final TxnContext txn;
        /** Written by the owner at begin, read by the test's other threads. */
        public volatile long attemptId;

        Running(TxnContext txn) {
            this.txn = txn;
        }
    }

    /** One finish call: the outcome the driver reported. */
    public record Finish(boolean committed, AbortCause cause) {
    }

    /** The per-store instance; its fields are what tests arm and read. */
    public static final class Control extends ForwardingControl {
        public final ProtocolContext context;
        public final Map<Thread, Running> running = new ConcurrentHashMap<>();
        public final List<Finish> finishes = new CopyOnWriteArrayList<>();
        public final List<Object> retired = new CopyOnWriteArrayList<>();
        public final AtomicInteger prepares = new AtomicInteger();
        /** What the next prepare calls return (then reset to null); null lets them pass. */
        public volatile AbortCause prepareAnswer;
        /** When set, the next install counts {@code inInstall} down and waits for {@code releaseInstall}. */
        public volatile CountDownLatch inInstall;
        public volatile CountDownLatch releaseInstall;

        Control(ConcurrencyControl occ, ProtocolContext context) {
            super(occ);
            this.context = context;
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public void begin(TxnContext txn) {
            super.begin(txn);
            running.computeIfAbsent(Thread.currentThread(), t -> new Running(txn)).attemptId = txn.attemptId();
        }

        @Override
        public AbortCause prepare(TxnContext txn, long commitTimestamp) {
            prepares.incrementAndGet();
            AbortCause answer = prepareAnswer;
            if (answer != null) {
                prepareAnswer = null;
                return answer;
            }
            return super.prepare(txn, commitTimestamp);
        }

        @Override
        public void install(TxnContext txn, Entry e, long commitTimestamp) {
            CountDownLatch reached = inInstall;
            if (reached != null) {
                inInstall = null;
                reached.countDown();
                try {
                    if (!releaseInstall.await(20, TimeUnit.SECONDS)) {
                        throw new AssertionError("install was never released");
                    }
                } catch (InterruptedException ex) {
                    throw new AssertionError(ex);
                }
            }
            super.install(txn, e, commitTimestamp);
        }

        @Override
        public void finish(TxnContext txn, boolean committed, AbortCause cause) {
            finishes.add(new Finish(committed, cause));
            super.finish(txn, committed, cause);
        }

        @Override
        public void retireTxnState(Object state) {
            retired.add(state);
            super.retireTxnState(state);
        }
    }
}
