package io.jato.jmh.charts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@link PeerCharts} draws from JMH results of the {@code Peer*Benchmark} classes (or any
 * benchmarks laid out as they are: one class per transaction, one method per system): the
 * transactions, the systems and the thread counts, and the result of each system in each
 * transaction at each thread count.
 *
 * <p>A transaction is one benchmark class with one value of every param except {@code protocol}
 * (the {@code Peer} and {@code Benchmark} of the class name dropped from its label, and the params
 * that differ between that class's results added: {@code ReadWrite16 writePercent=10}). A system
 * is one benchmark method, with {@code (protocol)} added where one class's results name several
 * protocols. All results share one JMH mode and score unit, so that one axis can show them all, and
 * no two are the same point (transaction, system, threads).
 *
 * @param mode the JMH mode of every result ({@code avgt}, {@code thrpt}, ...)
 * @param unit the score unit of every result
 * @param transactions in class-name order, then by their params' values
 * @param systems every system, Jato's first, then ScalaSTM, Multiverse, Clojure, MVStore and the
 *     global lock, each followed by its variants, then any other in name order
 * @param threads every thread count, ascending
 */
record PeerBars(String mode, String unit, List<Transaction> transactions, List<String> systems,
        SortedSet<Integer> threads) {

    /** The order of the systems' names: a method whose name starts with one of these comes in this order. */
    static final List<String> FAMILIES = List.of("jato", "scalaStm", "multiverse", "clojure", "mvstore", "globalLock");

    /** The param that names a Jato protocol; it splits a system rather than a transaction. */
    static final String PROTOCOL = "protocol";

    /**
     * One transaction's results.
     *
     * @param label its name on the charts and in the summary
     * @param slug its charts' file-name stem, unique among the transactions
     * @param benchmarkClass the benchmark class, with its package
     * @param params the params that make it (the protocol left out)
     * @param results system to thread count to result
     */
    record Transaction(String label, String slug, String benchmarkClass, SortedMap<String, String> params,
            Map<String, SortedMap<Integer, JmhResult>> results) {

        /** @return the systems that ran this transaction, in {@link PeerBars#systems} order */
        List<String> systems(List<String> all) {
            return all.stream().filter(results::containsKey).toList();
        }

        /** @return the result of {@code system} at {@code threads}, null if there is none */
        JmhResult result(String system, int threads) {
            SortedMap<Integer, JmhResult> bySystem = results.get(system);
            return bySystem == null ? null : bySystem.get(threads);
        }
    }

    PeerBars {
        transactions = List.copyOf(transactions);
        systems = List.copyOf(systems);
        threads = new TreeSet<>(threads);
    }

    /**
     * Groups {@code results}.
     *
     * @throws ResultsInputException the results mix modes or units, or two are the same point
     */
    static PeerBars of(List<JmhResult> results) throws ResultsInputException {
        JmhResult first = results.get(0);
        for (JmhResult r : results) {
            if (!r.mode().equals(first.mode()) || !Objects.equals(r.scoreUnit(), first.scoreUnit())) {
                throw new ResultsInputException("results in different modes or units (" + first.mode() + " "
                        + first.scoreUnit() + " in " + first.where() + ", " + r.mode() + " " + r.scoreUnit() + " in "
                        + r.where() + "): one axis cannot show both; run them with the same -bm and -tu");
            }
        }
        // Class -> the protocols its results name (the systems without one name none), to tell
        // whether a system needs its protocol in its name.
        Map<String, Set<String>> protocols = new TreeMap<>();
        for (JmhResult r : results) {
            Set<String> named = protocols.computeIfAbsent(className(r.benchmark()), c -> new TreeSet<>());
            if (r.params().containsKey(PROTOCOL)) {
                named.add(r.params().get(PROTOCOL));
            }
        }
        // Class -> the params that differ between its results (the protocol left out).
        Map<String, SortedSet<String>> differing = new TreeMap<>();
        for (JmhResult r : results) {
            SortedSet<String> names = differing.computeIfAbsent(className(r.benchmark()), c -> new TreeSet<>());
            for (JmhResult o : results) {
                if (className(o.benchmark()).equals(className(r.benchmark()))) {
                    for (String p : union(r.params().keySet(), o.params().keySet())) {
                        if (!p.equals(PROTOCOL) && !Objects.equals(r.params().get(p), o.params().get(p))) {
                            names.add(p);
                        }
                    }
                }
            }
        }
        Map<Key, Map<String, SortedMap<Integer, JmhResult>>> byKey = new TreeMap<>();
        Set<String> systems = new HashSet<>();
        SortedSet<Integer> threads = new TreeSet<>();
        for (JmhResult r : results) {
            String cls = className(r.benchmark());
            SortedMap<String, String> params = new TreeMap<>(r.params());
            String protocol = params.remove(PROTOCOL);
            String system = methodName(r.benchmark())
                    + (protocols.get(cls).size() > 1 && protocol != null ? " (" + protocol + ")" : "");
            Key key = new Key(cls, params, differing.get(cls));
            JmhResult earlier = byKey.computeIfAbsent(key, k -> new LinkedHashMap<>())
                    .computeIfAbsent(system, s -> new TreeMap<>()).putIfAbsent(r.threads(), r);
            if (earlier != null) {
                throw new ResultsInputException("two results for the same point (" + r.benchmark() + " " + r.params()
                        + ", " + r.threads() + " threads): " + earlier.where() + " and " + r.where()
                        + "; render them separately");
            }
            systems.add(system);
            threads.add(r.threads());
        }
        List<Transaction> transactions = new ArrayList<>();
        Set<String> slugs = new HashSet<>();
        for (Map.Entry<Key, Map<String, SortedMap<Integer, JmhResult>>> e : byKey.entrySet()) {
            String label = e.getKey().label();
            transactions.add(new Transaction(label, Slugs.unique(slugs, Slugs.of("peers-" + label)),
                    e.getKey().benchmarkClass(), e.getKey().params(), e.getValue()));
        }
        List<String> ordered = new ArrayList<>(systems);
        ordered.sort(Comparator.comparingInt(PeerBars::family).thenComparing(Comparator.naturalOrder()));
        return new PeerBars(first.mode(), first.scoreUnit(), transactions, ordered, threads);
    }

    /** @return the position of {@code system}'s family in {@link #FAMILIES}; after them all if none */
    static int family(String system) {
        for (int i = 0; i < FAMILIES.size(); i++) {
            if (system.startsWith(FAMILIES.get(i))) {
                return i;
            }
        }
        return FAMILIES.size();
    }

    /** {@code io.jato.jmh.PeerCounterBenchmark.jato} → {@code io.jato.jmh.PeerCounterBenchmark}. */
    static String className(String benchmark) {
        int dot = benchmark.lastIndexOf('.');
        return dot < 0 ? benchmark : benchmark.substring(0, dot);
    }

    /** {@code io.jato.jmh.PeerCounterBenchmark.jato} → {@code jato}. */
    static String methodName(String benchmark) {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** {@code io.jato.jmh.PeerReadOnlySumBenchmark} → {@code ReadOnlySum}; a name that would be left empty stays whole. */
    static String transactionName(String benchmarkClass) {
        String name = methodName(benchmarkClass);
        String core = name;
        if (core.startsWith("Peer")) {
            core = core.substring("Peer".length());
        }
        if (core.endsWith("Benchmark")) {
            core = core.substring(0, core.length() - "Benchmark".length());
        }
        return core.isEmpty() ? name : core;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    /** What makes a transaction: the class and its params; ordered by class, then the differing params' values. */
    private record Key(String benchmarkClass, SortedMap<String, String> params, SortedSet<String> differing)
            implements Comparable<Key> {

        String label() {
            StringBuilder label = new StringBuilder(transactionName(benchmarkClass));
            for (String p : differing) {
                label.append(' ').append(p).append('=').append(params.getOrDefault(p, "–"));
            }
            return label.toString();
        }

        @Override
        public int compareTo(Key o) {
            int c = benchmarkClass.compareTo(o.benchmarkClass);
            for (String p : differing) {
                if (c != 0) {
                    return c;
                }
                c = RunGroup.VALUES.compare(params.getOrDefault(p, ""), o.params.getOrDefault(p, ""));
            }
            return c != 0 ? c : params.toString().compareTo(o.params.toString());
        }
    }
}
