package io.jato.durable;

import io.jato.stm.Stm;

import java.nio.file.Path;

/**
 * The process {@link KillRecoverTest} kills: a bank over a durable store in durable mode. Each
 * thread runs transfers numbered 1, 2, … after the number the store holds for it; transfer
 * {@code n} of thread {@code t} moves {@link #amount} from {@link #from} to {@link #to} and sets
 * the thread's progress to {@code n} in the same transaction. It prints {@code ACK t n} once
 * {@code atomic} returned (the transfer is durable), and {@code READY} after recovery.
 */
public final class BankProcess {
    static final long INITIAL = 1_000_000L;

    private BankProcess() {
    }

    static long mix(long t, long n, long salt) {
        long z = t * 0x9E3779B97F4A7C15L + n * 0xBF58476D1CE4E5B9L + salt;
        z = (z ^ (z >>> 31)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 29);
    }

    static long from(int t, long n, int accounts) {
        return Math.floorMod(mix(t, n, 1), accounts);
    }

    static long to(int t, long n, int accounts) {
        return Math.floorMod(mix(t, n, 2), accounts);
    }

    static long amount(int t, long n) {
        return Math.floorMod(mix(t, n, 3), 100);
    }

    static DurableStore open(Path dir, long checkpointMillis) {
        return DurableStore.builder(dir, Stm.builder().build())
                .mode(DurabilityMode.DURABLE)
                .epochMillis(5)
                .checkpointMillis(checkpointMillis)
                .map("accounts", Codecs.longs(), Codecs.longs())
                .map("progress", Codecs.longs(), Codecs.longs())
                .open();
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        int accounts = Integer.parseInt(args[2]);
        DurableStore store = open(dir, Long.parseLong(args[3]));
        DurableMap<Long, Long> balance = store.map("accounts");
        DurableMap<Long, Long> progress = store.map("progress");
        store.atomic(tx -> {
            if (balance.get(tx, 0L) == null) {
                for (long a = 0; a < accounts; a++) {
                    balance.put(tx, a, INITIAL);
                }
            }
            return null;
        });
        System.out.println("READY " + store.recoveryReport());
        System.out.flush();
        for (int i = 0; i < threads; i++) {
            int t = i;
            Thread worker = new Thread(() -> {
                while (true) {
                    long n = store.atomic(tx -> {
                        Long p = progress.get(tx, (long) t);
                        long next = p == null ? 1 : p + 1;
                        long f = from(t, next, accounts);
                        long d = to(t, next, accounts);
                        long amount = amount(t, next);
                        balance.put(tx, f, balance.get(tx, f) - amount);
                        balance.put(tx, d, balance.get(tx, d) + amount);
                        progress.put(tx, (long) t, next);
                        return next;
                    });
                    synchronized (System.out) {
                        System.out.println("ACK " + t + " " + n);
                    }
                }
            }, "bank-" + t);
            worker.start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
