package io.jato.workloads.vthreads;

import io.jato.collections.TxLong;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The virtual-thread measurements of {@code docs/benchmarks/2026-11-virtual-threads.md} (issue 17
 * item 7), on JDK 21 or later:
 *
 * <pre>
 * java -cp workloads/target/jato-workloads.jar io.jato.workloads.vthreads.VirtualThreadsBench live 50000 [protocol]
 * java -cp workloads/target/jato-workloads.jar io.jato.workloads.vthreads.VirtualThreadsBench short 100000 10 [protocol]
 * </pre>
 *
 * <p>{@code live N}: N virtual threads each run one transfer and then wait until all N have run
 * theirs, so all N are alive at once; the same with an {@code AtomicLong} increment instead of the
 * transaction as the baseline. {@code short N K}: N virtual threads each run K transfers, then the
 * same N x K transfers as N tasks on a pool of 2 platform threads. Each prints the seconds taken,
 * the store's aborts by cause and the heap used after a GC while the threads are alive (live mode).
 * A harness, not a runner command: it reports one run per line; the page runs it a few times.
 * {@code -Djato.vt.accounts=N} sets the number of accounts (1,000 by default).
 */
public final class VirtualThreadsBench {
    /** Accounts transfers pick from: {@code -Djato.vt.accounts=N} (fewer: more contention). */
    private static final int ACCOUNTS = Integer.getInteger("jato.vt.accounts", 1000);
    private static final long INITIAL = 1_000_000;

    private VirtualThreadsBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: VirtualThreadsBench live N [protocol] | short N K [protocol]");
            System.exit(2);
        }
        int n = Integer.parseInt(args[1]);
        if (args[0].equals("live")) {
            String protocol = args.length > 2 ? args[2] : "occ";
            live(n, protocol);
        } else {
            int k = Integer.parseInt(args[2]);
            String protocol = args.length > 3 ? args[3] : "occ";
            shortThreads(n, k, protocol);
        }
    }

    /** The JDK's virtual-thread-per-task executor, by reflection (the project compiles for Java 17). */
    static ExecutorService virtualThreads() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("virtual threads need JDK 21 or later (running "
                    + System.getProperty("java.version") + ")", e);
        }
    }

    private static void live(int n, String protocol) throws Exception {
        Stm stm = Stm.builder().protocol(protocol).build();
        TxLong[] accounts = accounts(stm);
        CountDownLatch done = new CountDownLatch(n);
        CountDownLatch release = new CountDownLatch(1);
        long t0 = System.nanoTime();
        ExecutorService vt = virtualThreads();
        for (int i = 0; i < n; i++) {
            vt.execute(() -> {
                transfer(stm, accounts);
                done.countDown();
                awaitQuietly(release);
            });
        }
        done.await();
        double s = (System.nanoTime() - t0) / 1e9;
        long heap = usedAfterGc();
        release.countDown();
        finish(vt);
        report("live", protocol, n + " threads x 1 txn", s, stm.statistics(), heap);
        check(stm, accounts);
        AtomicLong counter = new AtomicLong();
        CountDownLatch done2 = new CountDownLatch(n);
        CountDownLatch release2 = new CountDownLatch(1);
        t0 = System.nanoTime();
        ExecutorService vt2 = virtualThreads();
        for (int i = 0; i < n; i++) {
            vt2.execute(() -> {
                counter.incrementAndGet();
                done2.countDown();
                awaitQuietly(release2);
            });
        }
        done2.await();
        s = (System.nanoTime() - t0) / 1e9;
        long used = usedAfterGc();
        release2.countDown();
        finish(vt2);
        System.out.printf("live\tAtomicLong\t%d threads x 1 increment\t%.3f s\theap %d KB%n", n, s, used / 1024);
    }

    private static void shortThreads(int n, int k, String protocol) throws Exception {
        Stm stm = Stm.builder().protocol(protocol).build();
        TxLong[] accounts = accounts(stm);
        long t0 = System.nanoTime();
        ExecutorService vt = virtualThreads();
        for (int i = 0; i < n; i++) {
            vt.execute(() -> {
                for (int j = 0; j < k; j++) {
                    transfer(stm, accounts);
                }
            });
        }
        finish(vt);
        report("short", protocol, n + " virtual threads x " + k + " txns", (System.nanoTime() - t0) / 1e9,
                stm.statistics(), -1);
        check(stm, accounts);
        Stm stm2 = Stm.builder().protocol(protocol).build();
        TxLong[] accounts2 = accounts(stm2);
        t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        for (int i = 0; i < n; i++) {
            pool.execute(() -> {
                for (int j = 0; j < k; j++) {
                    transfer(stm2, accounts2);
                }
            });
        }
        finish(pool);
        report("short", protocol, n + " tasks x " + k + " txns on 2 platform threads",
                (System.nanoTime() - t0) / 1e9, stm2.statistics(), -1);
        check(stm2, accounts2);
    }

    private static void finish(ExecutorService executor) throws InterruptedException {
        executor.shutdown();
        if (!executor.awaitTermination(1, TimeUnit.HOURS)) {
            throw new IllegalStateException("tasks did not finish in an hour");
        }
    }

    private static TxLong[] accounts(Stm stm) {
        TxLong[] a = new TxLong[ACCOUNTS];
        for (int i = 0; i < a.length; i++) {
            a[i] = new TxLong(stm, INITIAL);
        }
        return a;
    }

    private static void transfer(Stm stm, TxLong[] accounts) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        int from = r.nextInt(accounts.length);
        int to = (from + 1 + r.nextInt(accounts.length - 1)) % accounts.length;
        stm.run(tx -> {
            accounts[from].add(tx, -1);
            accounts[to].set(tx, accounts[to].get(tx) + 1);
        });
    }

    private static void check(Stm stm, TxLong[] accounts) {
        long sum = stm.atomicLong(tx -> {
            long s = 0;
            for (TxLong a : accounts) {
                s += a.get(tx);
            }
            return s;
        });
        if (sum != INITIAL * accounts.length) {
            throw new IllegalStateException("sum " + sum + " != " + INITIAL * accounts.length);
        }
    }

    private static void report(String mode, String protocol, String what, double seconds, StmStatistics st,
                               long heap) {
        StringBuilder aborts = new StringBuilder();
        for (AbortCause c : AbortCause.values()) {
            long a = st.aborts(c);
            if (a > 0) {
                aborts.append(aborts.length() == 0 ? "" : ", ").append(c).append('=').append(a);
            }
        }
        System.out.printf("%s\t%s\t%s\t%.3f s\tcommits %d\taborts [%s]%s%n", mode, protocol, what, seconds,
                st.commits(), aborts, heap < 0 ? "" : "\theap " + heap / 1024 + " KB");
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
