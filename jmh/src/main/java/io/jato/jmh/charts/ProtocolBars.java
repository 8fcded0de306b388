package io.jato.jmh.charts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * What the protocol × workload bar charts show: one category per setting (workload, the parameters
 * that tell that workload's reports apart, threads), one bar per protocol in each. A category's
 * label names only what differs between the reports, so that identical settings read alike; a
 * protocol that was not run in a category has no bar there (a null value); repeats of one run
 * (same setting and protocol) are one bar, their mean.
 *
 * @param categories the categories' labels, ordered by workload, then the differing parameters
 *     (numbers numerically), then threads
 * @param throughput protocol to one value per category (txn/s), null where there is no bar
 * @param abortRatePercent the same for {@code stm.abort_rate} in percent; null also where the
 *     reports have no abort rate
 */
record ProtocolBars(
        List<String> categories,
        SortedMap<String, List<Double>> throughput,
        SortedMap<String, List<Double>> abortRatePercent) {

    ProtocolBars {
        categories = List.copyOf(categories);
        throughput = new TreeMap<>(throughput);
        abortRatePercent = new TreeMap<>(abortRatePercent);
    }

    /** The bars of {@code reports}, which must not be empty. */
    static ProtocolBars of(List<RunReport> reports) {
        Map<String, SortedSet<String>> differing = new TreeMap<>();
        for (String workload : reports.stream().map(RunReport::workload).distinct().toList()) {
            differing.put(workload, RunGroup.differingParameters(
                    reports.stream().filter(r -> r.workload().equals(workload)).toList()));
        }
        List<RunReport> sorted = new ArrayList<>(reports);
        sorted.sort(Comparator.comparing(RunReport::workload)
                .thenComparing((a, b) -> compareSettings(a, b, differing.get(a.workload())))
                .thenComparingInt(RunReport::threads));
        // Category label -> protocol -> the reports there (repeats), in category order.
        Map<String, SortedMap<String, List<RunReport>>> cells = new LinkedHashMap<>();
        SortedSet<String> protocols = new TreeSet<>();
        for (RunReport r : sorted) {
            cells.computeIfAbsent(label(r, differing.get(r.workload())), c -> new TreeMap<>())
                    .computeIfAbsent(r.protocol(), p -> new ArrayList<>()).add(r);
            protocols.add(r.protocol());
        }
        return new ProtocolBars(new ArrayList<>(cells.keySet()),
                values(cells, protocols, RunReport::throughput),
                values(cells, protocols, RunReport::abortRatePercent));
    }

    /** Whether any bar has an abort rate, so that the abort-rate chart has something to show. */
    boolean hasAbortRates() {
        return abortRatePercent.values().stream().flatMap(List::stream).anyMatch(v -> v != null);
    }

    /** "tpcc, 2 threads", "ycsb layout=rows writes=rmw, 1 thread". */
    private static String label(RunReport r, SortedSet<String> differing) {
        String params = RunGroup.describe(r, differing);
        return r.workload() + (params.isEmpty() ? "" : " " + params) + ", " + Formats.threads(r.threads());
    }

    private static int compareSettings(RunReport a, RunReport b, SortedSet<String> differing) {
        for (String name : differing) {
            int c = RunGroup.VALUES.compare(a.parameters().getOrDefault(name, ""),
                    b.parameters().getOrDefault(name, ""));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static SortedMap<String, List<Double>> values(Map<String, SortedMap<String, List<RunReport>>> cells,
            SortedSet<String> protocols, ToDoubleFunction<RunReport> value) {
        SortedMap<String, List<Double>> series = new TreeMap<>();
        for (String protocol : protocols) {
            List<Double> bars = new ArrayList<>();
            for (SortedMap<String, List<RunReport>> cell : cells.values()) {
                List<RunReport> repeats = cell.get(protocol);
                double mean = repeats == null ? Double.NaN : RunGroup.mean(repeats, value);
                // XChart leaves a null out (no bar); NaN would break its axis range.
                bars.add(Double.isNaN(mean) ? null : mean);
            }
            series.put(protocol, bars);
        }
        return series;
    }
}
