package io.jato.workloads.ycsb;

import io.jato.stm.Stm;
import io.jato.workloads.CheckResult;
import io.jato.workloads.Main;
import io.jato.workloads.ParallelLoader;
import io.jato.workloads.RunResult;
import io.jato.workloads.Runner;
import io.jato.workloads.Workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Short real runs: every mix on two threads passes its invariant, and the check catches a lost update. */
class YcsbRunTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private static RunResult run(Stm stm, YcsbWorkload w, long seed) {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        try (PrintStream p = new PrintStream(progress, true, StandardCharsets.UTF_8)) {
            return new Runner(stm, new Runner.Settings(2, 0, SECOND, 2), p).run(w, seed);
        }
    }

    @ParameterizedTest
    @EnumSource(YcsbMix.class)
    void everyMixPassesItsCheck(YcsbMix mix) {
        Stm stm = Stm.builder().protocol("occ").build();
        YcsbWorkload w = new YcsbWorkload(stm, new YcsbWorkload.Config(mix, 2_000, mix.defaultTheta(),
                mix.defaultWriteRatio(), 10, 11));
        RunResult r = run(stm, w, 11);
        assertTrue(r.check().passed(), r.check().summary());
        assertTrue(r.commits() > 0, "nothing committed");
        assertEquals(r.commits(), r.latency().getTotalCount());
        assertTrue(r.measuredNanos() >= SECOND, "measured " + r.measuredNanos());
        // The store's commits over the interval agree with the workers' count up to the edges.
        assertTrue(Math.abs(r.statistics().commits() - r.commits()) <= 2 * r.threads(),
                r.statistics() + " vs " + r.commits());
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"coarse,false", "split,false", "coarse,true", "split,true"})
    void recordLayoutsPassTheCheckUnderContention(String layout, boolean blind) {
        Stm stm = Stm.builder().protocol("occ").statistics(true).build();
        YcsbWorkload w = new YcsbWorkload(stm, new YcsbWorkload.Config(YcsbMix.TXN16, 1_000, 0.9, 0.5, 10,
                YcsbLayout.byCliName(layout), blind, 13));
        RunResult r = run(stm, w, 13);
        assertTrue(r.check().passed(), r.check().summary());
        assertTrue(r.commits() > 0, "nothing committed");
    }

    @Test
    void rankedKeysMakeTheFirstKeysTheHottest() {
        Stm stm = Stm.create();
        YcsbWorkload w = new YcsbWorkload(stm, new YcsbWorkload.Config(YcsbMix.TXN16, 1_000, 0.99, 0.5, 10,
                YcsbLayout.COARSE, false, false, 3));
        w.load(new ParallelLoader(1, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        long[] before = new long[1_000];
        for (int k = 0; k < before.length; k++) {
            before[k] = columnSum(w, k);
        }
        Workload.Worker worker = w.newWorker(0);
        for (int i = 0; i < 2_000; i++) {
            worker.runOne();
        }
        // Zipf 0.99 over 1,000 keys: rank 0 takes ~13% of the draws, rank 500 ~0.03%. Scrambled,
        // rank 0 would be some other key.
        long hot = columnSum(w, 0) - before[0];
        for (int k = 500; k < before.length; k++) {
            assertTrue(hot > columnSum(w, k) - before[k], "key 0 grew " + hot + ", key " + k + " grew more");
        }
        assertTrue(w.check().passed(), w.check().summary());
    }

    private static long columnSum(YcsbWorkload w, long key) {
        YcsbRow.Image im = w.records().single().get(key).single().get();
        long sum = 0;
        for (int c = 0; c < YcsbColumns.COUNT; c++) {
            sum += YcsbColumns.get(im, c);
        }
        return sum;
    }

    @Test
    void checkDetectsALostIncrementInARecord() {
        Stm stm = Stm.create();
        YcsbWorkload w = new YcsbWorkload(stm, new YcsbWorkload.Config(YcsbMix.TXN16, 500, 0.9, 0.5, 10,
                YcsbLayout.SPLIT, true, 5));
        RunResult r = new Runner(stm, new Runner.Settings(2, 0, SECOND / 4, 1),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run(w, 5);
        assertTrue(r.check().passed(), r.check().summary());
        YcsbRow row = w.records().single().get(0L);
        YcsbRow.Image im = row.single().get();
        im.setC3(im.c3() - 1);
        row.single().set(im);
        CheckResult broken = w.check();
        assertFalse(broken.passed(), broken.summary());
    }

    @Test
    void checkDetectsALostIncrement() {
        Stm stm = Stm.create();
        YcsbWorkload w = new YcsbWorkload(stm, new YcsbWorkload.Config(YcsbMix.TXN16, 500, 0.9, 0.5, 10, 5));
        RunResult r = new Runner(stm, new Runner.Settings(2, 0, SECOND / 4, 1),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run(w, 5);
        assertTrue(r.check().passed(), r.check().summary());
        // Undo one increment behind the workers' backs: the sums no longer match.
        Long key = 0L;
        long[] row = w.table().single().get(key).clone();
        int column = -1;
        for (int c = 0; c < row.length && column < 0; c++) {
            if (row[c] > YcsbWorkload.initialValue(0, c, row.length)) {
                column = c;
            }
        }
        if (column < 0) {
            row[3]++;
        } else {
            row[column]--;
        }
        w.table().single().put(key, row);
        CheckResult broken = w.check();
        assertFalse(broken.passed(), broken.summary());
    }

    @Test
    void mainRunsAndWritesJson(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("r.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Main.run(new String[] {"ycsb", "--mix=b", "--records", "1k", "--threads", "2", "--duration",
                    "0.5", "--warmup", "0.2", "--seed", "3", "--json", json.toString()}, o, e);
        }
        String report = out.toString(StandardCharsets.UTF_8);
        assertEquals(Main.EXIT_OK, status, report + err.toString(StandardCharsets.UTF_8));
        assertTrue(report.contains("throughput"), report);
        assertTrue(report.contains("check        OK"), report);
        String text = Files.readString(json);
        assertTrue(text.contains("\"workload\": \"ycsb\""), text);
        assertTrue(text.contains("\"mix\": \"b\""), text);
        assertTrue(text.contains("\"passed\": true"), text);
        assertTrue(text.contains("\"p99_9\": "), text);
    }
}
