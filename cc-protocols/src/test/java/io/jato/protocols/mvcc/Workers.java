package io.jato.protocols.mvcc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** Runs numbered worker threads to the end and fails with the first throwable any of them threw. */
final class Workers {
    /** One worker's body; {@code k} is its number, from 0. */
    interface Worker {
        void run(int k) throws Exception;
    }

    private Workers() {
    }

    static void run(int threads, Worker w) throws Exception {
        List<Thread> ts = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int k = 0; k < threads; k++) {
            int id = k;
            Thread t = new Thread(() -> {
                try {
                    w.run(id);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "worker-" + k);
            ts.add(t);
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a worker failed: " + failure.get(), failure.get());
        }
    }
}
