package io.jato.protocols.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/*
 * How a deterministic interleaving is forced, and why it never hangs.
 *
 * The anomaly suites step two or three threads through a schedule ("T1 reads x, then T2 commits,
 * then T1 writes") with named steps: a thread signal()s a step when it gets there, another
 * await()s it. Awaits happen INSIDE transaction bodies, and bodies re-run on retry, so the suites
 * coordinate only on the first attempt (txn.attempt() == 0).
 *
 * A schedule is only a wish. A pessimistic protocol (the global-lock oracle, a 2PL) makes it
 * impossible: T1 waits inside its transaction for T2's commit while T2 waits for T1's lock. So an
 * await also gives up when every other party is stuck - finished, parked or blocked somewhere else
 * than in this helper (a lock of the protocol), or itself waiting here - continuously for
 * STUCK_WINDOW; and in any case after STEP_TIMEOUT. The suites therefore never assume that the
 * schedule happened: what they assert (no lost update, no write skew, ...) must hold for every
 * interleaving. The schedule only makes the interesting interleaving happen whenever the protocol
 * lets it, which is what makes the broken protocol fail deterministically.
 */

/**
 * Runs a few threads through a chosen interleaving of named steps; see the essay above. Create one
 * per scenario, add the parties with {@link #thread}, then {@link #run}.
 */
public final class Interleaving {
    /** Longest wait for one step, whatever the other parties do. */
    static final long STEP_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long every other party must look stuck before an await gives up. */
    static final long STUCK_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** Default bound on a whole scenario. */
    static final long RUN_TIMEOUT_MILLIS = 60_000;

    private final Map<String, CountDownLatch> steps = new ConcurrentHashMap<>();
    private final List<Thread> parties = new ArrayList<>();
    private final Set<Thread> waitingHere = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final Set<String> missed = ConcurrentHashMap.newKeySet();
    private volatile boolean started;

    /** Adds a party; it starts when {@link #run} is called. */
    public Interleaving thread(String name, Runnable body) {
        if (started) {
            throw new IllegalStateException("parties must be added before run()");
        }
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        }, name);
        t.setDaemon(true);
        parties.add(t);
        return this;
    }

    /** @return the party threads added so far (started by {@link #run}) */
    public List<Thread> threads() {
        return List.copyOf(parties);
    }

    /** Marks {@code step} reached. */
    public void signal(String step) {
        latch(step).countDown();
    }

    /**
     * Waits until {@code step} is reached, or every other party is stuck, or the step timeout.
     *
     * @return true if the step was reached, false if the wait gave up (the schedule did not happen)
     */
    public boolean await(String step) {
        CountDownLatch latch = latch(step);
        Thread me = Thread.currentThread();
        waitingHere.add(me);
        try {
            long start = System.nanoTime();
            long stuckSince = 0;
            boolean stuckSeen = false;
            for (;;) {
                if (latch.await(1, TimeUnit.MILLISECONDS)) {
                    return true;
                }
                long now = System.nanoTime();
                if (othersStuck(me)) {
                    if (!stuckSeen) {
                        stuckSeen = true;
                        stuckSince = now;
                    } else if (now - stuckSince >= STUCK_WINDOW_NANOS) {
                        missed.add(step);
                        return false;
                    }
                } else {
                    stuckSeen = false;
                }
                if (now - start >= STEP_TIMEOUT_NANOS) {
                    missed.add(step);
                    return false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            missed.add(step);
            return false;
        } finally {
            waitingHere.remove(me);
        }
    }

    /** @return true if every await reached its step: the whole schedule happened as written */
    public boolean followedSchedule() {
        return missed.isEmpty();
    }

    /** Starts every party and waits for all of them, rethrowing the first failure. */
    public void run() {
        run(RUN_TIMEOUT_MILLIS);
    }

    /**
     * Starts every party and waits at most {@code timeoutMillis} for all of them.
     *
     * @throws AssertionError if a party is still running then (with its stack), or the first
     *                        failure of a party (later ones suppressed)
     */
    public void run(long timeoutMillis) {
        started = true;
        for (Thread t : parties) {
            t.start();
        }
        joinAll(parties, timeoutMillis);
        rethrow(failures);
    }

    /**
     * Waits for {@code threads}, failing with the stacks of those still running after
     * {@code timeoutMillis} (which are interrupted).
     */
    public static void joinAll(List<Thread> threads, long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try {
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    TimeUnit.NANOSECONDS.timedJoin(t, left);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the test threads", e);
        }
        StringBuilder hung = new StringBuilder();
        for (Thread t : threads) {
            if (t.isAlive()) {
                hung.append("\n  thread '").append(t.getName()).append("' (").append(t.getState()).append(')');
                for (StackTraceElement f : t.getStackTrace()) {
                    hung.append("\n      at ").append(f);
                }
                t.interrupt();
            }
        }
        if (hung.length() > 0) {
            throw new AssertionError("test threads did not finish within " + timeoutMillis + " ms:" + hung);
        }
    }

    /** Throws the first of {@code failures} (others suppressed), wrapped if it is checked. */
    public static void rethrow(Iterable<Throwable> failures) {
        Throwable first = null;
        for (Throwable t : failures) {
            if (first == null) {
                first = t;
            } else if (t != first) {
                first.addSuppressed(t);
            }
        }
        if (first instanceof Error) {
            throw (Error) first;
        }
        if (first instanceof RuntimeException) {
            throw (RuntimeException) first;
        }
        if (first != null) {
            throw new AssertionError("a test thread failed", first);
        }
    }

    private CountDownLatch latch(String step) {
        return steps.computeIfAbsent(step, s -> new CountDownLatch(1));
    }

    /** True if no other party can make progress before this one does something. */
    private boolean othersStuck(Thread me) {
        for (Thread p : parties) {
            if (p == me || waitingHere.contains(p)) {
                continue;
            }
            switch (p.getState()) {
                case NEW:
                case RUNNABLE:
                    return false;
                default:
                    // BLOCKED, WAITING, TIMED_WAITING outside this helper (a protocol's lock), or TERMINATED.
                    break;
            }
        }
        return true;
    }
}
