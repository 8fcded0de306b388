package io.jato.jmh.workloads;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.util.Collection;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the workload benchmarks through JMH itself (in this JVM, one short iteration): a correct
 * protocol reports a score with its commits and aborts beside it, and a protocol that loses updates
 * reports no score at all, because the workload's check after the trial fails the benchmark.
 */
class WorkloadBenchmarksTest {
    /** A short in-process run of {@code benchmark} at {@code threads} threads with {@code params}. */
    private static Collection<RunResult> run(Class<?> benchmark, int threads, Map<String, String> params)
            throws RunnerException {
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include("^" + benchmark.getName().replace(".", "\\.") + "\\.")
                .forks(0)
                .threads(threads)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(500))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT);
        params.forEach(o::param);
        return new Runner(o.build()).run();
    }

    private static double secondary(RunResult r, String name) {
        Result<?> s = r.getSecondaryResults().get(name);
        assertTrue(s != null, "secondary result " + name + " present: " + r.getSecondaryResults().keySet());
        return s.getScore();
    }

    /** On a store mixing protocols per table: payments span occ and tictoc objects. */
    @Test
    void tpccReportsThroughputWithCommitsAndAbortsBesideIt() throws RunnerException {
        Collection<RunResult> results = run(TpccBenchmark.class, 2,
                Map.of("protocol", "occ+customer=tictoc+warehouse=tictoc", "mode", "base", "warehouses", "1",
                        "mix", "payment"));
        assertEquals(1, results.size());
        RunResult r = results.iterator().next();
        assertTrue(r.getPrimaryResult().getScore() > 0, "a throughput");
        assertTrue(secondary(r, "commits") > 0, "payments committed");
        double aborts = secondary(r, "aborts");
        double byCause = 0;
        for (String k : r.getSecondaryResults().keySet()) {
            if (k.startsWith("abort") && !k.equals("aborts")) {
                byCause += secondary(r, k);
            }
        }
        assertEquals(aborts, byCause, "the causes add up to the aborts");
    }

    @Test
    void ycsbReportsThroughputWithCommitsBesideIt() throws RunnerException {
        Collection<RunResult> results = run(YcsbBenchmark.class, 2,
                Map.of("protocol", "occ", "workload", "txn16-high", "records", "1000"));
        RunResult r = results.iterator().next();
        assertTrue(r.getPrimaryResult().getScore() > 0, "a throughput");
        assertTrue(secondary(r, "commits") > 0, "transactions committed");
    }

    /**
     * The negative control: a protocol that never validates loses increments on a hot 10-row table
     * at four threads, the check after the trial sees it, and JMH reports a failure, not a score.
     */
    @Test
    void aProtocolThatLosesUpdatesGetsNoScore() {
        RunnerException e = assertThrows(RunnerException.class, () -> run(YcsbBenchmark.class, 4,
                Map.of("protocol", "test-broken-no-validation", "workload", "a", "theta", "0.9",
                        "records", "10")));
        assertTrue(hasCheckFailure(e), "the failure is the check's: " + e);
    }

    private static boolean hasCheckFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (String.valueOf(c.getMessage()).contains("check FAILED")) {
                return true;
            }
            for (Throwable s : c.getSuppressed()) {
                if (hasCheckFailure(s)) {
                    return true;
                }
            }
        }
        return false;
    }
}
