package io.jato.jmh.charts;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * Writes {@code summary.md}: what produced the results (input files, JMH version, JVM and its
 * arguments), then per group a heading, its charts, a table of throughput and abort rate (rows:
 * series, columns: thread counts) and, where the results have per-cause abort counters, the causes
 * at each series' highest thread count. Numbers are written by {@link Formats}, as on the charts.
 */
final class SummaryWriter {
    private SummaryWriter() {
    }

    static String markdown(List<Path> inputs, List<JmhResult> results, List<ScalingGroup> groups) {
        StringBuilder md = new StringBuilder();
        md.append("# JMH scaling charts\n\n");
        md.append("Rendered by `").append(ScalingCharts.class.getName()).append("` from ")
                .append(inputs.size() == 1 ? "one JMH result file" : inputs.size() + " JMH result files")
                .append(", ").append(results.size()).append(results.size() == 1 ? " result" : " results")
                .append(" in ").append(groups.size()).append(groups.size() == 1 ? " group" : " groups")
                .append(".\n\n");
        provenance(md, results);
        for (ScalingGroup g : groups) {
            group(md, g);
        }
        return md.toString();
    }

    /** One row per input file and distinct JMH/JVM combination (normally one per file). */
    static void provenance(StringBuilder md, List<JmhResult> results) {
        Map<Path, Set<Provenance>> byFile = new LinkedHashMap<>();
        for (JmhResult r : results) {
            byFile.computeIfAbsent(r.source(), f -> new LinkedHashSet<>()).add(r.provenance());
        }
        md.append("| input | JMH | VM | VM version | JVM arguments |\n|---|---|---|---|---|\n");
        for (Map.Entry<Path, Set<Provenance>> f : byFile.entrySet()) {
            for (Provenance p : f.getValue()) {
                md.append("| ").append(Markdown.cell(Markdown.code(f.getKey().toString())))
                        .append(" | ").append(Markdown.cell(p.jmhVersion()))
                        .append(" | ").append(Markdown.cell(p.vmName()))
                        .append(" | ").append(Markdown.cell(p.vmVersion()))
                        .append(" | ").append(p.jvmArgs().isEmpty() ? "(none)"
                                : Markdown.cell(Markdown.code(String.join(" ", p.jvmArgs()))))
                        .append(" |\n");
            }
        }
        md.append('\n');
    }

    private static void group(StringBuilder md, ScalingGroup g) {
        md.append("## ").append(g.title()).append("\n\n");
        md.append("Benchmark ").append(Markdown.code(g.benchmark())).append(", mode ").append(g.mode());
        if (!g.params().isEmpty()) {
            md.append(", params ").append(Markdown.code(g.params().toString()));
        }
        md.append(".\n\n");
        md.append("![throughput](").append(g.throughputChart()).append(")\n");
        if (g.hasAbortRates()) {
            md.append("![abort rate](").append(g.abortsChart()).append(")\n");
        }
        md.append('\n');

        md.append(g.series().get(0).protocol() != null ? "| protocol |" : "| benchmark |");
        for (int t : g.threadCounts()) {
            md.append(' ').append(Formats.threads(t)).append(" |");
        }
        md.append("\n|---|");
        md.append("---:|".repeat(g.threadCounts().size()));
        md.append('\n');
        for (ScalingGroup.Series s : g.series()) {
            md.append("| ").append(Markdown.cell(s.label(g.benchmark()))).append(" |");
            for (int t : g.threadCounts()) {
                JmhResult r = s.points().get(t);
                md.append(' ').append(r == null ? "–" : Markdown.cell(score(r))).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        causes(md, g);
    }

    /** "12,345 ops/s (3.2% aborts)", the abort rate only where the result has one. */
    static String score(JmhResult r) {
        String score = Formats.number(r.score()) + " " + r.scoreUnit();
        double rate = r.abortRatePercent();
        return Double.isNaN(rate) ? score : score + " (" + Formats.percent(rate) + " aborts)";
    }

    /**
     * The non-zero per-cause abort counters at each series' highest thread count, where contention
     * (and so the mix of causes) is greatest; with each cause's share of all aborts where the
     * result counts those.
     */
    private static void causes(StringBuilder md, ScalingGroup g) {
        StringBuilder list = new StringBuilder();
        for (ScalingGroup.Series s : g.series()) {
            JmhResult top = s.highest();
            SortedMap<String, Metric> causes = top.abortCauses();
            if (causes.isEmpty()) {
                continue;
            }
            Metric aborts = top.secondary().get(JmhResult.ABORTS);
            list.append("- ").append(Markdown.cell(s.label(g.benchmark()))).append(", ")
                    .append(Formats.threads(top.threads())).append(':');
            String sep = " ";
            for (Map.Entry<String, Metric> c : causes.entrySet()) {
                Metric m = c.getValue();
                list.append(sep).append(c.getKey()).append(' ').append(Formats.number(m.score()));
                if (!m.unit().isEmpty()) {
                    list.append(' ').append(m.unit());
                }
                if (aborts != null && aborts.score() > 0) {
                    list.append(" (").append(Formats.percent(100 * m.score() / aborts.score())).append(" of aborts)");
                }
                sep = ", ";
            }
            list.append('\n');
        }
        if (list.length() > 0) {
            md.append("Aborts by cause at the highest thread count:\n\n").append(list).append('\n');
        }
    }
}
