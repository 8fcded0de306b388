package io.jato.workloads.transfer;

import io.jato.collections.TxLong;
import io.jato.stm.Stm;
import io.jato.stm.TxnRunnable;
import io.jato.workloads.CheckResult;
import io.jato.workloads.Workload;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Two-account transfers over an array of {@link TxLong} accounts: what a user writing a bank with
 * boxes writes. Every account starts with {@link #INITIAL_BALANCE}; a transfer never changes the
 * sum, which {@link #check} verifies. Allocation-free per transaction (the body is one lambda per
 * worker, its randomness a per-worker xorshift).
 */
public final class TransferWorkload implements Workload {
    static final long INITIAL_BALANCE = 1_000_000;

    private final Stm stm;
    private final int accountCount;
    private final long seed;
    private TxLong[] accounts;

    TransferWorkload(Stm stm, int accounts, long seed) {
        this.stm = stm;
        this.accountCount = accounts;
        this.seed = seed;
    }

    @Override
    public String name() {
        return "transfer";
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("accounts", accountCount);
        return p;
    }

    @Override
    public void load(Loader loader) {
        // One thread: boxes are created and linked by the store's single view, no contention.
        TxLong[] a = new TxLong[accountCount];
        for (int i = 0; i < a.length; i++) {
            a[i] = new TxLong(stm, INITIAL_BALANCE);
        }
        accounts = a;
    }

    @Override
    public Worker newWorker(int index) {
        return new TransferWorker(stm, accounts, seed * 0x9E3779B97F4A7C15L + index + 1);
    }

    @Override
    public CheckResult check() {
        long total = 0;
        for (TxLong a : accounts) {
            total += a.single().get();
        }
        long expected = INITIAL_BALANCE * accountCount;
        return total == expected
                ? CheckResult.ok("total balance " + total + " unchanged")
                : CheckResult.failed("total balance " + total + ", expected " + expected);
    }

    /** One thread's transfers; confined to that thread. */
    private static final class TransferWorker implements Worker {
        private final Stm stm;
        private final TxLong[] accounts;
        private long rng;
        private int from;
        private int to;
        private long amount;
        private final TxnRunnable body;

        TransferWorker(Stm stm, TxLong[] accounts, long seed) {
            this.stm = stm;
            this.accounts = accounts;
            this.rng = seed | 1L;
            this.body = txn -> {
                TxLong a = this.accounts[from];
                TxLong b = this.accounts[to];
                long x = a.get(txn);
                long y = b.get(txn);
                a.set(txn, x - amount);
                b.set(txn, y + amount);
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
            int n = accounts.length;
            from = next(n);
            int t = next(n - 1);
            to = t >= from ? t + 1 : t;
            amount = 1 + next(100);
            stm.run(body);
            return true;
        }
    }
}
