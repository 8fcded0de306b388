package io.jato.workloads.transfer;

import io.jato.collections.TxHashMap;
import io.jato.durable.Codecs;
import io.jato.durable.DurabilityMode;
import io.jato.durable.DurableMap;
import io.jato.durable.DurableStore;
import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;
import io.jato.workloads.CheckResult;
import io.jato.workloads.Workload;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Transfers over a map of accounts ({@code Long} to {@code Long}), with durability {@code off}
 * (a plain {@code TxHashMap}: the baseline), {@code async} or {@code durable} (a
 * {@link DurableStore} in the run's directory, logged; see docs/durability.md). The same
 * transaction body in all three, so the difference is the cost of logging. A directory that
 * already holds the accounts is recovered and used as it is; {@link #check} verifies the total,
 * then closes the store (everything committed becomes durable).
 */
public final class DurableTransferWorkload implements Workload {
    private final Stm stm;
    private final int accountCount;
    private final long seed;
    private final String durability;
    private final Path dir;
    private final long checkpointMillis;
    private DurableStore store;
    private DurableMap<Long, Long> logged;
    private TxHashMap<Long, Long> plain;
    private String recovery = "";

    DurableTransferWorkload(Stm stm, int accounts, long seed, String durability, Path dir, long checkpointMillis) {
        this.checkpointMillis = checkpointMillis;
        this.stm = stm;
        this.accountCount = accounts;
        this.seed = seed;
        this.durability = durability;
        this.dir = dir;
    }

    @Override
    public String name() {
        return "transfer";
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("accounts", accountCount);
        p.put("durability", durability);
        if (dir != null) {
            p.put("durable_dir", dir.toString());
            p.put("checkpoint_s", checkpointMillis / 1000);
        }
        return p;
    }

    @Override
    public void load(Loader loader) {
        if (durability.equals("off")) {
            plain = new TxHashMap<>(stm, accountCount);
            for (long a = 0; a < accountCount; a++) {
                plain.single().put(a, TransferWorkload.INITIAL_BALANCE);
            }
            return;
        }
        store = DurableStore.builder(dir, stm)
                .mode(durability.equals("async") ? DurabilityMode.ASYNC : DurabilityMode.DURABLE)
                .checkpointMillis(checkpointMillis)
                .map("accounts", Codecs.longs(), Codecs.longs())
                .open();
        recovery = store.recoveryReport().toString();
        logged = store.map("accounts");
        int present = logged.sizeNonTx();
        if (present != 0 && present != accountCount) {
            store.close();
            throw new IllegalStateException(dir + " holds " + present + " accounts, --accounts asks for " + accountCount);
        }
        for (long from = present == 0 ? 0 : accountCount; from < accountCount; from += 1000) {
            long lo = from;
            long hi = Math.min(accountCount, from + 1000);
            store.atomic(tx -> {
                for (long a = lo; a < hi; a++) {
                    logged.put(tx, a, TransferWorkload.INITIAL_BALANCE);
                }
                return null;
            });
        }
        store.awaitDurable();
    }

    @Override
    public Worker newWorker(int index) {
        return new MapWorker(seed * 0x9E3779B97F4A7C15L + index + 1);
    }

    @Override
    public CheckResult check() {
        long total = 0;
        for (long a = 0; a < accountCount; a++) {
            Long b = logged != null ? logged.getNonTx(a) : plain.single().get(a);
            total += b == null ? 0 : b;
        }
        if (store != null) {
            store.close();
        }
        long expected = TransferWorkload.INITIAL_BALANCE * accountCount;
        String prefix = recovery.isEmpty() ? "" : "opened after " + recovery + "; ";
        return total == expected
                ? CheckResult.ok(prefix + "total balance " + total + " unchanged")
                : CheckResult.failed(prefix + "total balance " + total + ", expected " + expected);
    }

    /** One thread's transfers over the map; confined to that thread. */
    private final class MapWorker implements Worker {
        private long rng;
        private long from;
        private long to;
        private long amount;
        private final TxnFunction<Object> body;

        MapWorker(long seed) {
            this.rng = seed | 1L;
            this.body = txn -> {
                if (logged != null) {
                    logged.put(txn, from, logged.get(txn, from) - amount);
                    logged.put(txn, to, logged.get(txn, to) + amount);
                } else {
                    plain.put(txn, from, plain.get(txn, from) - amount);
                    plain.put(txn, to, plain.get(txn, to) + amount);
                }
                return null;
            };
        }

        private int next(int bound) {
            long x = rng;
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            rng = x;
            return (int) ((x >>> 1) % bound);
        }

        @Override
        public boolean runOne() {
            int n = accountCount;
            int f = next(n);
            int t = next(n - 1);
            from = f;
            to = t >= f ? t + 1 : t;
            amount = 1 + next(100);
            if (store != null) {
                store.atomic(body);
            } else {
                stm.atomic(body);
            }
            return true;
        }
    }
}
