package io.jato.jmh;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What the {@code Peer*Benchmark} classes share: the base of their systems' states, the per-thread
 * tallies their end-of-trial checks sum, and the check itself. Each system's states are in its own
 * class ({@link JatoPeer}, {@link ScalaStmPeer}, {@link MultiversePeer}, {@link ClojurePeer},
 * {@link MvStorePeer}, {@link GlobalLockPeer}); {@code docs/peers.md} describes them.
 *
 * <p>A peer has no statistics a check could read, so each benchmark thread counts what it
 * committed in its own {@link Worker} state (one plain increment after the transaction returned,
 * never inside the body, so a retried attempt is not counted twice) and the shared state sums the
 * threads' counts after the trial. JMH runs a {@code Scope.Benchmark} state's trial tear-down after
 * every thread has left the measurement, so the sum sees every count.
 *
 * <p>Like {@link Trials}, a check prints one line and runs once at the end of its state's set-up
 * too, so its one-off costs fall outside the measurement.
 */
final class Peers {
    private Peers() {
    }

    /**
     * Prints {@code [peer] benchmark system, phase: detail} if {@code ok}.
     *
     * @throws IllegalStateException with the same text if not
     */
    static void check(boolean ok, String benchmark, String system, String phase, String detail) {
        String line = "[peer] " + benchmark + " " + system + ", " + phase + ": " + detail;
        if (!ok) {
            throw new IllegalStateException("invariant violated: " + line);
        }
        System.out.println(System.lineSeparator() + line);
    }

    /**
     * Base of a system's {@code Scope.Benchmark} state: its threads' tallies, and the check that
     * runs after the trial (a subclass's set-up runs it too, with phase {@code "after set-up"}).
     */
    public abstract static class Shared {
        final Tally tally = new Tally();
        private AutoCloseable resource;

        /** @return the system's name in the check lines: the name of its benchmark method */
        abstract String system();

        /** Prepares what {@link #load} needs beyond the benchmark's parameters; nothing by default. */
        void prepare() {
        }

        /** Creates and loads the system's values. */
        abstract void load();

        @Setup(Level.Trial)
        public void create() {
            prepare();
            load();
            check("after set-up");
        }

        /** @return {@code ", N conflicts retried"} where the threads counted retries, else empty */
        String retried() {
            long n = tally.retries();
            return n == 0 ? "" : ", " + n + " conflicts retried";
        }

        /**
         * Checks the benchmark's invariant and prints one line.
         *
         * @throws IllegalStateException if it does not hold
         */
        abstract void check(String phase);

        /** @return {@code r}, to be closed after the trial's check */
        <R extends AutoCloseable> R closeAfterTrial(R r) {
            resource = r;
            return r;
        }

        @TearDown(Level.Trial)
        public void checkTrial() {
            try {
                check("after the trial");
            } finally {
                if (resource != null) {
                    try {
                        resource.close();
                    } catch (Exception e) {
                        throw new IllegalStateException("closing " + resource, e);
                    }
                }
            }
        }
    }

    /**
     * A benchmark thread's state that counts what it committed; JMH creates it in its thread and
     * pads it, so threads do not share its cache line.
     */
    public abstract static class Worker {
        /** Transactions (or, where the benchmark says so, increments) committed by this thread. */
        long committed;
        /** Attempts this thread's peer reported as failed and retried, where the benchmark counts them. */
        long retries;
    }

    /** The workers of one shared state, registered at their set-up and summed by its checks. */
    static final class Tally {
        private final List<Worker> workers = new ArrayList<>();

        synchronized void add(Worker w) {
            workers.add(w);
        }

        /** @return the number of workers registered: the benchmark's thread count once the trial runs */
        synchronized int size() {
            return workers.size();
        }

        /** @return {@code count} summed over the workers */
        synchronized long sum(ToLongFunction<Worker> count) {
            long n = 0;
            for (Worker w : workers) {
                n += count.applyAsLong(w);
            }
            return n;
        }

        long committed() {
            return sum(w -> w.committed);
        }

        long retries() {
            return sum(w -> w.retries);
        }
    }
}
