package io.jato.jmh.workloads;

import io.jato.stm.Stm;
import io.jato.workloads.CheckResult;
import io.jato.workloads.ParallelLoader;
import io.jato.workloads.UsageException;
import io.jato.workloads.Workload;
import io.jato.workloads.WorkloadSetup;

import java.io.PrintStream;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One trial's database: a runner workload ({@code tpcc}, {@code ycsb}) built from the runner's own
 * command line by {@link WorkloadSetup} and loaded by its {@link ParallelLoader}, so the JMH
 * benchmarks run exactly the runner's loaders, transactions and checks - there is no second copy
 * of TPC-C or YCSB here. After the trial {@link #check} runs the workload's consistency conditions
 * and invariants; a violation throws, which makes JMH fail the benchmark instead of printing its
 * score.
 */
final class WorkloadTrial {
    /** The trial this fork runs now: written by {@link #load}, read by {@link Attempts} (volatile). */
    private static volatile WorkloadTrial running;

    private final String commandLine;
    private final WorkloadSetup setup;
    /** Benchmark threads that have finished the trial ({@link #threadDone}); the last one checks. */
    private final AtomicInteger finished = new AtomicInteger();

    private WorkloadTrial(String commandLine, WorkloadSetup setup) {
        this.commandLine = commandLine;
        this.setup = setup;
    }

    /**
     * Builds and loads the workload {@code command} with {@code options}, loading on every core and
     * reporting progress to {@code progress}; then collects the loading's garbage, so the first
     * measured iteration does not pay for it.
     *
     * @throws IllegalArgumentException naming the command line and the runner's message, if the
     *                                  runner would refuse it
     */
    static WorkloadTrial load(String command, List<String> options, PrintStream progress) {
        String line = "jato " + command + " " + String.join(" ", options);
        WorkloadSetup setup;
        try {
            setup = WorkloadSetup.parse(command, options.toArray(new String[0]));
        } catch (UsageException e) {
            throw new IllegalArgumentException(line + ": " + e.getMessage(), e);
        }
        progress.println("[jato] loading: " + line);
        setup.workload().load(new ParallelLoader(setup.settings().loadThreads(), progress));
        System.gc();
        WorkloadTrial trial = new WorkloadTrial(line, setup);
        running = trial;
        return trial;
    }

    /**
     * @return the trial this fork runs now
     * @throws IllegalStateException if no workload benchmark's database was loaded in this JVM
     */
    static WorkloadTrial running() {
        WorkloadTrial t = running;
        if (t == null) {
            throw new IllegalStateException("no workload trial is running: Attempts counts the transactions of"
                    + " TpccBenchmark and YcsbBenchmark only");
        }
        return t;
    }

    /** @return the store the workload runs in */
    Stm stm() {
        return setup.stm();
    }

    /** @return the workload */
    Workload workload() {
        return setup.workload();
    }

    /** @return the worker of JMH thread {@code index}; call it on that thread */
    Workload.Worker worker(int index) {
        return setup.workload().newWorker(index);
    }

    /**
     * Called by each benchmark thread from its trial tear-down, after its last transaction; the
     * last of the workload's threads to call it runs {@link #check}. JMH's own tear-down of a
     * shared state may run while another thread still finishes the transaction it started in the
     * last iteration's wind-down, which a check would see half done; this waits for every thread
     * instead, and the atomic count orders every thread's plain writes before the check.
     */
    void threadDone(PrintStream out) {
        if (finished.incrementAndGet() == setup.settings().threads()) {
            check("after the trial", out);
        }
    }

    /**
     * Runs the workload's checks and prints their outcome with the store's counters.
     *
     * @throws IllegalStateException naming the phase, the command line and the violation, if a check fails
     */
    void check(String phase, PrintStream out) {
        CheckResult r = setup.workload().check();
        Stm stm = setup.stm();
        out.println("[jato] " + phase + ": " + commandLine + ": " + stm.statistics());
        if (!r.passed()) {
            throw new IllegalStateException(phase + ": " + commandLine + ": check FAILED: " + r.summary());
        }
        out.println("[jato] " + phase + ": check OK: " + r.summary());
    }

    @Override
    public String toString() {
        return Objects.toString(commandLine);
    }
}
