package io.jato.protocols.suite;

import io.jato.collections.TxCounter;
import io.jato.collections.TxHashMap;
import io.jato.collections.TxLong;
import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxRef;
import io.jato.collections.TxSortedMap;
import io.jato.protocols.records.Account;
import io.jato.protocols.records.AppendDigit;
import io.jato.protocols.records.Deposit;
import io.jato.protocols.records.DepositBy;
import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import io.jato.stm.Txn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The writes of every data type that the fault-injection suite ({@code FaultInjectionTest}) makes
 * fail, each modelled as a small state so that the suite can say what must be visible after a
 * failure: a target is a sequence of write operations (every kind of write its data type has) and
 * a state of named components (a cell's value, a map's keys, a record's columns), read through
 * a transaction and through the non-transactional view, with the state the operations produce from
 * any state ({@link Target#next}) and the components whose writes are built-in installs
 * ({@link Target#builtIn}: the core undoes those when a commit fails in its install phase; every
 * other install of a failed commit stays).
 */
final class FaultTargets {
    /** Every target type; {@code "All"} is one of each of the others in a single transaction. */
    static final List<String> TYPES = List.of("TxRef", "TxLong", "TxCounter.add", "TxCounter.update", "TxHashMap",
            "TxLongHashMap", "TxLongHashMap.insertOnly", "TxSortedMap", "TxLongSortedMap",
            "TxLongSortedMap.insertOnly", "Record.set", "Record.update", "All");

    /**
     * The prefix of a spanning target type: {@code "Spanning.TxLong"} is a {@code TxLong} target on
     * each protocol of a store mixing protocols, created through the store's view of that protocol
     * ({@link Stm#withProtocol}), in domain order, so that a transaction writing it spans them all.
     * Meant for stores without {@link Stm.Builder#rotateObjectProtocols rotation}: the default
     * protocol's view is the store itself, whose objects a rotating store binds to each protocol
     * in turn.
     */
    static final String SPANNING = "Spanning.";

    /**
     * The spanning targets of a store of two protocols: the cells, whose writes are all built-in
     * installs, so that whatever fails their objects on the two protocols are both old or both new;
     * and one of every type, whose custom installs a failed install phase may leave half done.
     */
    static final List<String> SPANNING_TYPES = List.of(SPANNING + "TxRef", SPANNING + "TxLong",
            SPANNING + "TxCounter.add", SPANNING + "All");

    private FaultTargets() {
    }

    /**
     * @return the target types to test on a store of {@code spec}: {@link #TYPES} for one protocol;
     *         for a pairing, {@code "All"} (every data type at once, on the store's first protocol)
     *         and {@link #SPANNING_TYPES}
     */
    static List<String> types(String spec) {
        if (!Protocols.isPair(spec)) {
            return TYPES;
        }
        List<String> pairing = new ArrayList<>();
        pairing.add("All");
        pairing.addAll(SPANNING_TYPES);
        return pairing;
    }

    /** @return true if {@code type} is a spanning target ({@link #SPANNING}) */
    static boolean isSpanning(String type) {
        return type.startsWith(SPANNING);
    }

    /** Creates a target of {@code type} in {@code stm}, loaded with its initial state. */
    static Target create(String type, Stm stm) {
        if (isSpanning(type)) {
            String each = type.substring(SPANNING.length());
            List<Target> parts = new ArrayList<>();
            for (String p : stm.protocols()) {
                parts.add(create(each, stm.withProtocol(p)));
            }
            if (parts.size() < 2) {
                throw new IllegalArgumentException(type + " needs a store of several protocols, got " + stm.protocols());
            }
            return new Composite(parts);
        }
        switch (type) {
            case "TxRef":
                return new RefTarget(stm);
            case "TxLong":
                return new LongTarget(stm);
            case "TxCounter.add":
                return new CounterAddTarget(stm);
            case "TxCounter.update":
                return new CounterUpdateTarget(stm);
            case "TxHashMap":
                return new HashMapTarget(stm);
            case "TxLongHashMap":
                return new LongHashMapTarget(stm);
            case "TxLongHashMap.insertOnly":
                return new InsertOnlyMapTarget(stm);
            case "TxSortedMap":
                return new SortedMapTarget(stm);
            case "TxLongSortedMap":
                return new LongSortedMapTarget(stm);
            case "TxLongSortedMap.insertOnly":
                return new InsertOnlySortedMapTarget(stm);
            case "Record.set":
                return new RecordSetTarget(stm);
            case "Record.update":
                return new RecordUpdateTarget(stm);
            case "All": {
                List<Target> parts = new ArrayList<>();
                for (String t : TYPES) {
                    if (!t.equals("All")) {
                        parts.add(create(t, stm));
                    }
                }
                return new Composite(parts);
            }
            default:
                throw new IllegalArgumentException("unknown target " + type);
        }
    }

    /** Writes of one or more transactional objects, and their state. */
    abstract static class Target implements Quiescence.Quiescent {
        /** @return the number of write operations */
        abstract int ops();

        /** Runs write operation {@code i} in {@code txn}. */
        abstract void op(Txn txn, int i);

        /** Adds the state as of {@code txn}, by component name (an absent map key has no component). */
        abstract void read(Txn txn, Map<String, Object> into);

        /** Adds the committed state, read through the non-transactional views. */
        abstract void committed(Map<String, Object> into);

        /** Changes {@code state} into the state that all operations, applied to it in order, produce. */
        abstract void next(Map<String, Object> state);

        /** @return the components written only by built-in installs (TxRef, TxLong, TxCounter.add) */
        Set<String> builtIn() {
            return Set.of();
        }

        final Map<String, Object> read(Txn txn) {
            Map<String, Object> m = new TreeMap<>();
            read(txn, m);
            return m;
        }

        final Map<String, Object> committed() {
            Map<String, Object> m = new TreeMap<>();
            committed(m);
            return m;
        }

        /** @return the state after applying every operation to {@code state} (a copy) */
        final Map<String, Object> after(Map<String, Object> state) {
            Map<String, Object> m = new TreeMap<>(state);
            next(m);
            return m;
        }

        /** Runs every operation in order. */
        final void writeAll(Txn txn) {
            for (int i = 0, n = ops(); i < n; i++) {
                op(txn, i);
            }
        }
    }

    // ------------------------------------------------------------------ cells

    private static final class RefTarget extends Target {
        private final TxRef<String> ref;

        RefTarget(Stm stm) {
            ref = new TxRef<>(stm, "a");
        }

        @Override
        int ops() {
            return 2;
        }

        @Override
        void op(Txn txn, int i) {
            if (i == 0) {
                ref.set(txn, "b");
            } else {
                ref.getAndSet(txn, "c");
            }
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            into.put("ref", ref.get(txn));
        }

        @Override
        void committed(Map<String, Object> into) {
            into.put("ref", ref.single().get());
        }

        @Override
        void next(Map<String, Object> state) {
            state.put("ref", "c");
        }

        @Override
        Set<String> builtIn() {
            return Set.of("ref");
        }

        @Override
        public String checkQuiescent() {
            return ref.checkQuiescent();
        }
    }

    private static final class LongTarget extends Target {
        private final TxLong cell;

        LongTarget(Stm stm) {
            cell = new TxLong(stm, 7);
        }

        @Override
        int ops() {
            return 2;
        }

        @Override
        void op(Txn txn, int i) {
            if (i == 0) {
                cell.set(txn, 8);
            } else {
                cell.addAndGet(txn, 1);
            }
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            into.put("long", cell.get(txn));
        }

        @Override
        void committed(Map<String, Object> into) {
            into.put("long", cell.single().get());
        }

        @Override
        void next(Map<String, Object> state) {
            state.put("long", 9L);
        }

        @Override
        Set<String> builtIn() {
            return Set.of("long");
        }

        @Override
        public String checkQuiescent() {
            return cell.checkQuiescent();
        }
    }

    /** Blind additions: a commit-time add, installed by the driver (built in). */
    private static final class CounterAddTarget extends Target {
        private final TxCounter counter;

        CounterAddTarget(Stm stm) {
            counter = new TxCounter(stm, 100);
        }

        @Override
        int ops() {
            return 2;
        }

        @Override
        void op(Txn txn, int i) {
            counter.add(txn, i == 0 ? 5 : 2);
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            into.put("counter", counter.get(txn));
        }

        @Override
        void committed(Map<String, Object> into) {
            into.put("counter", counter.single().get());
        }

        @Override
        void next(Map<String, Object> state) {
            state.put("counter", (Long) state.get("counter") + 7);
        }

        @Override
        Set<String> builtIn() {
            return Set.of("counter");
        }

        @Override
        public String checkQuiescent() {
            return counter.checkQuiescent();
        }
    }

    /** A commit-time updater (run in the check phase) behind an add: a custom install. */
    private static final class CounterUpdateTarget extends Target {
        private final TxCounter counter;

        CounterUpdateTarget(Stm stm) {
            counter = new TxCounter(stm, 10);
        }

        @Override
        int ops() {
            return 2;
        }

        @Override
        void op(Txn txn, int i) {
            if (i == 0) {
                counter.add(txn, 1);
            } else {
                counter.update(txn, v -> v * 2 + 1);
            }
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            into.put("counter", counter.get(txn));
        }

        @Override
        void committed(Map<String, Object> into) {
            into.put("counter", counter.single().get());
        }

        @Override
        void next(Map<String, Object> state) {
            state.put("counter", ((Long) state.get("counter") + 1) * 2 + 1);
        }

        @Override
        public String checkQuiescent() {
            return counter.checkQuiescent();
        }
    }

    // ------------------------------------------------------------------ maps

    /**
     * A hash map: update a key, delete one, insert one, merge into a present key (a commit-time
     * updater) and merge into an absent key (an insert). The model works on string keys.
     */
    private abstract static class HashLike extends Target {
        static final List<String> INITIAL = List.of("keep", "gone", "m");

        @Override
        int ops() {
            return 5;
        }

        @Override
        void op(Txn txn, int i) {
            switch (i) {
                case 0:
                    put(txn, "keep", "k1");
                    break;
                case 1:
                    remove(txn, "gone");
                    break;
                case 2:
                    put(txn, "new", "n1");
                    break;
                case 3:
                    merge(txn, "m", "m-ins");
                    break;
                default:
                    merge(txn, "fresh", "f-ins");
                    break;
            }
        }

        abstract void put(Txn txn, String key, String value);

        abstract void remove(Txn txn, String key);

        /** Inserts {@code value} if absent, else appends "+" to the value at commit. */
        abstract void merge(Txn txn, String key, String value);

        @Override
        void next(Map<String, Object> state) {
            state.put("keep", "k1");
            state.remove("gone");
            state.put("new", "n1");
            state.put("m", state.containsKey("m") ? state.get("m") + "+" : "m-ins");
            state.put("fresh", state.containsKey("fresh") ? state.get("fresh") + "+" : "f-ins");
        }

        static String plus(String v) {
            return v + "+";
        }
    }

    private static final class HashMapTarget extends HashLike {
        private final TxHashMap<String, String> map;

        HashMapTarget(Stm stm) {
            map = new TxHashMap<>(stm);
            for (String k : INITIAL) {
                map.single().put(k, k + "0");
            }
        }

        @Override
        void put(Txn txn, String key, String value) {
            map.put(txn, key, value);
        }

        @Override
        void remove(Txn txn, String key) {
            map.remove(txn, key);
        }

        @Override
        void merge(Txn txn, String key, String value) {
            map.merge(txn, key, value, HashLike::plus);
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            for (String k : List.of("keep", "gone", "m", "new", "fresh")) {
                String v = map.get(txn, k);
                if (v != null) {
                    into.put(k, v);
                }
            }
        }

        @Override
        void committed(Map<String, Object> into) {
            map.single().forEach(into::put);
        }

        @Override
        public String checkQuiescent() {
            return map.checkQuiescent();
        }
    }

    private static final class LongHashMapTarget extends HashLike {
        private static final List<String> KEYS = List.of("keep", "gone", "m", "new", "fresh");
        private final TxLongHashMap<String> map;

        LongHashMapTarget(Stm stm) {
            // Expected size 0: the smallest index, so that the inserts resize it.
            map = new TxLongHashMap<>(stm, 0);
            for (String k : INITIAL) {
                map.single().put(key(k), k + "0");
            }
        }

        private static long key(String k) {
            int i = KEYS.indexOf(k);
            if (i < 0) {
                throw new IllegalArgumentException(k);
            }
            return 1000L * i;
        }

        @Override
        void put(Txn txn, String key, String value) {
            map.put(txn, key(key), value);
        }

        @Override
        void remove(Txn txn, String key) {
            map.remove(txn, key(key));
        }

        @Override
        void merge(Txn txn, String key, String value) {
            map.merge(txn, key(key), value, HashLike::plus);
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            for (String k : KEYS) {
                String v = map.get(txn, key(k));
                if (v != null) {
                    into.put(k, v);
                }
            }
        }

        @Override
        void committed(Map<String, Object> into) {
            map.single().forEach((k, v) -> into.put(KEYS.get((int) (k / 1000)), v));
        }

        @Override
        public String checkQuiescent() {
            return map.checkQuiescent();
        }
    }

    /**
     * An insert-only map: a lookup of a present key (with no entry under the protocols that allow
     * it) and two inserts, by {@code putIfAbsent} so that a run after a half-installed commit
     * finds the keys present instead of being refused.
     */
    private static final class InsertOnlyMapTarget extends Target {
        private static final long SEED = 0;
        private static final long[] KEYS = {SEED, 1000L, 2000L};
        private final TxLongHashMap<String> map;

        InsertOnlyMapTarget(Stm stm) {
            map = TxLongHashMap.insertOnly(stm, 0);
            map.single().put(SEED, "seed");
        }

        @Override
        int ops() {
            return 2;
        }

        @Override
        void op(Txn txn, int i) {
            if (i == 0) {
                if (!"seed".equals(map.get(txn, SEED))) {
                    throw new AssertionError("seed key lost: " + map.get(txn, SEED));
                }
                map.putIfAbsent(txn, 1000L, "a");
            } else {
                map.putIfAbsent(txn, 2000L, "b");
            }
        }

        /** Through a batch lookup: getAll's reads under every fault state the other reads see. */
        @Override
        void read(Txn txn, Map<String, Object> into) {
            String[] values = new String[KEYS.length];
            map.getAll(txn, KEYS, KEYS.length, values);
            for (int i = 0; i < KEYS.length; i++) {
                if (values[i] != null) {
                    into.put("k" + KEYS[i], values[i]);
                }
            }
        }

        @Override
        void committed(Map<String, Object> into) {
            map.single().forEach((k, v) -> into.put("k" + k, v));
        }

        @Override
        void next(Map<String, Object> state) {
            state.putIfAbsent("k1000", "a");
            state.putIfAbsent("k2000", "b");
        }

        @Override
        public String checkQuiescent() {
            return map.checkQuiescent();
        }
    }

    /**
     * A sorted map with small leaves, so that the writes split and empty leaves at commit (in the
     * cleanups): update a key, delete two (one the whole first leaf's worth), insert two.
     */
    private abstract static class SortedLike extends Target {
        /** Initial keys, 3 per leaf of capacity 4 (after the loading splits, roughly). */
        static final List<String> INITIAL = List.of("a", "b", "c", "d", "e", "f", "g", "h");
        static final List<String> ALL = List.of("a", "b", "c", "cc", "cd", "d", "e", "f", "g", "h", "z");

        @Override
        int ops() {
            return 6;
        }

        @Override
        void op(Txn txn, int i) {
            switch (i) {
                case 0:
                    put(txn, "c", "c1");
                    break;
                case 1:
                    remove(txn, "a");
                    break;
                case 2:
                    remove(txn, "b");
                    break;
                case 3:
                    put(txn, "cc", "n1");
                    break;
                case 4:
                    put(txn, "cd", "n2");
                    break;
                default:
                    put(txn, "z", "z1");
                    break;
            }
        }

        abstract void put(Txn txn, String key, String value);

        abstract void remove(Txn txn, String key);

        @Override
        void next(Map<String, Object> state) {
            state.put("c", "c1");
            state.remove("a");
            state.remove("b");
            state.put("cc", "n1");
            state.put("cd", "n2");
            state.put("z", "z1");
        }
    }

    private static final class SortedMapTarget extends SortedLike {
        private final TxSortedMap<String, String> map;

        SortedMapTarget(Stm stm) {
            map = TxSortedMap.<String, String>builder(stm).nodeCapacity(4).build();
            for (String k : INITIAL) {
                map.single().put(k, k + "0");
            }
        }

        @Override
        void put(Txn txn, String key, String value) {
            map.put(txn, key, value);
        }

        @Override
        void remove(Txn txn, String key) {
            map.remove(txn, key);
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            // A scan and point lookups: both must agree.
            Map<String, Object> scanned = new TreeMap<>();
            map.scan(txn, "", "zz", (k, v) -> {
                scanned.put(k, v);
                return true;
            });
            for (String k : ALL) {
                String v = map.get(txn, k);
                if (v != null) {
                    into.put(k, v);
                }
            }
            if (!scanned.equals(into)) {
                throw new AssertionError("scan " + scanned + " disagrees with lookups " + into);
            }
        }

        @Override
        void committed(Map<String, Object> into) {
            map.single().forEach(into::put);
        }

        @Override
        public String checkQuiescent() {
            return map.checkQuiescent();
        }
    }

    private static final class LongSortedMapTarget extends SortedLike {
        private final TxLongSortedMap<String> map;

        LongSortedMapTarget(Stm stm) {
            map = TxLongSortedMap.<String>builder(stm).nodeCapacity(4).build();
            for (String k : INITIAL) {
                map.single().put(key(k), k + "0");
            }
        }

        private static long key(String k) {
            int i = ALL.indexOf(k);
            if (i < 0) {
                throw new IllegalArgumentException(k);
            }
            return 10L * i;
        }

        @Override
        void put(Txn txn, String key, String value) {
            map.put(txn, key(key), value);
        }

        @Override
        void remove(Txn txn, String key) {
            map.remove(txn, key(key));
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            Map<String, Object> scanned = new TreeMap<>();
            map.scan(txn, Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> {
                scanned.put(ALL.get((int) (k / 10)), v);
                return true;
            });
            for (String k : ALL) {
                String v = map.get(txn, key(k));
                if (v != null) {
                    into.put(k, v);
                }
            }
            if (!scanned.equals(into)) {
                throw new AssertionError("scan " + scanned + " disagrees with lookups " + into);
            }
        }

        @Override
        void committed(Map<String, Object> into) {
            map.single().forEach((k, v) -> {
                into.put(ALL.get((int) (k / 10)), v);
                return true;
            });
        }

        @Override
        public String checkQuiescent() {
            return map.checkQuiescent();
        }
    }

    /**
     * An insert-only sorted map with small leaves: a scan and a lookup of present keys (with no
     * entry per key under the protocols that allow it), then inserts that split a leaf at commit,
     * by {@code putIfAbsent} so that a run after a half-installed commit finds the keys present
     * instead of being refused.
     */
    private static final class InsertOnlySortedMapTarget extends Target {
        private static final List<Long> INITIAL = List.of(0L, 10L, 20L, 30L, 40L, 50L, 60L, 70L);
        private final TxLongSortedMap<String> map;

        InsertOnlySortedMapTarget(Stm stm) {
            map = TxLongSortedMap.<String>builder(stm).nodeCapacity(4).insertOnly().build();
            for (long k : INITIAL) {
                map.single().put(k, "v" + k);
            }
        }

        @Override
        int ops() {
            return 2;
        }

        @Override
        void op(Txn txn, int i) {
            if (i == 0) {
                StringBuilder seen = new StringBuilder();
                map.scan(txn, 0, 70, (k, v) -> {
                    if (k % 10 == 0) {
                        seen.append(v);
                    }
                    return true;
                });
                if (!"v0v10v20v30v40v50v60v70".equals(seen.toString()) || !"v30".equals(map.get(txn, 30))) {
                    throw new AssertionError("initial keys lost: " + seen);
                }
                for (long k = 21; k <= 23; k++) {
                    map.putIfAbsent(txn, k, "v" + k);
                }
            } else {
                map.putIfAbsent(txn, 55, "v55");
            }
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            Map<String, Object> scanned = new TreeMap<>();
            map.scan(txn, Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> {
                scanned.put("k" + k, v);
                return true;
            });
            for (long k = 0; k <= 70; k++) {
                String v = map.get(txn, k);
                if (v != null) {
                    into.put("k" + k, v);
                }
            }
            if (!scanned.equals(into)) {
                throw new AssertionError("scan " + scanned + " disagrees with lookups " + into);
            }
        }

        @Override
        void committed(Map<String, Object> into) {
            map.single().forEach((k, v) -> {
                into.put("k" + k, v);
                return true;
            });
        }

        @Override
        void next(Map<String, Object> state) {
            for (long k = 21; k <= 23; k++) {
                state.putIfAbsent("k" + k, "v" + k);
            }
            state.putIfAbsent("k55", "v55");
        }

        @Override
        public String checkQuiescent() {
            return map.checkQuiescent();
        }
    }

    // ------------------------------------------------------------------ records

    private abstract static class RecordTarget extends Target {
        final Account account;

        RecordTarget(Stm stm, RecordLayout layout) {
            account = Account.create(stm, layout,
                    new Account.Image().setOwner("ann").setFlags(1).setBalance(10).setOps(0));
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            into.put("owner", account.owner(txn));
            into.put("flags", account.flags(txn));
            into.put("balance", account.balance(txn));
            into.put("ops", account.ops(txn));
        }

        @Override
        void committed(Map<String, Object> into) {
            Account.Image im = account.single().get();
            into.put("owner", im.owner());
            into.put("flags", im.flags());
            into.put("balance", im.balance());
            into.put("ops", im.ops());
        }

        @Override
        public String checkQuiescent() {
            return account.checkQuiescent();
        }
    }

    /** Setters on both groups of a split record. */
    private static final class RecordSetTarget extends RecordTarget {
        RecordSetTarget(Stm stm) {
            super(stm, RecordLayout.SPLIT);
        }

        @Override
        int ops() {
            return 3;
        }

        @Override
        void op(Txn txn, int i) {
            switch (i) {
                case 0:
                    account.setOwner(txn, "bob");
                    break;
                case 1:
                    account.setBalance(txn, 20);
                    break;
                default:
                    account.setOps(txn, 3);
                    break;
            }
        }

        @Override
        void next(Map<String, Object> state) {
            state.put("owner", "bob");
            state.put("balance", 20L);
            state.put("ops", 3);
        }
    }

    /**
     * Commit-time updaters (run in the check phase) on a coarse record: object updaters and an
     * operand updater ({@code RecordLongUpdater}), whose kind the pending image keeps per call.
     */
    private static final class RecordUpdateTarget extends RecordTarget {
        RecordUpdateTarget(Stm stm) {
            super(stm, RecordLayout.COARSE);
        }

        @Override
        int ops() {
            return 3;
        }

        @Override
        void op(Txn txn, int i) {
            if (i == 0) {
                account.update(txn, new Deposit(5));
            } else if (i == 1) {
                account.update(txn, new AppendDigit(3));
            } else {
                account.update(txn, DepositBy.INSTANCE, 7);
            }
        }

        @Override
        void next(Map<String, Object> state) {
            state.put("balance", ((Long) state.get("balance") + 5) * 10 + 3 + 7);
            state.put("ops", (Integer) state.get("ops") + 2);
        }
    }

    // ------------------------------------------------------------------ several at once

    /** One of each target in one transaction; components are prefixed with the part's index. */
    private static final class Composite extends Target {
        private final List<Target> parts;
        private final int[] firstOp;
        private final int ops;

        Composite(List<Target> parts) {
            this.parts = List.copyOf(parts);
            this.firstOp = new int[parts.size()];
            int n = 0;
            for (int p = 0; p < parts.size(); p++) {
                firstOp[p] = n;
                n += parts.get(p).ops();
            }
            this.ops = n;
        }

        private static String prefix(int p) {
            return String.format("%02d:", p);
        }

        @Override
        int ops() {
            return ops;
        }

        @Override
        void op(Txn txn, int i) {
            for (int p = parts.size() - 1; p >= 0; p--) {
                if (i >= firstOp[p]) {
                    parts.get(p).op(txn, i - firstOp[p]);
                    return;
                }
            }
            throw new IndexOutOfBoundsException(i);
        }

        @Override
        void read(Txn txn, Map<String, Object> into) {
            for (int p = 0; p < parts.size(); p++) {
                String pre = prefix(p);
                parts.get(p).read(txn).forEach((k, v) -> into.put(pre + k, v));
            }
        }

        @Override
        void committed(Map<String, Object> into) {
            for (int p = 0; p < parts.size(); p++) {
                String pre = prefix(p);
                parts.get(p).committed().forEach((k, v) -> into.put(pre + k, v));
            }
        }

        @Override
        void next(Map<String, Object> state) {
            for (int p = 0; p < parts.size(); p++) {
                String pre = prefix(p);
                Map<String, Object> part = new TreeMap<>();
                for (Map.Entry<String, Object> e : state.entrySet()) {
                    if (e.getKey().startsWith(pre)) {
                        part.put(e.getKey().substring(pre.length()), e.getValue());
                    }
                }
                parts.get(p).next(part);
                state.keySet().removeIf(k -> k.startsWith(pre));
                part.forEach((k, v) -> state.put(pre + k, v));
            }
        }

        @Override
        Set<String> builtIn() {
            Set<String> s = new TreeSet<>();
            for (int p = 0; p < parts.size(); p++) {
                String pre = prefix(p);
                for (String c : parts.get(p).builtIn()) {
                    s.add(pre + c);
                }
            }
            return Collections.unmodifiableSet(s);
        }

        @Override
        public String checkQuiescent() {
            List<String> problems = new ArrayList<>();
            for (int p = 0; p < parts.size(); p++) {
                String q = parts.get(p).checkQuiescent();
                if (q != null) {
                    problems.add("part " + p + ": " + q);
                }
            }
            return problems.isEmpty() ? null : String.join("; ", problems);
        }
    }
}
