package io.jato.collections;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Single-threaded differential tests of both sorted maps against {@link TreeMap}: random
 * transactions of random operations (own inserts, updates and deletes seen by later operations and
 * scans of the same transaction), random single() operations, small nodes so that splits, leaf
 * removals and inner-node splits happen all the time; the structural invariants are checked after
 * every transaction.
 */
class SortedMapModelTest {
    private static final int KEY_SPACE = 400;

    @Test
    void theGenericMapBehavesLikeATreeMap() {
        for (int capacity : new int[] {4, 5, 32}) {
            for (long seed = 1; seed <= 3; seed++) {
                runGeneric(seed, capacity, false);
                runGeneric(seed, capacity, true);
            }
        }
    }

    @Test
    void theLongMapBehavesLikeATreeMap() {
        for (int capacity : new int[] {4, 5, 32}) {
            for (long seed = 1; seed <= 3; seed++) {
                runLong(seed, capacity, 0);
                runLong(seed, capacity, 4);
            }
        }
    }

    private static void runGeneric(long seed, int capacity, boolean layout) {
        Stm stm = Stm.create();
        TxSortedMap.Builder<Integer, String> b = TxSortedMap.<Integer, String>builder(stm).nodeCapacity(capacity);
        if (layout) {
            b.prefixLayout(k -> Math.floorDiv(k, 16) * 16);
        }
        TxSortedMap<Integer, String> map = b.build();
        Ops<Integer> ops = new Ops<>() {
            @Override
            public String get(io.jato.stm.Txn t, long k) {
                return t == null ? map.single().get((int) k) : map.get(t, (int) k);
            }

            @Override
            public String put(io.jato.stm.Txn t, long k, String v, boolean ifAbsent) {
                if (t == null) {
                    return map.single().put((int) k, v);
                }
                return ifAbsent ? map.putIfAbsent(t, (int) k, v) : map.put(t, (int) k, v);
            }

            @Override
            public String remove(io.jato.stm.Txn t, long k) {
                return t == null ? map.single().remove((int) k) : map.remove(t, (int) k);
            }

            @Override
            public List<String> scan(io.jato.stm.Txn t, long from, boolean fi, long to, boolean ti, int limit, boolean desc) {
                List<String> out = new ArrayList<>();
                TxSortedMap.Visitor<Integer, String> v = (k, val) -> out.add(k + "=" + val);
                if (t == null) {
                    map.single().scan((int) from, fi, (int) to, ti, limit, desc, v);
                } else {
                    map.scan(t, (int) from, fi, (int) to, ti, limit, desc, v);
                }
                return out;
            }

            @Override
            public Long nav(io.jato.stm.Txn t, int kind, long k) {
                Integer r;
                switch (kind) {
                    case 0: r = map.floorKey(t, (int) k); break;
                    case 1: r = map.lowerKey(t, (int) k); break;
                    case 2: r = map.ceilingKey(t, (int) k); break;
                    case 3: r = map.higherKey(t, (int) k); break;
                    case 4: r = map.firstKey(t); break;
                    default: r = map.lastKey(t); break;
                }
                return r == null ? null : (long) r;
            }
        };
        run(stm, seed, ops, map::checkQuiescent, map.single()::size);
    }

    private static void runLong(long seed, int capacity, int suffixBits) {
        Stm stm = Stm.create();
        TxLongSortedMap.Builder<String> b = TxLongSortedMap.<String>builder(stm).nodeCapacity(capacity);
        if (suffixBits > 0) {
            b.prefixLayout(suffixBits);
        }
        TxLongSortedMap<String> map = b.build();
        Ops<Long> ops = new Ops<>() {
            @Override
            public String get(io.jato.stm.Txn t, long k) {
                return t == null ? map.single().get(k) : map.get(t, k);
            }

            @Override
            public String put(io.jato.stm.Txn t, long k, String v, boolean ifAbsent) {
                if (t == null) {
                    return map.single().put(k, v);
                }
                return ifAbsent ? map.putIfAbsent(t, k, v) : map.put(t, k, v);
            }

            @Override
            public String remove(io.jato.stm.Txn t, long k) {
                return t == null ? map.single().remove(k) : map.remove(t, k);
            }

            @Override
            public List<String> scan(io.jato.stm.Txn t, long from, boolean fi, long to, boolean ti, int limit, boolean desc) {
                List<String> out = new ArrayList<>();
                TxLongSortedMap.Visitor<String> v = (k, val) -> out.add(k + "=" + val);
                if (t == null) {
                    map.single().scan(from, fi, to, ti, limit, desc, v);
                } else {
                    map.scan(t, from, fi, to, ti, limit, desc, v);
                }
                return out;
            }

            @Override
            public Long nav(io.jato.stm.Txn t, int kind, long k) {
                long r;
                switch (kind) {
                    case 0: r = map.floorKey(t, k, -1); break;
                    case 1: r = map.lowerKey(t, k, -1); break;
                    case 2: r = map.ceilingKey(t, k, -1); break;
                    case 3: r = map.higherKey(t, k, -1); break;
                    case 4: r = map.firstKey(t, -1); break;
                    default: r = map.lastKey(t, -1); break;
                }
                return r == -1 ? null : r;
            }
        };
        run(stm, seed, ops, map::checkQuiescent, map.single()::size);
    }

    interface Ops<K> {
        String get(io.jato.stm.Txn t, long k);

        String put(io.jato.stm.Txn t, long k, String v, boolean ifAbsent);

        String remove(io.jato.stm.Txn t, long k);

        List<String> scan(io.jato.stm.Txn t, long from, boolean fi, long to, boolean ti, int limit, boolean desc);

        Long nav(io.jato.stm.Txn t, int kind, long k);
    }

    private static void run(Stm stm, long seed, Ops<?> ops, java.util.function.Supplier<String> check,
                            java.util.function.IntSupplier size) {
        SplittableRandom rnd = new SplittableRandom(seed);
        TreeMap<Long, String> model = new TreeMap<>();
        for (int round = 0; round < 600; round++) {
            // Phases: fill, churn, drain, so that leaves split and empty out.
            int phase = (round / 100) % 3;
            int insertBias = phase == 0 ? 70 : phase == 1 ? 45 : 15;
            if (rnd.nextInt(4) == 0) {
                long k = rnd.nextInt(KEY_SPACE);
                String v = "s" + round;
                int op = rnd.nextInt(100);
                if (op < insertBias) {
                    assertEquals(model.put(k, v), ops.put(null, k, v, false));
                } else {
                    assertEquals(model.remove(k), ops.remove(null, k));
                }
                continue;
            }
            TreeMap<Long, String> local = new TreeMap<>(model);
            List<Op> plan = new ArrayList<>();
            for (int i = 0, n = 1 + rnd.nextInt(12); i < n; i++) {
                plan.add(Op.draw(rnd, insertBias, "t" + round + "." + i));
            }
            List<String> expected = new ArrayList<>();
            for (Op op : plan) {
                expected.add(op.applyTo(local));
            }
            List<String> actual = stm.atomic(t -> {
                List<String> out = new ArrayList<>();
                for (Op op : plan) {
                    out.add(op.applyTo(t, ops));
                }
                return out;
            });
            assertEquals(expected, actual, "round " + round + " seed " + seed);
            model = local;
            assertNull(check.get(), "invariants after round " + round);
            if (round % 50 == 0) {
                List<String> all = new ArrayList<>();
                for (Map.Entry<Long, String> e : model.entrySet()) {
                    all.add(e.getKey() + "=" + e.getValue());
                }
                assertEquals(all, ops.scan(null, 0, true, KEY_SPACE, true, Integer.MAX_VALUE, false));
                assertEquals(model.size(), size.getAsInt());
            }
        }
    }

    /** One random operation, decoded once and applied to both the model and the map. */
    private record Op(int kind, long key, String value, boolean ifAbsent, long from, long to, boolean fi, boolean ti,
                      boolean desc, int limit, int nav) {
        static final int GET = 0;
        static final int PUT = 1;
        static final int REMOVE = 2;
        static final int SCAN = 3;
        static final int NAV = 4;

        static Op draw(SplittableRandom rnd, int insertBias, String value) {
            int r = rnd.nextInt(100);
            int kind = r < 20 ? GET : r < 20 + insertBias / 2 ? PUT : r < 50 ? REMOVE : r < 80 ? SCAN : NAV;
            long from = rnd.nextInt(KEY_SPACE + 20) - 10;
            int flags = rnd.nextInt(16);
            return new Op(kind, rnd.nextInt(KEY_SPACE), value, rnd.nextBoolean(), from, from + rnd.nextInt(120), (flags & 1) != 0,
                    (flags & 2) != 0, (flags & 4) != 0, (flags & 8) != 0 ? 1 + rnd.nextInt(10) : Integer.MAX_VALUE,
                    rnd.nextInt(6));
        }

        String applyTo(TreeMap<Long, String> m) {
            switch (kind) {
                case GET:
                    return String.valueOf(m.get(key));
                case PUT:
                    return String.valueOf(ifAbsent ? m.putIfAbsent(key, value) : m.put(key, value));
                case REMOVE:
                    return String.valueOf(m.remove(key));
                case SCAN: {
                    List<String> out = new ArrayList<>();
                    if (from < to || (fi && ti)) {
                        NavigableMap<Long, String> sub = m.subMap(from, fi, to, ti);
                        for (Map.Entry<Long, String> e : (desc ? sub.descendingMap() : sub).entrySet()) {
                            if (out.size() < limit) {
                                out.add(e.getKey() + "=" + e.getValue());
                            }
                        }
                    }
                    return out.toString();
                }
                default:
                    Long r = nav == 0 ? m.floorKey(key) : nav == 1 ? m.lowerKey(key) : nav == 2 ? m.ceilingKey(key)
                            : nav == 3 ? m.higherKey(key) : m.isEmpty() ? null : nav == 4 ? m.firstKey() : m.lastKey();
                    return String.valueOf(r);
            }
        }

        String applyTo(io.jato.stm.Txn t, Ops<?> ops) {
            switch (kind) {
                case GET:
                    return String.valueOf(ops.get(t, key));
                case PUT:
                    return String.valueOf(ops.put(t, key, value, ifAbsent));
                case REMOVE:
                    return String.valueOf(ops.remove(t, key));
                case SCAN:
                    return ops.scan(t, from, fi, to, ti, limit, desc).toString();
                default:
                    return String.valueOf(ops.nav(t, nav, key));
            }
        }
    }
}
