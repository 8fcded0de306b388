package io.jato.protocols.suite.history;

import io.jato.collections.TxRef;
import io.jato.protocols.suite.AnySortedMap;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Quiescence;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnFunction;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;

/*
 * The randomized workload of range scans whose histories SerializabilityChecker checks (the point
 * operations of HistoryWorkload, plus scans and navigation, on a sorted map).
 *
 * Items: the keys [0, 2N) of one sorted map - even keys present at the start (each deleted at most
 * once, never re-inserted), odd keys absent at the start (each inserted at most once, never
 * deleted) - so that every range mixes both and an absent key always names a unique version: T0's
 * for an odd key, the deleter's for an even one - and a few TxRefs.
 *
 * A scan or navigation is recorded as what it read: the version of every key it visited, and the
 * ABSENCE of every other key in the part of the range it covered - the whole range, or, if it
 * stopped at its limit, the range up to the last key it visited. So a phantom (an insert or delete
 * inside a scanned range committing around the scan) is an ordinary rw/wr edge in the dependency
 * graph, and the checker needs nothing new.
 */

/** Runs the range-scan workload and checks its history; see the essay above. */
public final class RangeHistoryWorkload {
    static final int KEYS = 32;
    static final int REFS = 3;

    private enum Op { READ, UPDATE, DELETE, INSERT, SCAN, NAVIGATE, REF_READ, REF_UPDATE }

    private final Stm stm;
    private final long seed;
    private final AnySortedMap<Version> map;
    private final List<TxRef<Version>> refs = new ArrayList<>();

    private RangeHistoryWorkload(Stm stm, String kind, long seed) {
        this.stm = stm;
        this.seed = seed;
        // Small nodes: scans cross leaves, and splits and merges run under the transactions.
        this.map = AnySortedMap.create(kind, stm, 4, 0);
        for (long k = 0; k < KEYS; k += 2) {
            map.singlePut(k, Version.initial());
        }
        for (int i = 0; i < REFS; i++) {
            refs.add(new TxRef<>(stm, Version.initial()));
        }
    }

    /**
     * Runs {@code threads} threads of {@code txnsPerThread} random transactions each on a fresh
     * sorted map of {@code kind} ({@link AnySortedMap#KINDS}) in {@code stm}, then checks the history.
     */
    public static HistoryWorkload.Result run(Stm stm, String kind, long seed, int threads, int txnsPerThread) {
        return new RangeHistoryWorkload(stm, kind, seed).run(threads, txnsPerThread);
    }

    private HistoryWorkload.Result run(int threads, int txnsPerThread) {
        ConcurrentLinkedQueue<TxnRecord> committed = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        Interleaving il = new Interleaving();
        for (int t = 1; t <= threads; t++) {
            int thread = t;
            il.thread("ranges-" + thread, () -> {
                SplittableRandom rnd = new SplittableRandom(seed * 7_919L + thread);
                long[] attempt = {(long) thread << 32};
                for (int n = 0; n < txnsPerThread && failures.size() <= 20; n++) {
                    boolean readOnly = rnd.nextInt(4) == 0;
                    TxnFunction<TxnRecord> body = plan(rnd, readOnly, attempt);
                    try {
                        committed.add(readOnly ? stm.readOnly(body) : stm.atomic(body));
                    } catch (RuntimeException | Error e) {
                        failures.add(e);
                    }
                }
            });
        }
        il.run(120_000);
        List<Object> objects = new ArrayList<>(refs);
        objects.add(map);
        return new HistoryWorkload.Result(new ArrayList<>(committed), finalState(), new ArrayList<>(failures),
                Quiescence.problems(objects.toArray()));
    }

    /** Draws one transaction: 2-6 operations; point operations on distinct keys. */
    private TxnFunction<TxnRecord> plan(SplittableRandom rnd, boolean readOnly, long[] attempt) {
        int ops = 2 + rnd.nextInt(5);
        Op[] kinds = new Op[ops];
        int[][] args = new int[ops][];
        boolean[] used = new boolean[KEYS + REFS];
        for (int i = 0; i < ops; i++) {
            int r = rnd.nextInt(100);
            if (r < 25) {
                kinds[i] = Op.SCAN;
                int from = rnd.nextInt(KEYS + 2) - 1;
                args[i] = new int[] {from, from + rnd.nextInt(10), rnd.nextInt(16), 1 + rnd.nextInt(4)};
                continue;
            }
            if (r < 35) {
                kinds[i] = Op.NAVIGATE;
                args[i] = new int[] {rnd.nextInt(KEYS + 2) - 1, rnd.nextInt(4)};
                continue;
            }
            int slot = rnd.nextInt(KEYS + REFS);
            if (used[slot]) {
                kinds[i] = Op.READ;
                args[i] = new int[] {rnd.nextInt(KEYS)};
                continue;
            }
            used[slot] = true;
            boolean write = !readOnly && r >= 55;
            if (slot >= KEYS) {
                kinds[i] = write ? Op.REF_UPDATE : Op.REF_READ;
            } else if (!write) {
                kinds[i] = Op.READ;
            } else {
                kinds[i] = r < 75 ? Op.UPDATE : (slot & 1) == 0 ? Op.DELETE : Op.INSERT;
            }
            args[i] = new int[] {slot};
        }
        return txn -> {
            TxnRecord rec = new TxnRecord(++attempt[0]);
            for (int i = 0; i < ops; i++) {
                apply(txn, rec, kinds[i], args[i]);
            }
            return rec;
        };
    }

    private static String name(long k) {
        return "s" + k;
    }

    /** Records that key {@code k} was read absent. */
    private static void readAbsent(TxnRecord rec, long k) {
        if ((k & 1) == 0) {
            rec.readDeleted(name(k));
        } else {
            rec.read(name(k), Version.INITIAL);
        }
    }

    private void apply(Txn txn, TxnRecord rec, Op op, int[] a) {
        switch (op) {
            case READ: {
                Version v = map.get(txn, a[0]);
                if (v == null) {
                    readAbsent(rec, a[0]);
                } else {
                    rec.read(name(a[0]), v.writer());
                }
                break;
            }
            case UPDATE:
            case DELETE:
            case INSERT:
                write(txn, rec, op, a[0]);
                break;
            case SCAN:
                scan(txn, rec, a[0], a[1], a[2], a[3]);
                break;
            case NAVIGATE:
                navigate(txn, rec, a[0], a[1]);
                break;
            case REF_READ:
            case REF_UPDATE: {
                TxRef<Version> ref = refs.get(a[0] - KEYS);
                String key = "r" + (a[0] - KEYS);
                Version v = ref.get(txn);
                rec.read(key, v.writer());
                if (op == Op.REF_UPDATE) {
                    ref.set(txn, new Version(rec.id(), v.writer()));
                    rec.write(key, v.writer());
                }
                break;
            }
            default:
                throw new IllegalStateException(op.name());
        }
    }

    private void write(Txn txn, TxnRecord rec, Op op, long k) {
        String key = name(k);
        Version old = op == Op.DELETE ? map.remove(txn, k)
                : op == Op.INSERT ? map.putIfAbsent(txn, k, new Version(rec.id(), Version.INITIAL))
                : map.get(txn, k);
        if (old == null) {
            readAbsent(rec, k);
            if (op == Op.INSERT) {
                rec.write(key, Version.INITIAL);
            }
            return;
        }
        rec.read(key, old.writer());
        if (op == Op.DELETE) {
            rec.delete(key, old.writer());
        } else if (op == Op.UPDATE) {
            map.put(txn, k, new Version(rec.id(), old.writer()));
            rec.write(key, old.writer());
        }
    }

    /**
     * Scans [from, to] with the flags' bounds, direction and limit; records every visited version
     * and the absence of every other key of the part of the range the scan covered.
     */
    private void scan(Txn txn, TxnRecord rec, long from, long to, int flags, int limit) {
        boolean fi = (flags & 1) != 0;
        boolean ti = (flags & 2) != 0;
        boolean desc = (flags & 4) != 0;
        int lim = (flags & 8) != 0 ? limit : Integer.MAX_VALUE;
        if (from == to && !(fi && ti)) {
            return;
        }
        Map<Long, Long> seen = new HashMap<>();
        long[] last = {0};
        map.scan(txn, from, fi, to, ti, lim, desc, (k, v) -> {
            seen.put(k, v.writer());
            last[0] = k;
            return true;
        });
        long lo = fi ? from : from + 1;
        long hi = ti ? to : to - 1;
        if (seen.size() == lim) {
            // Stopped at the limit: only the range up to the last visited key was read.
            if (desc) {
                lo = last[0];
            } else {
                hi = last[0];
            }
        }
        recordRange(rec, lo, hi, seen);
    }

    /** Records the keys of [lo, hi] (clipped to the key space): seen ones by version, the others absent. */
    private static void recordRange(TxnRecord rec, long lo, long hi, Map<Long, Long> seen) {
        for (long k = Math.max(0, lo); k <= Math.min(KEYS - 1, hi); k++) {
            Long writer = seen.get(k);
            if (writer != null) {
                rec.read(name(k), writer);
            } else {
                readAbsent(rec, k);
            }
        }
    }

    /** floorKey/lowerKey/ceilingKey/higherKey of {@code k}: the key found (read with get) and the gap before it. */
    private void navigate(Txn txn, TxnRecord rec, long k, int kind) {
        int nav = kind == 0 ? AnySortedMap.FLOOR : kind == 1 ? AnySortedMap.LOWER
                : kind == 2 ? AnySortedMap.CEILING : AnySortedMap.HIGHER;
        boolean below = kind < 2;
        boolean inclusive = kind == 0 || kind == 2;
        Long found = map.nav(txn, nav, k);
        Map<Long, Long> seen = new HashMap<>();
        if (found != null) {
            Version v = map.get(txn, found);
            if (v == null) {
                throw new IllegalStateException("navigation found key " + found + " that get does not see");
            }
            seen.put(found, v.writer());
        }
        long start = inclusive ? k : below ? k - 1 : k + 1;
        if (below) {
            recordRange(rec, found == null ? Long.MIN_VALUE : found, start, seen);
        } else {
            recordRange(rec, start, found == null ? Long.MAX_VALUE : found, seen);
        }
    }

    private Map<String, Long> finalState() {
        Map<String, Long> state = new HashMap<>();
        Map<Long, Version> contents = map.contents();
        for (long k = 0; k < KEYS; k++) {
            Version v = contents.get(k);
            state.put(name(k), v != null ? v.writer() : (k & 1) == 0 ? TxnRecord.DELETED : Version.INITIAL);
        }
        for (int i = 0; i < REFS; i++) {
            state.put("r" + i, refs.get(i).single().get().writer());
        }
        return Collections.unmodifiableMap(state);
    }
}
