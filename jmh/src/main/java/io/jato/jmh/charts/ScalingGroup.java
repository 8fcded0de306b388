package io.jato.jmh.charts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The results one pair of scaling charts shows: one benchmark in one JMH mode with one value of
 * every param except {@code protocol} (which names the series) and {@code warehouses=threads}
 * (which follows the thread count, so it is the x axis already, not a separate experiment). Each
 * series has at most one result per thread count, and all results share one score unit; groups
 * come out of {@link #of} in a fixed order (benchmark, mode, params) with distinct file names.
 *
 * @param slug the file-name stem of this group's charts: lower case, {@code [a-z0-9-]} only,
 *     unique among the groups of one rendering
 * @param params the params that identify the group (the protocol and a thread-tied warehouse
 *     count left out), sorted by name
 * @param series one per protocol, in protocol order; a single series where there is no protocol
 */
record ScalingGroup(
        String slug,
        String benchmark,
        String mode,
        SortedMap<String, String> params,
        String scoreUnit,
        List<Series> series) {

    /** The param whose values are the series. */
    static final String PROTOCOL = "protocol";
    /** A param that may be tied to the thread count (TPC-C's warehouses). */
    static final String WAREHOUSES = "warehouses";
    /** The value of {@link #WAREHOUSES} that means "one per thread". */
    static final String TIED_TO_THREADS = "threads";

    /**
     * One line of a chart, one row of the summary's table.
     *
     * @param protocol the {@code protocol} param's value; null where the benchmark has none
     * @param points the results by thread count
     */
    record Series(String protocol, SortedMap<Integer, JmhResult> points) {
        Series {
            points = new TreeMap<>(points);
        }

        /** The legend's and the table's name: the protocol, or else the benchmark method. */
        String label(String benchmark) {
            return protocol != null ? protocol : benchmark.substring(benchmark.lastIndexOf('.') + 1);
        }

        /** The result at the highest thread count this series has. */
        JmhResult highest() {
            return points.get(points.lastKey());
        }
    }

    ScalingGroup {
        params = new TreeMap<>(params);
        series = List.copyOf(series);
    }

    /** {@code Class.method} of the benchmark: its full name without the package. */
    String shortName() {
        return shortName(benchmark);
    }

    private static String shortName(String benchmark) {
        int method = benchmark.lastIndexOf('.');
        int type = method > 0 ? benchmark.lastIndexOf('.', method - 1) : -1;
        return benchmark.substring(type + 1);
    }

    /** The group's name in titles and headings: the benchmark, its mode and the params that make the group. */
    String title() {
        StringBuilder t = new StringBuilder(shortName()).append(" (").append(mode).append(')');
        String sep = ", ";
        for (Map.Entry<String, String> p : params.entrySet()) {
            t.append(sep).append(p.getKey()).append('=').append(p.getValue());
            sep = ", ";
        }
        return t.toString();
    }

    /**
     * The group's name on a chart, where width is short: as {@link #title} without the params whose
     * value is {@code default} (the benchmark's own choice; the summary's heading lists them all).
     */
    String chartTitle() {
        StringBuilder t = new StringBuilder(shortName()).append(" (").append(mode).append(')');
        for (Map.Entry<String, String> p : params.entrySet()) {
            if (!"default".equals(p.getValue())) {
                t.append(", ").append(p.getKey()).append('=').append(p.getValue());
            }
        }
        return t.toString();
    }

    /** Every thread count any series has, ascending: the x axis and the table's columns. */
    SortedSet<Integer> threadCounts() {
        SortedSet<Integer> threads = new TreeSet<>();
        for (Series s : series) {
            threads.addAll(s.points().keySet());
        }
        return threads;
    }

    /**
     * Whether any result has an abort rate (both counters, and some transaction ended), so that an
     * abort-rate chart has something to show.
     */
    boolean hasAbortRates() {
        return series.stream().flatMap(s -> s.points().values().stream())
                .anyMatch(r -> !Double.isNaN(r.abortRatePercent()));
    }

    String throughputChart() {
        return slug + "-throughput.png";
    }

    String abortsChart() {
        return slug + "-aborts.png";
    }

    /**
     * Groups results for charting.
     *
     * @throws ResultsInputException two results would be the same point (same group, protocol and
     *     thread count, e.g. one benchmark in two input files), or one group mixes score units
     */
    static List<ScalingGroup> of(List<JmhResult> results) throws ResultsInputException {
        // Key -> protocol -> threads -> result. The protocol key is "" where there is none (TreeMap
        // takes no null); Series gets null back for that.
        Map<Key, SortedMap<String, SortedMap<Integer, JmhResult>>> byKey = new HashMap<>();
        for (JmhResult r : results) {
            SortedMap<String, String> params = new TreeMap<>(r.params());
            String protocol = params.remove(PROTOCOL);
            if (TIED_TO_THREADS.equals(params.get(WAREHOUSES))) {
                params.remove(WAREHOUSES);
            }
            Key key = new Key(r.benchmark(), r.mode(), params);
            SortedMap<Integer, JmhResult> points = byKey.computeIfAbsent(key, k -> new TreeMap<>())
                    .computeIfAbsent(protocol == null ? "" : protocol, p -> new TreeMap<>());
            JmhResult earlier = points.putIfAbsent(r.threads(), r);
            if (earlier != null) {
                throw new ResultsInputException("two results for the same point (" + r.benchmark() + " "
                        + r.mode() + " " + r.params() + ", " + r.threads() + " threads): " + earlier.where()
                        + " and " + r.where() + "; render them separately");
            }
        }
        List<Key> keys = new ArrayList<>(byKey.keySet());
        keys.sort(Comparator.comparing(Key::benchmark).thenComparing(Key::mode)
                .thenComparing(k -> k.params().toString()));
        List<ScalingGroup> groups = new ArrayList<>(keys.size());
        Set<String> slugs = new HashSet<>();
        for (Key key : keys) {
            List<Series> series = new ArrayList<>();
            for (Map.Entry<String, SortedMap<Integer, JmhResult>> s : byKey.get(key).entrySet()) {
                series.add(new Series(s.getKey().isEmpty() ? null : s.getKey(), s.getValue()));
            }
            String unit = unit(series);
            String slug = Slugs.unique(slugs, slug(key));
            groups.add(new ScalingGroup(slug, key.benchmark(), key.mode(), key.params(), unit, series));
        }
        return groups;
    }

    private static String unit(List<Series> series) throws ResultsInputException {
        JmhResult first = null;
        for (Series s : series) {
            for (JmhResult r : s.points().values()) {
                if (first == null) {
                    first = r;
                } else if (!Objects.equals(first.scoreUnit(), r.scoreUnit())) {
                    throw new ResultsInputException("results of " + r.benchmark() + " in different units ("
                            + first.scoreUnit() + " in " + first.where() + ", " + r.scoreUnit() + " in "
                            + r.where() + "): one chart cannot show both; run them with the same -tu");
                }
            }
        }
        return first == null ? "" : first.scoreUnit();
    }

    private static String slug(Key key) {
        StringBuilder s = new StringBuilder(shortName(key.benchmark())).append('-').append(key.mode());
        for (Map.Entry<String, String> p : key.params().entrySet()) {
            s.append('-').append(p.getKey()).append('-').append(p.getValue());
        }
        return Slugs.of(s.toString());
    }

    /** What makes a group: everything but the protocol and the thread count. */
    private record Key(String benchmark, String mode, SortedMap<String, String> params) {
    }
}
