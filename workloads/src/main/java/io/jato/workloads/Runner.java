package io.jato.workloads;

import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/*
 * How a run is timed. The workers start together and run transactions back to back through three
 * phases that the main thread announces in one volatile field: WARMUP, MEASURE, STOP. A worker
 * reads the phase before each transaction and attributes the transaction to the phase it started
 * in, so a transaction running across the end of the measured interval is counted and the
 * interval's length is taken between the two phase changes. The store's counters are snapshotted
 * just before MEASURE and again after every worker has stopped; their difference is the abort
 * picture of the measured interval. Transactions straddling a boundary blur each edge by at most
 * one transaction per thread.
 *
 * What the workers share on the hot path: nothing they write. Each has its own WorkerStats
 * (padded counters and an HdrHistogram), merged after the threads are joined. The once-a-second
 * progress line reads the per-thread "done" counters with opaque loads and the store's counters
 * the same racy way the store sums them; neither stops a worker.
 *
 * Per transaction type. When the workload names types, a worker copies its own thread's store
 * counters (Stm.copyThreadCounters, no lock, no allocation) into preallocated arrays just before
 * and after each measured transaction and charges the difference - commits, aborted attempts by
 * cause - with the latency to the type the worker reports it ran. The copies sit outside the
 * timed region. A thread's counters change only in its own transactions, so the deltas are exact
 * for that transaction, unlike the store-wide snapshots at the phase changes.
 */

/**
 * Drives a {@link Workload}: loads it, requests a full GC (so that the loading's garbage is not
 * collected during the measurement), runs it on N worker threads for a warm-up and then a
 * measured duration while printing one progress line per second, checks it, and returns the
 * numbers as a {@link RunResult}.
 */
public final class Runner {
    private static final int IDLE = 0;
    private static final int WARMUP = 1;
    private static final int MEASURE = 2;
    private static final int STOP = 3;
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** What the run keeps in reserve for its failure path (see {@link #fail}). */
    private static final int RESERVE_BYTES = 8 << 20;

    /**
     * @param threads     worker threads
     * @param warmupNanos run time before measuring (may be 0)
     * @param durationNanos measured run time (positive)
     * @param loadThreads threads used for loading
     * @param interrupt   keep every worker's interrupt flag set: set before each transaction, so a
     *                    pending interrupt is always there (measures that it changes nothing)
     * @param warmupThreads how many of the workers run during the warm-up (1 to {@code threads});
     *                    the others start with the measured interval. Fewer warm-up threads than
     *                    measured ones compare thread counts warm and at the same database size:
     *                    with more threads than cores the JIT's compiler threads get less CPU, so
     *                    an oversubscribed warm-up takes longer
     */
    public record Settings(int threads, long warmupNanos, long durationNanos, int loadThreads, boolean interrupt,
                           int warmupThreads) {
        /** Settings without interrupts. */
        public Settings(int threads, long warmupNanos, long durationNanos, int loadThreads) {
            this(threads, warmupNanos, durationNanos, loadThreads, false);
        }

        /** Settings where every worker warms up. */
        public Settings(int threads, long warmupNanos, long durationNanos, int loadThreads, boolean interrupt) {
            this(threads, warmupNanos, durationNanos, loadThreads, interrupt, threads);
        }

        public Settings {
            if (threads < 1 || loadThreads < 1 || warmupNanos < 0 || durationNanos <= 0 || warmupThreads < 1
                    || warmupThreads > threads) {
                throw new IllegalArgumentException("bad runner settings: " + threads + " threads (" + warmupThreads
                        + " in the warm-up), " + loadThreads + " load threads, warm-up " + warmupNanos
                        + " ns, duration " + durationNanos + " ns");
            }
        }
    }

    private final Stm stm;
    private final Settings settings;
    private final PrintStream progress;
    private volatile int phase = IDLE;

    /*
     * The run's first failure. A worker that runs out of heap must still be able to report it, so
     * recording allocates nothing: a monitor and plain fields, not an AtomicReference (whose first
     * compareAndSet links a VarHandle call site in the interpreter, which allocates). Recording
     * also releases the reserve, so that stopping the run, wrapping the failure and Main's lines
     * find the little heap they need once the workers have taken the rest, and wakes the main
     * thread, so that the other workers stop before they take that too.
     */
    private final Object failureLock = new Object();
    /** The first failure, or null; guarded by {@link #failureLock}. */
    private Throwable failure;
    /** The worker that failed first, or -1 for the main thread; guarded by {@link #failureLock}. */
    private int failedWorker = -1;
    /** Heap held while the workers run and released on the first failure; guarded by {@link #failureLock}. */
    private byte[] reserve;
    /** The thread that runs {@link #run}, woken when a worker fails. */
    private Thread mainThread;

    /**
     * @param stm      the store the workload runs in (its counters are reported)
     * @param settings threads and timing
     * @param progress where the loading and running progress lines go
     */
    public Runner(Stm stm, Settings settings, PrintStream progress) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /**
     * Loads, runs and checks {@code workload}.
     *
     * @param seed recorded in the result (the workload derives its generators from it)
     * @throws RunFailure if loading failed (a loader thread, or the workload's own checks of what
     *                    it loads or recovers), a worker thread failed, or the heap ran out while the workers
     *                    ran or the check did; the first failure is the cause
     * @throws IllegalStateException if this runner has run before (a runner runs once)
     */
    public RunResult run(Workload workload, long seed) {
        if (phase != IDLE) {
            throw new IllegalStateException("a Runner runs once");
        }
        long loadStart = System.nanoTime();
        try {
            workload.load(new ParallelLoader(settings.loadThreads(), progress));
        } catch (RunFailure f) {
            throw f;
        } catch (RuntimeException e) {
            // E.g. a durable directory that holds another table: named in the message, exit 1.
            throw new RunFailure("loading failed", e);
        }
        long loadNanos = System.nanoTime() - loadStart;
        // Collect the loading's garbage and promote the table now, not during the measured run.
        long loadedHeap = heapUsedAfterGc();

        int n = settings.threads();
        List<String> types = List.copyOf(workload.transactionTypes());
        WorkerStats[] stats = new WorkerStats[n];
        mainThread = Thread.currentThread();
        try {
            synchronized (failureLock) {
                reserve = new byte[RESERVE_BYTES];
            }
        } catch (OutOfMemoryError e) {
            throw new RunFailure("the loaded workload leaves no heap to run in", e);
        }
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            int index = i;
            threads[i] = new Thread(() -> work(workload, types.size(), index, stats, ready, go),
                    "jato-worker-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        awaitUninterruptibly(ready);

        long start = System.nanoTime();
        Instant startedAt = Instant.now();
        List<RunResult.Second> series = new ArrayList<>();
        StmStatistics before = null;
        long measureStart = 0;
        long measureEnd;
        GcTotals gcAtStart = null;
        GcTotals gcAtEnd = null;
        if (settings.warmupNanos() == 0) {
            before = stm.statistics();
            gcAtStart = GcTotals.now();
            measureStart = System.nanoTime();
            phase = MEASURE;
        } else {
            phase = WARMUP;
        }
        go.countDown();

        long nextTick = start + SECOND;
        long lastTick = start;
        long lastDone = 0;
        StmStatistics lastStats = stm.statistics();
        for (;;) {
            if (failure() != null) {
                measureEnd = System.nanoTime();
                break;
            }
            try {
                long now = System.nanoTime();
                if (now - nextTick >= 0) {
                    // Before any phase change due now: the line describes the second that just ended.
                    long done = 0;
                    for (WorkerStats s : stats) {
                        done += s.doneOpaque();
                    }
                    StmStatistics st = stm.statistics();
                    StmStatistics d = st.minus(lastStats);
                    double throughput = (done - lastDone) * 1e9 / (now - lastTick);
                    progress.printf("%7.1fs  %-7s %,14.0f txn/s   abort rate %6.2f%%%n", (now - start) / 1e9,
                            phase == WARMUP ? "warm-up" : "run", throughput, 100 * d.abortRate());
                    series.add(new RunResult.Second((now - start) / 1e9, phase != WARMUP, throughput, d));
                    lastDone = done;
                    lastStats = st;
                    lastTick = now;
                    nextTick += SECOND;
                    if (now - nextTick >= 0) {
                        nextTick = now + SECOND;
                    }
                    continue;
                }
                if (phase == WARMUP && now - (start + settings.warmupNanos()) >= 0) {
                    before = stm.statistics();
                    gcAtStart = GcTotals.now();
                    measureStart = System.nanoTime();
                    phase = MEASURE;
                    continue;
                }
                if (phase == MEASURE && now - (measureStart + settings.durationNanos()) >= 0) {
                    measureEnd = System.nanoTime();
                    gcAtEnd = GcTotals.now();
                    break;
                }
                long phaseEnd = phase == WARMUP ? start + settings.warmupNanos()
                        : measureStart + settings.durationNanos();
                long wake = nextTick - phaseEnd < 0 ? nextTick : phaseEnd;
                LockSupport.parkNanos(Math.min(wake - now, 50_000_000L));
            } catch (OutOfMemoryError e) {
                // The progress lines and snapshots need a little heap. When the workers have taken it
                // all, stop them and report it as the run's failure, as a worker's would be.
                fail(e, -1);
            }
        }
        phase = STOP;
        for (Thread t : threads) {
            joinUninterruptibly(t);
        }
        Throwable failed;
        int failedIndex;
        synchronized (failureLock) {
            failed = failure;
            failedIndex = failedWorker;
            reserve = null;
        }
        if (failed != null) {
            throw failed instanceof RunFailure ? (RunFailure) failed
                    : new RunFailure(failedIndex < 0 ? "the runner failed while the workers ran"
                            : "worker " + failedIndex + " failed", failed);
        }
        StmStatistics after = stm.statistics();

        long commits = 0;
        long rolledBack = 0;
        Histogram latency = new Histogram(1, WorkerStats.HIGHEST_LATENCY_NANOS, 3);
        for (WorkerStats s : stats) {
            commits += s.commits;
            rolledBack += s.rolledBack;
            latency.add(s.latency);
        }
        List<RunResult.TypeResult> perType = mergeTypes(types, stats);

        progress.println("checking...");
        CheckResult check;
        try {
            check = workload.check();
        } catch (RuntimeException | OutOfMemoryError e) {
            // The check walks the grown database and may need the last of the heap: report it as
            // the run's failure, so that Main says the heap was too small.
            throw new RunFailure("the consistency check failed to run", e);
        }
        MemoryUsage end = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        // A run that ended early (a failure) has thrown above, so both snapshots exist here; were
        // one missing, the totals since the JVM started would be wrong for the interval: unknown.
        GcTotals gc = gcAtEnd != null && gcAtStart != null ? gcAtEnd.since(gcAtStart)
                : new GcTotals(GcTotals.now().collectors(), -1, -1);
        RunResult.Heap heap = new RunResult.Heap(end.getUsed(), loadedHeap, end.getMax(), gc);
        Map<String, Object> parameters = workload.parameters();
        if (settings.interrupt() || settings.warmupThreads() != n) {
            parameters = new LinkedHashMap<>(parameters);
            if (settings.interrupt()) {
                parameters.put("interrupt", true);
            }
            if (settings.warmupThreads() != n) {
                parameters.put("warmupThreads", settings.warmupThreads());
            }
        }
        return new RunResult(workload.name(), parameters, stm.protocol(), n, seed, loadNanos,
                measureStart - start, measureEnd - measureStart, commits, rolledBack, after.minus(before), latency,
                perType, check, heap, stm.protocols(),
                stm.protocols().size() > 1 ? workload.objectProtocols() : Map.of(), series, startedAt);
    }

    private static List<RunResult.TypeResult> mergeTypes(List<String> types, WorkerStats[] stats) {
        List<RunResult.TypeResult> merged = new ArrayList<>(types.size());
        for (int t = 0; t < types.size(); t++) {
            long commits = 0;
            long rolledBack = 0;
            long[] counters = new long[Stm.COUNTER_SLOTS];
            Histogram latency = new Histogram(1, WorkerStats.HIGHEST_LATENCY_NANOS, 3);
            for (WorkerStats s : stats) {
                commits += s.typeCommits[t];
                rolledBack += s.typeRolledBack[t];
                for (int i = 0; i < counters.length; i++) {
                    counters[i] += s.typeCounters[t * Stm.COUNTER_SLOTS + i];
                }
                latency.add(s.typeLatency[t]);
            }
            long[] byCause = new long[AbortCause.count()];
            System.arraycopy(counters, 2, byCause, 0, byCause.length);
            merged.add(new RunResult.TypeResult(types.get(t), commits, rolledBack,
                    new StmStatistics(counters[0], counters[1], byCause), latency));
        }
        return merged;
    }

    private void work(Workload workload, int types, int index, WorkerStats[] stats, CountDownLatch ready,
                      CountDownLatch go) {
        Workload.Worker worker;
        WorkerStats st;
        try {
            worker = workload.newWorker(index);
            st = new WorkerStats(types);
            stats[index] = st;
        } catch (Throwable t) {
            fail(new RunFailure("worker " + index + " could not start", t), index);
            // A dummy keeps the progress loop's and the merge's reads simple; the run ends at once.
            stats[index] = new WorkerStats(types);
            return;
        } finally {
            ready.countDown();
        }
        awaitUninterruptibly(go);
        if (index >= settings.warmupThreads()) {
            // Not a warm-up thread: start with the measured interval (a millisecond late at most).
            while (phase == WARMUP) {
                LockSupport.parkNanos(1_000_000L);
            }
        }
        final boolean interrupt = settings.interrupt();
        try {
            for (;;) {
                int p = phase;
                if (p == STOP) {
                    break;
                }
                boolean typed = p == MEASURE && types != 0;
                if (typed) {
                    stm.copyThreadCounters(st.countersBefore);
                }
                if (interrupt) {
                    Thread.currentThread().interrupt();
                }
                long t0 = System.nanoTime();
                boolean committed = worker.runOne();
                long t1 = System.nanoTime();
                if (p == MEASURE) {
                    if (committed) {
                        st.recordCommit(t1 - t0);
                    } else {
                        st.rolledBack++;
                    }
                    if (typed) {
                        stm.copyThreadCounters(st.countersAfter);
                        st.recordType(worker.lastType(), committed, t1 - t0);
                    }
                }
                st.finishedOpaque();
            }
        } catch (Throwable t) {
            // Nothing allocated here (see fail): with the heap exhausted a message would throw
            // again, and the thread would die with the failure unseen.
            fail(t, index);
        }
    }

    /** Records {@code t} as the run's failure unless one is recorded already; allocates nothing. */
    private void fail(Throwable t, int worker) {
        synchronized (failureLock) {
            if (failure == null) {
                failure = t;
                failedWorker = worker;
                reserve = null;
            }
        }
        LockSupport.unpark(mainThread);
    }

    /** @return the run's first failure, or null */
    private Throwable failure() {
        synchronized (failureLock) {
            return failure;
        }
    }

    private static long heapUsedAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        for (;;) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        for (;;) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
