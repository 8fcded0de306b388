package io.jato.workloads.tpcc;

import io.jato.durable.DurableStore;
import io.jato.workloads.CheckResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kills a durable TPC-C run ({@link TpccProcess}, durable mode, background checkpoints) with
 * SIGKILL at random points, recovering after each: every new-order and payment acknowledged as
 * durable must be there (its ORDER row, its HISTORY row), and consistency conditions 1-10 and 12
 * must hold on what was recovered — so nothing is there in part.
 *
 * <p>Cycles: {@code jato.stress.scale} (CI: 1, about 40 s with the first load on the 2-core
 * guest); run a larger one by hand with {@code -Djato.stress.scale=20}.
 */
@Timeout(1800)
@Tag("durable-integration")
class TpccKillRecoverTest {
    @TempDir
    Path dir;

    @Test
    void acknowledgedTransactionsSurviveSigkillAndTheConditionsHold() throws Exception {
        int cycles = Math.max(1, Integer.getInteger("jato.stress.scale", 1));
        Set<Long> orders = ConcurrentHashMap.newKeySet();
        Map<Integer, Long> history = new ConcurrentHashMap<>();
        for (int c = 0; c < cycles; c++) {
            runAndKill(c, orders, history);
            check(c, orders, history);
        }
        System.out.println("TpccKillRecoverTest: " + cycles + " SIGKILL cycles, " + orders.size()
                + " new-orders and " + history.values().stream().mapToLong(h -> h + 1).sum()
                + " payments acknowledged as durable");
        assertTrue(!orders.isEmpty() && !history.isEmpty(), "nothing was acknowledged in " + cycles + " cycles");
    }

    private void runAndKill(int cycle, Set<Long> orders, Map<Integer, Long> history) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        for (String flag : DurableStore.REQUIRED_JVM_FLAGS) {
            cmd.addAll(Arrays.asList(flag.split("\\s+")));
        }
        cmd.addAll(List.of("-Dchronicle.analytics.disable=true", "-Xmx1500m", "-cp",
                System.getProperty("java.class.path"), TpccProcess.class.getName(), dir.toString(),
                cycle % 2 == 0 ? "700" : "0"));
        File err = dir.resolveSibling(dir.getFileName() + "-tpcc-" + cycle + ".err").toFile();
        Process p = new ProcessBuilder(cmd).redirectError(err).start();
        CountDownLatch ready = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    String[] f = line.split(" ");
                    if (line.equals("READY")) {
                        ready.countDown();
                    } else if (f[0].equals("ORDER") && f.length == 2) {
                        orders.add(Long.parseLong(f[1]));
                    } else if (f[0].equals("HISTORY") && f.length == 3) {
                        history.merge(Integer.parseInt(f[1]), Long.parseLong(f[2]), Math::max);
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // Killed mid-line: what was read whole is what was acknowledged.
            }
        });
        reader.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            while (!ready.await(200, TimeUnit.MILLISECONDS)) {
                assertTrue(p.isAlive() && System.nanoTime() < deadline, "TPC-C did not start; see " + err);
            }
            Thread.sleep(ThreadLocalRandom.current().nextLong(300, 2500));
        } finally {
            p.destroyForcibly(); // SIGKILL on Linux
            p.waitFor();
            reader.join();
        }
    }

    private void check(int cycle, Set<Long> orders, Map<Integer, Long> history) {
        TpccWorkload w = TpccProcess.recovering(dir);
        w.load(TpccProcess.loader());
        TpccDatabase db = w.database();
        List<Long> missing = new ArrayList<>();
        for (long key : orders) {
            if (db.order.single().get(key) == null) {
                missing.add(key);
            }
        }
        Set<String> lost = new HashSet<>();
        history.forEach((source, seq) -> {
            if (db.history.single().get(TpccKeys.history(source, seq)) == null) {
                lost.add(source + "/" + seq);
            }
        });
        CheckResult r = w.check(); // consistency conditions, nothing locked; closes the store
        assertTrue(missing.isEmpty(), "cycle " + cycle + ": acknowledged new-orders missing after recovery: "
                + missing.subList(0, Math.min(10, missing.size())));
        assertTrue(lost.isEmpty(), "cycle " + cycle + ": acknowledged payments missing after recovery: " + lost);
        assertTrue(r.passed(), "cycle " + cycle + ": " + r.summary());
    }
}
