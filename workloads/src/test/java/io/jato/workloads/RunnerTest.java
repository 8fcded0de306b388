package io.jato.workloads;

import io.jato.collections.TxLong;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.TxnAbortedException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runner's per-transaction-type figures, with a fake workload whose types behave known ways. */
class RunnerTest {
    private static final int THREADS = 2;
    private static final long MEASURE = TimeUnit.MILLISECONDS.toNanos(500);

    /**
     * Two types: "increment" read-modify-writes one hot counter (so the two workers conflict), and
     * "refused", every fourth transaction, reads it and calls {@code txn.abort()}.
     */
    private static final class TwoTypes implements Workload {
        final Stm stm;
        final TxLong hot;
        final List<String> types;
        final int badType;

        TwoTypes(Stm stm, List<String> types, int badType) {
            this.stm = stm;
            this.hot = new TxLong(stm, 0);
            this.types = types;
            this.badType = badType;
        }

        @Override
        public String name() {
            return "two-types";
        }

        @Override
        public Map<String, Object> parameters() {
            return new LinkedHashMap<>();
        }

        @Override
        public List<String> transactionTypes() {
            return types;
        }

        @Override
        public void load(Loader loader) {
        }

        @Override
        public Worker newWorker(int index) {
            return new Worker() {
                private long n;
                private int last;

                @Override
                public boolean runOne() {
                    if (n++ % 4 == 3) {
                        last = badType;
                        try {
                            stm.run(txn -> {
                                hot.get(txn);
                                throw txn.abort();
                            });
                            throw new AssertionError("committed");
                        } catch (TxnAbortedException e) {
                            return false;
                        }
                    }
                    last = 0;
                    stm.run(txn -> hot.set(txn, hot.get(txn) + 1));
                    return true;
                }

                @Override
                public int lastType() {
                    return last;
                }
            };
        }

        @Override
        public CheckResult check() {
            return CheckResult.ok("nothing to check");
        }
    }

    private static RunResult run(Stm stm, Workload w) {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        try (PrintStream p = new PrintStream(progress, true, StandardCharsets.UTF_8)) {
            return new Runner(stm, new Runner.Settings(THREADS, 0, MEASURE, 1), p).run(w, 3);
        }
    }

    private static String report(RunResult r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            Report.print(r, p);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void perTypeFiguresAddUpToTheTotalsAndAppearInBothReports() {
        Stm stm = Stm.create();
        RunResult r = run(stm, new TwoTypes(stm, List.of("increment", "refused"), 1));
        assertEquals(2, r.perType().size());
        RunResult.TypeResult inc = r.perType().get(0);
        RunResult.TypeResult refused = r.perType().get(1);
        assertEquals("increment", inc.name());
        assertEquals("refused", refused.name());

        // The workers' own counts split exactly.
        assertTrue(inc.commits() > 0, "nothing committed");
        assertEquals(r.commits(), inc.commits() + refused.commits());
        assertEquals(r.rolledBack(), inc.rolledBack() + refused.rolledBack());
        assertEquals(0, refused.commits());
        assertEquals(0, inc.rolledBack());
        assertTrue(refused.rolledBack() > 0, "nothing rolled back");
        assertEquals(r.latency().getTotalCount(), inc.latency().getTotalCount() + refused.latency().getTotalCount());
        assertEquals(inc.commits(), inc.latency().getTotalCount());

        // The store's counters, charged per type: one store transaction per runOne here.
        StmStatistics is = inc.statistics();
        StmStatistics rs = refused.statistics();
        assertEquals(inc.commits(), is.commits());
        assertEquals(is.commits() + is.aborts(), is.starts());
        assertEquals(0, is.aborts(AbortCause.USER_ABORT));
        assertEquals(0, rs.commits());
        assertEquals(refused.rolledBack(), rs.aborts(AbortCause.USER_ABORT));
        assertEquals(1.0, rs.abortRate());
        // ... and they sum to the store-wide interval, up to a transaction per thread at each edge.
        StmStatistics total = r.statistics();
        assertTrue(Math.abs(is.commits() + rs.commits() - total.commits()) <= 2 * THREADS, total + " vs " + is);
        assertTrue(Math.abs(rs.aborts(AbortCause.USER_ABORT) - total.aborts(AbortCause.USER_ABORT)) <= 2 * THREADS,
                total + " vs " + rs);

        String text = report(r);
        assertTrue(text.contains("per type"), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("  increment ")), text);
        // Every attempt aborts: mostly on purpose, a few retried after reading a locked counter.
        assertTrue(text.lines().anyMatch(l -> l.startsWith("  refused ") && l.contains("100.00%")
                && l.contains("USER_ABORT ")), text);
        assertTrue(text.indexOf("per type") > text.indexOf("latency "), "the table follows the overall lines");

        String json = Report.json(r);
        assertTrue(json.contains("\"per_type\": {"), json);
        assertTrue(json.contains("\"increment\": {\n      \"commits\": " + inc.commits() + ","), json);
        assertTrue(json.contains("\"refused\": {\n      \"commits\": 0,\n      \"rolled_back\": "
                + refused.rolledBack() + ","), json);
        assertTrue(json.contains("\"USER_ABORT\": " + rs.aborts(AbortCause.USER_ABORT)), json);
    }

    @Test
    void aWorkloadWithoutTypesHasNoPerTypeOutput() {
        Stm stm = Stm.create();
        RunResult r = run(stm, new TwoTypes(stm, List.of(), 0));
        assertTrue(r.perType().isEmpty());
        assertTrue(r.commits() > 0 && r.rolledBack() > 0, "ran both kinds");
        assertFalse(report(r).contains("per type"));
        assertFalse(Report.json(r).contains("per_type"));
    }

    @Test
    void aTypeIndexOutOfRangeFailsTheRun() {
        Stm stm = Stm.create();
        RunFailure f = assertThrows(RunFailure.class, () -> run(stm, new TwoTypes(stm, List.of("increment"), 1)));
        assertTrue(f.getCause().getMessage().contains("lastType() is 1, but the workload names 1 transaction types"),
                f.getCause()::getMessage);
    }

    /**
     * With fewer warm-up threads than workers, only the first ones run during the warm-up; the rest
     * run their first transaction once measuring has started.
     */
    @Test
    void onlyTheWarmUpThreadsRunDuringTheWarmUp() {
        Stm stm = Stm.create();
        int threads = 3;
        long warmup = TimeUnit.MILLISECONDS.toNanos(500);
        long[] firstRun = new long[threads];
        long[] runs = new long[threads];
        TwoTypes base = new TwoTypes(stm, List.of(), 0);
        Workload w = new Workload() {
            @Override
            public String name() {
                return "first-run";
            }

            @Override
            public Map<String, Object> parameters() {
                return new LinkedHashMap<>();
            }

            @Override
            public List<String> transactionTypes() {
                return List.of();
            }

            @Override
            public void load(Loader loader) {
            }

            @Override
            public Worker newWorker(int index) {
                Worker inner = base.newWorker(index);
                return new Worker() {
                    @Override
                    public boolean runOne() {
                        if (runs[index]++ == 0) {
                            firstRun[index] = System.nanoTime();
                        }
                        return inner.runOne();
                    }

                    @Override
                    public int lastType() {
                        return 0;
                    }
                };
            }

            @Override
            public CheckResult check() {
                return CheckResult.ok("nothing to check");
            }
        };
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        RunResult r;
        try (PrintStream p = new PrintStream(progress, true, StandardCharsets.UTF_8)) {
            r = new Runner(stm, new Runner.Settings(threads, warmup, MEASURE, 1, false, 1), p).run(w, 3);
        }
        assertTrue(runs[0] > 0, "the warm-up thread ran");
        for (int i = 1; i < threads; i++) {
            assertTrue(runs[i] > 0, "worker " + i + " ran in the measured interval");
            // Without the option every worker starts within milliseconds of the others; half the
            // warm-up leaves room for a slow start of worker 0 on a loaded machine.
            assertTrue(firstRun[i] - firstRun[0] >= warmup / 2,
                    "worker " + i + " started " + (firstRun[i] - firstRun[0]) / 1e6 + " ms after worker 0");
        }
        assertEquals(1, r.parameters().get("warmupThreads"));
        assertThrows(IllegalArgumentException.class, () -> new Runner.Settings(2, warmup, MEASURE, 1, false, 3));
        assertThrows(IllegalArgumentException.class, () -> new Runner.Settings(2, warmup, MEASURE, 1, false, 0));
    }
}
