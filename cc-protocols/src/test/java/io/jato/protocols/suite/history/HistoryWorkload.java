package io.jato.protocols.suite.history;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLong;
import io.jato.collections.TxRef;
import io.jato.protocols.records.Account;
import io.jato.protocols.records.Stamp;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Quiescence;
import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnFunction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;

/*
 * The randomized workload whose histories SerializabilityChecker checks.
 *
 * Items: one TxHashMap<Integer, Version> with keys [0, N) present at the start and [N, 2N) absent,
 * a few TxRef<Version> and a few TxLong (whose value is the id of the transaction that wrote it),
 * and a few records whose two groups are separate items (one record in the coarse layout: its
 * groups share a version, which only adds conflicts). Record groups are read, read-modify-written
 * or written blind by a commit-time updater that reports the version it replaced.
 * Each transaction runs 2-8 operations on distinct items, chosen with a Zipf-like skew so that a few
 * items are hot: reads, read-modify-write updates, deletes (first range only: a key is deleted at
 * most once and never re-inserted) and inserts (second range only: inserted at most once, never
 * deleted). A quarter of the transactions are declared read-only. Every write stores a new Version
 * naming the writing attempt and the version it replaces, so the checker knows each item's version
 * chain, and a key read absent names a unique version: T0's for the second range, the deleter's
 * for the first.
 *
 * Recording: a body builds a TxnRecord for its attempt and returns it; only the attempt that
 * commits returns from atomic, so each thread keeps exactly the records of committed transactions,
 * in a list of its own (no shared lock while the run goes on); they are gathered after the join.
 */

/** Runs the randomized workload and checks its history; see the essay above. */
public final class HistoryWorkload {
    /** Keys [0, N) of the map start present, keys [N, 2N) start absent. */
    static final int MAP_KEYS = 16;
    static final int REFS = 6;
    static final int LONGS = 4;
    /** Records, each contributing two slots (its default and hot groups); record 0 is coarse. */
    static final int RECORDS = 3;
    private static final int RECORD_BASE = 2 * MAP_KEYS + REFS + LONGS;
    private static final int SLOTS = RECORD_BASE + 2 * RECORDS;
    private static final double ZIPF_EXPONENT = 1.0;

    private enum Op { READ, UPDATE, DELETE, INSERT, BLIND }

    private final Stm stm;
    private final long seed;
    private final TxHashMap<Integer, Version> map;
    private final List<TxRef<Version>> refs = new ArrayList<>();
    private final List<TxLong> longs = new ArrayList<>();
    private final List<Account> records = new ArrayList<>();
    private final double[] cdf = new double[SLOTS];
    private final int[] slotOfRank = new int[SLOTS];

    private HistoryWorkload(Stm stm, long seed) {
        this.stm = stm;
        this.seed = seed;
        this.map = new TxHashMap<>(stm, 4 * MAP_KEYS);
        for (int i = 0; i < MAP_KEYS; i++) {
            map.single().put(i, Version.initial());
        }
        for (int i = 0; i < REFS; i++) {
            refs.add(new TxRef<>(stm, Version.initial()));
        }
        for (int i = 0; i < LONGS; i++) {
            longs.add(new TxLong(stm, Version.INITIAL));
        }
        for (int i = 0; i < RECORDS; i++) {
            Account.Image init = new Account.Image()
                    .setOwner(Long.toString(Version.INITIAL)).setFlags(Stamp.check(Version.INITIAL))
                    .setBalance(Version.INITIAL).setOps(Stamp.check(Version.INITIAL));
            records.add(Account.create(stm, i == 0 ? RecordLayout.COARSE : RecordLayout.SPLIT, init));
        }
        // Zipf-like popularity over a seeded permutation of the items, so hot items are of every kind.
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < SLOTS; i++) {
            slotOfRank[i] = i;
        }
        for (int i = SLOTS - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = slotOfRank[i];
            slotOfRank[i] = slotOfRank[j];
            slotOfRank[j] = t;
        }
        double sum = 0;
        for (int rank = 0; rank < SLOTS; rank++) {
            sum += 1.0 / Math.pow(rank + 1, ZIPF_EXPONENT);
            cdf[rank] = sum;
        }
        for (int rank = 0; rank < SLOTS; rank++) {
            cdf[rank] /= sum;
        }
    }

    /** The outcome of one run. */
    public static final class Result {
        private final List<TxnRecord> committed;
        private final Map<String, Long> finalState;
        private final List<Throwable> failures;
        private final List<String> notQuiescent;
        private final SerializabilityChecker.Report report;

        Result(List<TxnRecord> committed, Map<String, Long> finalState, List<Throwable> failures,
                List<String> notQuiescent) {
            this.committed = committed;
            this.finalState = finalState;
            this.failures = failures;
            this.notQuiescent = notQuiescent;
            this.report = SerializabilityChecker.check(committed, finalState);
        }

        /** @return the records of every committed transaction */
        public List<TxnRecord> committed() {
            return committed;
        }

        /** @return each item's version at the end */
        public Map<String, Long> finalState() {
            return finalState;
        }

        /** @return exceptions that escaped {@code atomic} in the workers (none expected) */
        public List<Throwable> failures() {
            return failures;
        }

        /** @return quiescence problems of the objects after the run */
        public List<String> notQuiescent() {
            return notQuiescent;
        }

        /** @return the checker's verdict on the history and the final state */
        public SerializabilityChecker.Report report() {
            return report;
        }
    }

    /**
     * Runs {@code threads} threads of {@code txnsPerThread} random transactions each on fresh
     * objects in {@code stm}, then checks the history.
     */
    public static Result run(Stm stm, long seed, int threads, int txnsPerThread) {
        return new HistoryWorkload(stm, seed).run(threads, txnsPerThread);
    }

    private Result run(int threads, int txnsPerThread) {
        List<List<TxnRecord>> perThread = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        Interleaving il = new Interleaving();
        for (int t = 0; t < threads; t++) {
            List<TxnRecord> mine = new ArrayList<>();
            perThread.add(mine);
            int thread = t + 1;
            il.thread("history-" + thread, () -> work(thread, txnsPerThread, mine, failures));
        }
        il.run(120_000);
        List<TxnRecord> committed = new ArrayList<>();
        for (List<TxnRecord> l : perThread) {
            committed.addAll(l);
        }
        List<Object> objects = new ArrayList<>();
        objects.add(map);
        objects.addAll(refs);
        objects.addAll(longs);
        objects.addAll(records);
        return new Result(committed, finalState(), new ArrayList<>(failures),
                Quiescence.problems(objects.toArray()));
    }

    private void work(int thread, int txns, List<TxnRecord> mine, ConcurrentLinkedQueue<Throwable> failures) {
        SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + thread);
        int[] attempt = {0};
        long idBase = (long) thread << 32;
        for (int n = 0; n < txns; n++) {
            boolean readOnly = rnd.nextInt(4) == 0;
            int ops = 2 + rnd.nextInt(7);
            int[] slots = distinctSlots(rnd, ops);
            Op[] plan = new Op[slots.length];
            boolean[] yieldAfter = new boolean[slots.length];
            for (int i = 0; i < slots.length; i++) {
                plan[i] = readOnly ? Op.READ : chooseOp(rnd, slots[i]);
                yieldAfter[i] = rnd.nextInt(6) == 0;
            }
            TxnFunction<TxnRecord> body = txn -> {
                TxnRecord rec = new TxnRecord(idBase | ++attempt[0]);
                for (int i = 0; i < slots.length; i++) {
                    apply(txn, rec, slots[i], plan[i]);
                    if (yieldAfter[i]) {
                        Thread.yield();
                    }
                }
                return rec;
            };
            try {
                mine.add(readOnly ? stm.readOnly(body) : stm.atomic(body));
            } catch (RuntimeException | Error e) {
                failures.add(e);
                if (failures.size() > 20) {
                    return;
                }
            }
        }
    }

    private int[] distinctSlots(SplittableRandom rnd, int n) {
        int[] chosen = new int[n];
        int count = 0;
        for (int tries = 0; count < n && tries < 20 * n; tries++) {
            int rank = Arrays.binarySearch(cdf, rnd.nextDouble());
            int slot = slotOfRank[Math.min(SLOTS - 1, rank < 0 ? -rank - 1 : rank)];
            boolean dup = false;
            for (int i = 0; i < count; i++) {
                dup |= chosen[i] == slot;
            }
            if (!dup) {
                chosen[count++] = slot;
            }
        }
        return Arrays.copyOf(chosen, count);
    }

    private static Op chooseOp(SplittableRandom rnd, int slot) {
        int r = rnd.nextInt(100);
        if (r < 35) {
            return Op.READ;
        }
        if (slot < MAP_KEYS) {
            return r < 90 ? Op.UPDATE : Op.DELETE;
        }
        if (slot < 2 * MAP_KEYS) {
            return r < 80 ? Op.UPDATE : Op.INSERT;
        }
        return Op.UPDATE;
    }

    private void apply(Txn txn, TxnRecord rec, int slot, Op op) {
        if (slot >= RECORD_BASE) {
            applyToRecord(txn, rec, slot - RECORD_BASE, op);
        } else if (slot < 2 * MAP_KEYS) {
            applyToMap(txn, rec, slot, op);
        } else if (slot < 2 * MAP_KEYS + REFS) {
            TxRef<Version> ref = refs.get(slot - 2 * MAP_KEYS);
            String key = "r" + (slot - 2 * MAP_KEYS);
            Version v = ref.get(txn);
            rec.read(key, v.writer());
            if (op == Op.UPDATE) {
                ref.set(txn, new Version(rec.id(), v.writer()));
                rec.write(key, v.writer());
            }
        } else {
            TxLong cell = longs.get(slot - 2 * MAP_KEYS - REFS);
            String key = "l" + (slot - 2 * MAP_KEYS - REFS);
            long v = cell.get(txn);
            rec.read(key, v);
            if (op == Op.UPDATE) {
                cell.set(txn, rec.id());
                rec.write(key, v);
            }
        }
    }

    /**
     * Record slots: slot 2i is record i's default group (owner = writer id, flags = check value),
     * slot 2i+1 its hot group (balance = writer id, ops = check value). A read takes both columns
     * of the group and fails on a torn pair; a blind write is an updater that learns at commit
     * which version it replaced.
     */
    private void applyToRecord(Txn txn, TxnRecord rec, int s, Op op) {
        Account a = records.get(s / 2);
        boolean hot = (s & 1) != 0;
        String key = "a" + (s / 2) + (hot ? ".hot" : ".default");
        if (op == Op.BLIND) {
            if (hot) {
                a.update(txn, new Stamp.Hot(rec.id(), prev -> rec.write(key, prev)));
            } else {
                a.update(txn, new Stamp.Default(rec.id(), prev -> rec.write(key, prev)));
            }
            return;
        }
        long writer = hot ? a.balance(txn) : Long.parseLong(a.owner(txn));
        int check = hot ? a.ops(txn) : a.flags(txn);
        if (check != Stamp.check(writer)) {
            throw new IllegalStateException("torn read of " + key + ": writer " + writer + " with check " + check);
        }
        rec.read(key, writer);
        if (op == Op.UPDATE) {
            if (hot) {
                a.setBalance(txn, rec.id());
                a.setOps(txn, Stamp.check(rec.id()));
            } else {
                a.setOwner(txn, Long.toString(rec.id()));
                a.setFlags(txn, Stamp.check(rec.id()));
            }
            rec.write(key, writer);
        }
    }

    private void applyToMap(Txn txn, TxnRecord rec, int k, Op op) {
        String key = "m" + k;
        long absent = k < MAP_KEYS ? TxnRecord.DELETED : Version.INITIAL;
        switch (op) {
            case READ: {
                Version v = map.get(txn, k);
                rec.read(key, v == null ? absent : v.writer());
                break;
            }
            case UPDATE: {
                Version v = map.get(txn, k);
                if (v != null) {
                    rec.read(key, v.writer());
                    map.put(txn, k, new Version(rec.id(), v.writer()));
                    rec.write(key, v.writer());
                } else {
                    rec.read(key, absent);
                    if (k >= MAP_KEYS) {
                        map.put(txn, k, new Version(rec.id(), Version.INITIAL));
                        rec.write(key, Version.INITIAL);
                    }
                }
                break;
            }
            case DELETE: {
                Version old = map.remove(txn, k);
                if (old != null) {
                    rec.read(key, old.writer());
                    rec.delete(key, old.writer());
                } else {
                    rec.readDeleted(key);
                }
                break;
            }
            case INSERT: {
                Version old = map.putIfAbsent(txn, k, new Version(rec.id(), Version.INITIAL));
                if (old == null) {
                    rec.read(key, Version.INITIAL);
                    rec.write(key, Version.INITIAL);
                } else {
                    rec.read(key, old.writer());
                }
                break;
            }
            default:
                throw new IllegalStateException(op.name());
        }
    }

    private Map<String, Long> finalState() {
        Map<String, Long> state = new HashMap<>();
        for (int k = 0; k < 2 * MAP_KEYS; k++) {
            Version v = map.single().get(k);
            state.put("m" + k, v != null ? v.writer() : k < MAP_KEYS ? TxnRecord.DELETED : Version.INITIAL);
        }
        for (int i = 0; i < REFS; i++) {
            state.put("r" + i, refs.get(i).single().get().writer());
        }
        for (int i = 0; i < LONGS; i++) {
            state.put("l" + i, longs.get(i).single().get());
        }
        for (int i = 0; i < RECORDS; i++) {
            Account.Image im = records.get(i).single().get();
            state.put("a" + i + ".default", Long.parseLong(im.owner()));
            state.put("a" + i + ".hot", im.balance());
        }
        return Collections.unmodifiableMap(state);
    }
}
