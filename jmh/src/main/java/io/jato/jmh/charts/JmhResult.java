package io.jato.jmh.charts;

import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One entry of a JMH JSON result file: one benchmark, in one mode, with one set of params, at one
 * thread count. Immutable; {@code params} and {@code secondary} are sorted by name so that
 * everything derived from them (group keys, titles, file names, table order) is deterministic.
 *
 * @param source the file the entry was read from, for messages and the summary
 * @param index the entry's position in that file (0-based), for messages
 * @param scoreError JMH's error margin of the score; NaN where JMH could not compute one
 */
record JmhResult(
        Path source,
        int index,
        String benchmark,
        String mode,
        int threads,
        SortedMap<String, String> params,
        double score,
        double scoreError,
        String scoreUnit,
        SortedMap<String, Metric> secondary,
        Provenance provenance) {

    /** The secondary metric that counts aborted transactions. */
    static final String ABORTS = "aborts";
    /** The secondary metric that counts committed transactions. */
    static final String COMMITS = "commits";

    JmhResult {
        params = new TreeMap<>(params);
        secondary = new TreeMap<>(secondary);
    }

    /** Where the entry came from, as messages name it. */
    String where() {
        return source + " (entry " + index + ")";
    }

    /** Whether both counters of the abort rate are present. */
    boolean hasAbortCounts() {
        return secondary.containsKey(ABORTS) && secondary.containsKey(COMMITS);
    }

    /**
     * The abort rate in percent: aborts / (commits + aborts). NaN where the counters are missing or
     * no transaction ended at all (0 / 0 is no rate, and printing it as 0% would claim one).
     */
    double abortRatePercent() {
        if (!hasAbortCounts()) {
            return Double.NaN;
        }
        double aborts = secondary.get(ABORTS).score();
        double ended = secondary.get(COMMITS).score() + aborts;
        return ended > 0 ? 100.0 * aborts / ended : Double.NaN;
    }

    /**
     * The per-cause abort counters ({@code abort*} secondary metrics other than {@code aborts})
     * that are not zero, in name order.
     */
    SortedMap<String, Metric> abortCauses() {
        SortedMap<String, Metric> causes = new TreeMap<>();
        for (Map.Entry<String, Metric> e : secondary.entrySet()) {
            String name = e.getKey();
            if (name.startsWith("abort") && !name.equals(ABORTS) && e.getValue().score() != 0) {
                causes.put(name, e.getValue());
            }
        }
        return causes;
    }
}
