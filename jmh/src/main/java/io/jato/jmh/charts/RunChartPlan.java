package io.jato.jmh.charts;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * Which charts {@link RunCharts} draws from a set of runner reports, under which file names, and
 * which it cannot draw and why; decided from the reports alone, before anything is written.
 *
 * <ul>
 *   <li>a throughput-over-time chart for each report with a per-second series;
 *   <li>a latency percentile chart for each workload of which two or more reports have a latency
 *       distribution (one line per report), else one for each report that has one;
 *   <li>the protocol × workload bars (throughput, and abort rate where any report has one) when
 *       two or more reports are given;
 *   <li>a scaling chart for each {@link RunGroup} run at two or more thread counts.
 * </ul>
 *
 * @param bars the bar charts' data; null where only one report was given
 * @param notCharted one sentence per chart that could not be drawn, or report left off one
 */
record RunChartPlan(
        List<RunGroup> groups,
        ProtocolBars bars,
        List<Scaling> scaling,
        List<LatencyChart> latency,
        List<Timeline> timelines,
        List<String> notCharted) {

    /** The bar charts' file names. */
    static final String THROUGHPUT_BARS = "throughput-by-protocol.png";
    static final String ABORT_BARS = "aborts-by-protocol.png";

    /** A group's scaling chart. */
    record Scaling(RunGroup group, String file) {
    }

    /** One report's throughput-over-time chart. */
    record Timeline(RunReport report, String file) {
    }

    /** A latency percentile chart: one line per report, each with its legend label. */
    record LatencyChart(String title, String file, Map<String, RunReport> lines) {
        LatencyChart {
            lines = new LinkedHashMap<>(lines);
        }
    }

    RunChartPlan {
        groups = List.copyOf(groups);
        scaling = List.copyOf(scaling);
        latency = List.copyOf(latency);
        timelines = List.copyOf(timelines);
        notCharted = List.copyOf(notCharted);
    }

    /** The plan for {@code reports} (at least one, names distinct). */
    static RunChartPlan of(List<RunReport> reports) {
        Set<String> taken = new HashSet<>(Set.of(stem(THROUGHPUT_BARS), stem(ABORT_BARS)));
        List<String> notCharted = new ArrayList<>();

        ProtocolBars bars = null;
        if (reports.size() < 2) {
            notCharted.add("Protocol × workload bars: one report given; they compare two or more.");
        } else {
            bars = ProtocolBars.of(reports);
            if (!bars.hasAbortRates()) {
                notCharted.add("Abort-rate bars: no report has an abort rate (`stm.abort_rate`).");
            } else {
                reports.stream().filter(r -> Double.isNaN(r.abortRatePercent())).forEach(r -> notCharted.add(
                        Markdown.code(r.name()) + " has no abort rate (`stm.abort_rate`):"
                        + " it has no bar in the abort-rate chart."));
            }
        }

        List<RunGroup> groups = RunGroup.of(reports);
        List<Scaling> scaling = new ArrayList<>();
        for (RunGroup g : groups) {
            if (g.scales()) {
                // Named by the workload and what sets the group apart from the workload's other
                // groups: all its parameters would make names of a hundred characters.
                SortedSet<String> differing = RunGroup.differingParameters(
                        reports.stream().filter(r -> r.workload().equals(g.workload())).toList());
                String name = g.workload() + " " + RunGroup.describe(g.reports().get(0), differing);
                scaling.add(new Scaling(g, Slugs.unique(taken, "scaling-" + Slugs.of(name)) + ".png"));
            }
        }
        if (reports.size() > 1 && scaling.isEmpty()) {
            notCharted.add("Scaling by threads: no two reports differ only in threads (and protocol).");
        }

        List<LatencyChart> latency = latencyCharts(reports, taken, notCharted);

        List<Timeline> timelines = new ArrayList<>();
        for (RunReport r : reports) {
            if (r.hasSeriesToChart()) {
                timelines.add(new Timeline(r, Slugs.unique(taken, "timeline-" + Slugs.of(stem(r.name()))) + ".png"));
            } else {
                notCharted.add(Markdown.code(r.name()) + " " + (r.series() == null
                        ? "has no per-second series (written before the runner recorded one)"
                        : "has no second with a throughput in its per-second series")
                        + ": no throughput-over-time chart.");
            }
        }
        return new RunChartPlan(groups, bars, scaling, latency, timelines, notCharted);
    }

    /**
     * One chart per workload where two or more of its reports have a distribution, their lines
     * labelled by what tells them apart; else one chart per report.
     */
    private static List<LatencyChart> latencyCharts(List<RunReport> reports, Set<String> taken,
            List<String> notCharted) {
        Map<String, List<RunReport>> byWorkload = new TreeMap<>();
        for (RunReport r : reports) {
            if (!r.chartablePercentiles().isEmpty()) {
                byWorkload.computeIfAbsent(r.workload(), w -> new ArrayList<>()).add(r);
            } else {
                notCharted.add(Markdown.code(r.name()) + " " + (r.latencyDistribution() == null
                        ? "has no latency distribution (written before the runner recorded one)"
                        : "has an empty latency distribution (no transaction committed)")
                        + ": not on a latency percentile chart.");
            }
        }
        List<LatencyChart> charts = new ArrayList<>();
        for (Map.Entry<String, List<RunReport>> w : byWorkload.entrySet()) {
            List<RunReport> members = w.getValue();
            if (members.size() == 1) {
                RunReport r = members.get(0);
                charts.add(new LatencyChart("Latency percentiles of " + r.name() + " (" + r.workload() + ", "
                        + r.protocol() + ", " + Formats.threads(r.threads()) + ")",
                        Slugs.unique(taken, "latency-" + Slugs.of(stem(r.name()))) + ".png",
                        Map.of(r.protocol(), r)));
            } else {
                charts.add(new LatencyChart("Latency percentiles of " + w.getKey(),
                        Slugs.unique(taken, "latency-" + Slugs.of(w.getKey())) + ".png", lineLabels(members)));
            }
        }
        return charts;
    }

    /**
     * The protocol, with the parameters that differ between {@code reports} and the thread count
     * where that differs; a label that is still not unique gets the report's name.
     */
    private static Map<String, RunReport> lineLabels(List<RunReport> reports) {
        SortedSet<String> differing = RunGroup.differingParameters(reports);
        boolean threadsDiffer = reports.stream().map(RunReport::threads).distinct().count() > 1;
        List<String> labels = new ArrayList<>();
        for (RunReport r : reports) {
            String params = RunGroup.describe(r, differing);
            labels.add(r.protocol() + (params.isEmpty() ? "" : " " + params)
                    + (threadsDiffer ? ", " + Formats.threads(r.threads()) : ""));
        }
        Map<String, RunReport> lines = new LinkedHashMap<>();
        for (int i = 0; i < reports.size(); i++) {
            String label = labels.get(i);
            boolean repeated = labels.indexOf(label) != labels.lastIndexOf(label);
            lines.put(repeated ? label + " (" + reports.get(i).name() + ")" : label, reports.get(i));
        }
        return lines;
    }

    /** A file name without its {@code .json} or {@code .png} extension. */
    private static String stem(String fileName) {
        return fileName.replaceFirst("\\.(json|png)$", "");
    }
}
