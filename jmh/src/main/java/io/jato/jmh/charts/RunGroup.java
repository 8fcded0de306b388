package io.jato.jmh.charts;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Runner reports of one workload with one set of parameters: one table of the summary, and, where
 * they were run at two or more thread counts, one scaling chart (throughput against threads, one
 * line per protocol). Reports that agree on workload, parameters, protocol and threads are repeats
 * of one run: a chart shows their mean, the table lists each. Groups come out of {@link #of} in a
 * fixed order (workload, then parameters), each group's reports by protocol and threads.
 *
 * @param parameters the workload parameters every report of the group has, sorted by name
 */
record RunGroup(String workload, SortedMap<String, String> parameters, List<RunReport> reports) {

    /** Orders parameter values numerically where both are numbers (2 before 10), else as text, numbers first. */
    static final Comparator<String> VALUES = (a, b) -> {
        Double x = number(a);
        Double y = number(b);
        if (x != null && y != null) {
            return Double.compare(x, y);
        }
        if (x != null || y != null) {
            return x != null ? -1 : 1;
        }
        return a.compareTo(b);
    };

    RunGroup {
        parameters = new TreeMap<>(parameters);
        reports = List.copyOf(reports);
    }

    /** The reports grouped by workload and parameters. */
    static List<RunGroup> of(List<RunReport> reports) {
        Map<List<Object>, List<RunReport>> byKey = new LinkedHashMap<>();
        for (RunReport r : reports) {
            byKey.computeIfAbsent(List.of(r.workload(), r.parameters()), k -> new ArrayList<>()).add(r);
        }
        List<RunGroup> groups = new ArrayList<>();
        for (List<RunReport> members : byKey.values()) {
            List<RunReport> sorted = new ArrayList<>(members);
            sorted.sort(Comparator.comparing(RunReport::protocol).thenComparingInt(RunReport::threads));
            RunReport first = sorted.get(0);
            groups.add(new RunGroup(first.workload(), first.parameters(), sorted));
        }
        groups.sort(Comparator.comparing(RunGroup::workload).thenComparing(g -> g.parameters().toString()));
        return groups;
    }

    /** The workload and its parameters, for headings and titles: {@code tpcc (mode=cu+ts, warehouses=1)}. */
    String title() {
        return parameters.isEmpty() ? workload
                : workload + " (" + describe(parameters, parameters.keySet(), ", ") + ")";
    }

    /** Whether the group was run at two or more thread counts, so that a scaling chart has a line to draw. */
    boolean scales() {
        return reports.stream().map(RunReport::threads).distinct().count() > 1;
    }

    /** Protocol, then threads, then the mean throughput of the reports there (the scaling chart's lines). */
    SortedMap<String, SortedMap<Integer, Double>> throughputByProtocolAndThreads() {
        SortedMap<String, SortedMap<Integer, List<RunReport>>> points = new TreeMap<>();
        for (RunReport r : reports) {
            points.computeIfAbsent(r.protocol(), p -> new TreeMap<>())
                    .computeIfAbsent(r.threads(), t -> new ArrayList<>()).add(r);
        }
        SortedMap<String, SortedMap<Integer, Double>> lines = new TreeMap<>();
        points.forEach((protocol, byThreads) -> {
            SortedMap<Integer, Double> line = new TreeMap<>();
            byThreads.forEach((threads, repeats) -> line.put(threads, mean(repeats, RunReport::throughput)));
            lines.put(protocol, line);
        });
        return lines;
    }

    /** Every thread count of the group, ascending: the scaling chart's x axis. */
    SortedSet<Integer> threadCounts() {
        SortedSet<Integer> threads = new TreeSet<>();
        reports.forEach(r -> threads.add(r.threads()));
        return threads;
    }

    /**
     * The parameters whose values are not the same in all of {@code reports} (a parameter that
     * some lack counts as differing): what tells those reports apart besides protocol and threads.
     */
    static SortedSet<String> differingParameters(List<RunReport> reports) {
        SortedSet<String> names = new TreeSet<>();
        reports.forEach(r -> names.addAll(r.parameters().keySet()));
        names.removeIf(n -> reports.stream().map(r -> r.parameters().get(n)).distinct().count() == 1);
        return names;
    }

    /** {@code k=v k2=v2} for {@code names} (a value the report lacks is "–"); "" for none. */
    static String describe(RunReport r, SortedSet<String> names) {
        return describe(r.parameters(), names, " ");
    }

    private static String describe(Map<String, String> parameters, Collection<String> names, String separator) {
        List<String> parts = new ArrayList<>();
        for (String n : names) {
            parts.add(n + "=" + Objects.requireNonNullElse(parameters.get(n), "–"));
        }
        return String.join(separator, parts);
    }

    /** The mean of {@code value} over {@code reports}, leaving NaN out; NaN where none has one. */
    static double mean(List<RunReport> reports, ToDoubleFunction<RunReport> value) {
        return reports.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
    }

    private static Double number(String text) {
        try {
            double d = Double.parseDouble(text);
            return Double.isNaN(d) ? null : d;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
