package io.jato.workloads.tpcc;

import io.jato.workloads.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** A {@link Workload.Loader} for tests: chunks of one unit over {@code threads} threads, recording what it loaded. */
final class ThreadsLoader implements Workload.Loader {
    private final int threads;
    final List<String> phases = new ArrayList<>();

    ThreadsLoader(int threads) {
        this.threads = threads;
    }

    @Override
    public int threads() {
        return threads;
    }

    @Override
    public void parallelFor(String what, int count, Workload.RangeBody body) {
        phases.add(what + " " + count);
        int chunk = Math.max(1, count / (threads * 8));
        AtomicInteger cursor = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            ts[i] = new Thread(() -> {
                try {
                    for (int from = cursor.getAndAdd(chunk); from < count; from = cursor.getAndAdd(chunk)) {
                        body.run(from, Math.min(count, from + chunk));
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("loading " + what + " failed", failure.get());
        }
    }
}
