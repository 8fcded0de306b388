package io.jato.workloads.transfer;

import io.jato.collections.TxLong;
import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import io.jato.stm.TxnType;
import io.jato.workloads.CheckResult;
import io.jato.workloads.Workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two-account transfers over an array of {@link TxLong} accounts: what a user writing a bank with
 * boxes writes. Every account starts with {@link #INITIAL_BALANCE}; a transfer never changes the
 * sum, which {@link #check} verifies. Optionally a share of the transactions are audits: a declared
 * read-only transaction that sums every account, a long reader beside short writers (the case
 * multi-versioning is for); every audit must see the initial total, or the check fails.
 * Allocation-free per transaction (the bodies are lambdas made once per worker, its randomness a
 * per-worker xorshift).
 */
public final class TransferWorkload implements Workload {
    static final long INITIAL_BALANCE = 1_000_000;
    /** The transaction types, in {@link Worker#lastType} order, when audits run. */
    static final List<String> TYPES = List.of("transfer", "audit");
    private static final TxnType TRANSFER = TxnType.of("transfer");
    private static final TxnType AUDIT = TxnType.of("audit");

    private final Stm stm;
    private final int accountCount;
    /** Percent of transactions that are audits, 0 to 100. */
    private final int auditPercent;
    private final long seed;
    private TxLong[] accounts;
    private final List<TransferWorker> workers = new ArrayList<>();

    TransferWorkload(Stm stm, int accounts, long seed) {
        this(stm, accounts, 0, seed);
    }

    /** @param auditPercent percent of transactions that audit every account instead of transferring, 0 to 100 */
    TransferWorkload(Stm stm, int accounts, int auditPercent, long seed) {
        if (auditPercent < 0 || auditPercent > 100) {
            throw new IllegalArgumentException("audit percentage must be in [0, 100], got " + auditPercent);
        }
        this.stm = stm;
        this.accountCount = accounts;
        this.auditPercent = auditPercent;
        this.seed = seed;
    }

    /** @return transfer and audit when audits run, else none (the report shows the run as a whole) */
    @Override
    public List<String> transactionTypes() {
        return auditPercent == 0 ? List.of() : TYPES;
    }

    @Override
    public String name() {
        return "transfer";
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("accounts", accountCount);
        if (auditPercent != 0) {
            p.put("audits", auditPercent + "%");
        }
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

    /** @return the account at {@code i}, for tests */
    TxLong account(int i) {
        return accounts[i];
    }

    @Override
    public Worker newWorker(int index) {
        TransferWorker w = new TransferWorker(stm, accounts, auditPercent, seed * 0x9E3779B97F4A7C15L + index + 1);
        synchronized (workers) {
            workers.add(w);
        }
        return w;
    }

    @Override
    public CheckResult check() {
        long total = 0;
        for (TxLong a : accounts) {
            total += a.single().get();
        }
        long expected = INITIAL_BALANCE * accountCount;
        long audits = 0;
        long wrong = 0;
        long firstWrong = 0;
        synchronized (workers) {
            for (TransferWorker w : workers) {
                audits += w.audits;
                if (w.wrongAudits != 0 && wrong == 0) {
                    firstWrong = w.firstWrongSum;
                }
                wrong += w.wrongAudits;
            }
        }
        String audited = wrong == 0 ? null : wrong + " of " + audits + " audits saw a total other than " + expected
                + " (the first saw " + firstWrong + "): a read-only transaction saw a state no serial order has";
        if (total != expected) {
            return CheckResult.failed("total balance " + total + ", expected " + expected
                    + (audited == null ? "" : "; " + audited));
        }
        if (audited != null) {
            return CheckResult.failed(audited);
        }
        return CheckResult.ok("total balance " + total + " unchanged"
                + (auditPercent == 0 ? "" : "; all " + audits + " audits saw it"));
    }

    /**
     * One thread's transfers and audits; confined to that thread, except the audit counters, which
     * {@link #check} reads after the run (the runner joins the workers first).
     */
    private static final class TransferWorker implements Worker {
        private final Stm stm;
        private final TxLong[] accounts;
        private final int auditPercent;
        private final long expectedTotal;
        private long rng;
        private int from;
        private int to;
        private long amount;
        private int lastType;
        /** The last audit attempt's sum: a field, so that the audit body returns nothing boxed. */
        private long auditSum;
        long audits;
        long wrongAudits;
        long firstWrongSum;
        private final TxnRunnable body;
        private final TxnFunction<Object> auditBody;

        TransferWorker(Stm stm, TxLong[] accounts, int auditPercent, long seed) {
            this.stm = stm;
            this.accounts = accounts;
            this.auditPercent = auditPercent;
            this.expectedTotal = INITIAL_BALANCE * accounts.length;
            this.rng = seed | 1L;
            this.auditBody = txn -> {
                long sum = 0;
                for (TxLong a : this.accounts) {
                    sum += a.get(txn);
                }
                auditSum = sum;
                return null;
            };
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
            if (auditPercent != 0 && next(100) < auditPercent) {
                lastType = 1;
                stm.readOnly(AUDIT, auditBody);
                audits++;
                if (auditSum != expectedTotal) {
                    if (wrongAudits++ == 0) {
                        firstWrongSum = auditSum;
                    }
                }
                return true;
            }
            lastType = 0;
            int n = accounts.length;
            from = next(n);
            int t = next(n - 1);
            to = t >= from ? t + 1 : t;
            amount = 1 + next(100);
            if (auditPercent == 0) {
                // Untyped, as before audits existed: a Tebaldi store without a tree for this
                // workload then runs every transfer in a group of its own choosing.
                stm.run(body);
            } else {
                stm.run(TRANSFER, body);
            }
            return true;
        }

        @Override
        public int lastType() {
            return lastType;
        }
    }
}
