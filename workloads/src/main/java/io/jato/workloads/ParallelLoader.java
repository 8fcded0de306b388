package io.jato.workloads;

import java.io.PrintStream;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Loads a workload on several threads, in chunks handed out by a shared cursor, printing progress
 * once a second. Loading is not measured, so the threads may share the cursor and counters freely.
 * {@link #parallelFor} returns only when every chunk is done and rethrows the first failure as a
 * {@link RunFailure} (the other threads stop taking chunks).
 */
public final class ParallelLoader implements Workload.Loader {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final int threads;
    private final PrintStream progress;

    /**
     * @param threads  loading threads, at least 1
     * @param progress where the progress lines go
     */
    public ParallelLoader(int threads, PrintStream progress) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        this.threads = threads;
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    @Override
    public int threads() {
        return threads;
    }

    @Override
    public void parallelFor(String what, int count, Workload.RangeBody body) {
        int n = threads;
        int chunk = Math.max(1, Math.min(16_384, count / (n * 8)));
        AtomicInteger cursor = new AtomicInteger();
        AtomicLong completed = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] loaders = new Thread[n];
        for (int i = 0; i < n; i++) {
            loaders[i] = new Thread(() -> {
                try {
                    for (;;) {
                        int from = cursor.getAndAdd(chunk);
                        if (from >= count || from < 0 || failure.get() != null) {
                            return;
                        }
                        int to = Math.min(count, from + chunk);
                        body.run(from, to);
                        completed.addAndGet(to - from);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "jato-loader-" + i);
            loaders[i].setDaemon(true);
            loaders[i].start();
        }
        long start = System.nanoTime();
        long nextTick = start + SECOND;
        for (Thread t : loaders) {
            while (t.isAlive()) {
                long now = System.nanoTime();
                if (now - nextTick >= 0) {
                    long c = completed.get();
                    progress.printf("%7.1fs  load    %,d / %,d %s (%.0f%%)%n", (now - start) / 1e9, c, (long) count,
                            what, 100.0 * c / Math.max(1, count));
                    nextTick += SECOND;
                    if (now - nextTick >= 0) {
                        nextTick = now + SECOND;
                    }
                }
                long wait = Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextTick - now));
                try {
                    t.join(Math.min(wait, 50));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure.compareAndSet(null, e);
                }
            }
        }
        Throwable t = failure.get();
        if (t != null) {
            throw new RunFailure("loading " + what + " failed", t);
        }
        progress.printf("%7.1fs  loaded  %,d %s%n", (System.nanoTime() - start) / 1e9, (long) count, what);
    }
}
