package io.jato.workloads.tpcc;

import io.jato.durable.DurabilityMode;
import io.jato.stm.Stm;
import io.jato.workloads.Workload;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * A TPC-C run in a durable store in its own JVM, for {@link TpccKillRecoverTest}: loads or
 * recovers {@code args[0]} (1 warehouse, cu+ts, fast order ids, durable mode, a background
 * checkpoint every {@code args[1]} ms), prints {@code READY}, then runs the standard mix on two
 * workers until it is killed. After each transaction a worker prints what became durable with it
 * (the durable mode returns from a writing transaction once it is on disk): {@code ORDER key} for
 * a committed new-order, {@code HISTORY source sequence} for a committed payment.
 */
final class TpccProcess {
    private TpccProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path dir = Path.of(args[0]);
        long checkpointMillis = Long.parseLong(args[1]);
        int threads = 2;
        TpccWorkload w = new TpccWorkload(Stm.builder().build(), 1, TpccMode.CU_TS, TpccOrderIds.Policy.FAST,
                TpccTables.DEFAULT, null, TpccMix.standardWeights(), threads, System.nanoTime());
        w.durable(dir, DurabilityMode.DURABLE, checkpointMillis);
        w.load(new ThreadsLoader(2));
        PrintStream out = System.out;
        synchronized (out) {
            out.println("READY");
            out.flush();
        }
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            TpccWorkload.TpccWorker worker = (TpccWorkload.TpccWorker) w.newWorker(i);
            ts[i] = new Thread(() -> run(worker, out));
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
    }

    private static void run(TpccWorkload.TpccWorker worker, PrintStream out) {
        TpccTransactions[] terminals = worker.terminals;
        long[] history = new long[terminals.length];
        long[] orders = new long[terminals.length];
        for (int i = 0; i < terminals.length; i++) {
            history[i] = terminals[i].historyRows();
        }
        StringBuilder line = new StringBuilder();
        while (true) {
            boolean committed = worker.runOne();
            line.setLength(0);
            for (int i = 0; i < terminals.length; i++) {
                TpccTransactions t = terminals[i];
                if (committed && worker.lastType() == TpccMix.Type.NEW_ORDER.ordinal() && t.noOrderId != orders[i]) {
                    orders[i] = t.noOrderId;
                    line.append("ORDER ").append(TpccKeys.order(t.homeWarehouse(), t.noDistrict, t.noOrderId))
                            .append('\n');
                }
                long h = t.historyRows();
                if (h != history[i]) {
                    history[i] = h;
                    line.append("HISTORY ").append(t.historySource()).append(' ').append(h - 1).append('\n');
                }
            }
            if (line.length() > 0) {
                synchronized (out) {
                    out.print(line);
                    out.flush();
                }
            }
        }
    }

    /** For the test's recovery: a workload over {@code dir} that recovers and checks, running nothing. */
    static TpccWorkload recovering(Path dir) {
        TpccWorkload w = new TpccWorkload(Stm.builder().build(), 1, TpccMode.CU_TS, TpccOrderIds.Policy.FAST,
                TpccTables.DEFAULT, null, TpccMix.standardWeights(), 2, 1);
        w.durable(dir, DurabilityMode.ASYNC, 0);
        return w;
    }

    static Workload.Loader loader() {
        return new ThreadsLoader(2);
    }
}
