package io.jato.durable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kills a {@link BankProcess} with SIGKILL at random points, many times, recovering after each:
 * every transfer acknowledged as durable must be present, and the balances must be exactly those
 * of the transfers the recovered progress counters say committed — so no transfer is missing,
 * none is there in part, none is there beyond its thread's counter.
 *
 * <p>Cycles: 3 × {@code jato.stress.scale} (CI: 3, about 10 s on the 2-core guest); run a larger
 * one by hand with {@code -Djato.stress.scale=30}.
 */
class KillRecoverTest {
    private static final int THREADS = 2;
    private static final int ACCOUNTS = 16;

    @TempDir
    Path dir;

    @Test
    void acknowledgedTransfersSurviveSigkill() throws Exception {
        int scale = Integer.getInteger("jato.stress.scale", 1);
        int cycles = 3 * Math.max(1, scale);
        long[] acked = new long[THREADS];
        for (int c = 0; c < cycles; c++) {
            long[] now = runAndKill(c);
            for (int t = 0; t < THREADS; t++) {
                acked[t] = Math.max(acked[t], now[t]); // durable once means durable in every later cycle
            }
            check(acked, c);
        }
        long total = Arrays.stream(acked).sum();
        System.out.println("KillRecoverTest: " + cycles + " SIGKILL cycles, " + total
                + " transfers acknowledged as durable in all (the threads' last acknowledged numbers)");
        assertTrue(total > 0, "no transfer was acknowledged in " + cycles + " cycles");
    }

    /** Starts the bank, lets it run a random while after recovery, kills it; returns the last ACK per thread. */
    private long[] runAndKill(int cycle) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        String flags = System.getProperty("jato.durable.jvmFlags", String.join(" ", DurableStore.REQUIRED_JVM_FLAGS));
        cmd.addAll(Arrays.asList(flags.trim().split("\\s+")));
        cmd.addAll(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                BankProcess.class.getName(), dir.toString(), String.valueOf(THREADS), String.valueOf(ACCOUNTS),
                cycle % 2 == 0 ? "100" : "0"));
        File err = dir.resolveSibling(dir.getFileName() + "-bank-" + cycle + ".err").toFile();
        Process p = new ProcessBuilder(cmd).redirectError(err).start();
        AtomicLongArray acked = new AtomicLongArray(THREADS);
        CountDownLatch ready = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("READY")) {
                        ready.countDown();
                    } else if (line.startsWith("ACK ")) {
                        String[] f = line.split(" ");
                        int t = Integer.parseInt(f[1]);
                        long n = Long.parseLong(f[2]);
                        acked.accumulateAndGet(t, n, Math::max);
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // The process was killed mid-line: what was read is what was acknowledged.
            }
        });
        reader.start();
        try {
            assertTrue(ready.await(60, TimeUnit.SECONDS), "the bank did not start; see " + err);
            Thread.sleep(ThreadLocalRandom.current().nextLong(150, 700));
        } finally {
            p.destroyForcibly(); // SIGKILL on Linux
            p.waitFor();
            reader.join();
        }
        long[] out = new long[THREADS];
        for (int t = 0; t < THREADS; t++) {
            out[t] = acked.get(t);
        }
        return out;
    }

    private void check(long[] acked, int cycle) {
        try (DurableStore s = BankProcess.open(dir, 0)) {
            DurableMap<Long, Long> balance = s.map("accounts");
            DurableMap<Long, Long> progress = s.map("progress");
            long[] expected = new long[ACCOUNTS];
            Arrays.fill(expected, BankProcess.INITIAL);
            for (int t = 0; t < THREADS; t++) {
                Long p = progress.getNonTx((long) t);
                long done = p == null ? 0 : p;
                assertTrue(done >= acked[t], "cycle " + cycle + ": thread " + t + " had transfer " + acked[t]
                        + " acknowledged as durable, recovery has " + done + "; " + s.recoveryReport());
                for (long n = 1; n <= done; n++) {
                    long a = BankProcess.amount(t, n);
                    expected[(int) BankProcess.from(t, n, ACCOUNTS)] -= a;
                    expected[(int) BankProcess.to(t, n, ACCOUNTS)] += a;
                }
            }
            for (int a = 0; a < ACCOUNTS; a++) {
                Long b = balance.getNonTx((long) a);
                assertEquals(expected[a], b == null ? BankProcess.INITIAL : b, "cycle " + cycle + ": account " + a
                        + " is not the result of the recovered transfers; " + s.recoveryReport());
            }
        }
    }
}
