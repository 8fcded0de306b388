package io.jato.jmh.workloads;

import io.jato.workloads.Workload;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What every workload benchmark keeps per thread: the runner's worker for the JMH thread's index
 * (its own generators and counters, confined to the thread), and the trial it belongs to. The
 * subclass, a {@code Scope.Thread} state, creates it in its trial set-up from its benchmark's
 * shared database state.
 */
public abstract class WorkerState {
    Workload.Worker worker;
    WorkloadTrial trial;

    /** Creates this thread's worker; call it on the benchmark thread. */
    final void start(WorkloadTrial shared, int threadIndex) {
        trial = shared;
        worker = shared.worker(threadIndex);
    }

    /** The last thread to finish checks the workload's invariants (a violation fails the benchmark). */
    @TearDown(Level.Trial)
    public void done() {
        trial.threadDone(System.out);
    }
}
