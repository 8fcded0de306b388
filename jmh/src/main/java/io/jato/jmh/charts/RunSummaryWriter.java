package io.jato.jmh.charts;

import java.util.List;

/**
 * Writes {@link RunCharts}' {@code summary.md}: the comparison charts, then per workload and
 * parameters a table (report, protocol, threads, throughput, abort rate, p50/p99/p99.9 latency,
 * check) with that group's scaling and throughput-over-time charts, the latency charts, what
 * produced each report, and one line per chart that could not be drawn, with the reason. Numbers
 * are written by {@link Formats}, as on the charts; a value a report lacks is "n/a".
 */
final class RunSummaryWriter {
    private RunSummaryWriter() {
    }

    static String markdown(List<RunReport> reports, RunChartPlan plan) {
        StringBuilder md = new StringBuilder();
        md.append("# Charts of runner reports\n\n");
        md.append("Rendered by `").append(RunCharts.class.getName()).append("` from ")
                .append(reports.size() == 1 ? "one runner report" : reports.size() + " runner reports")
                .append(" (`./jato WORKLOAD ... --json FILE`) in ")
                .append(plan.groups().size() == 1 ? "one group" : plan.groups().size() + " groups")
                .append(" of workload and parameters.\n\n");
        if (plan.bars() != null) {
            md.append("## Protocols compared\n\n");
            image(md, "throughput by protocol", RunChartPlan.THROUGHPUT_BARS);
            if (plan.bars().hasAbortRates()) {
                image(md, "abort rate by protocol", RunChartPlan.ABORT_BARS);
            }
            md.append('\n');
        }
        for (RunGroup g : plan.groups()) {
            group(md, g, plan);
        }
        if (!plan.latency().isEmpty()) {
            md.append("## Latency percentiles\n\n");
            plan.latency().forEach(l -> image(md, l.title(), l.file()));
            md.append('\n');
        }
        provenance(md, reports);
        if (!plan.notCharted().isEmpty()) {
            md.append("## Not charted\n\n");
            plan.notCharted().forEach(line -> md.append("- ").append(line).append('\n'));
        }
        return md.toString();
    }

    private static void group(StringBuilder md, RunGroup g, RunChartPlan plan) {
        md.append("## ").append(g.title()).append("\n\n");
        md.append("| report | protocol | threads | throughput (txn/s) | abort rate"
                + " | p50 (µs) | p99 (µs) | p99.9 (µs) | check |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (RunReport r : g.reports()) {
            md.append("| ").append(Markdown.cell(Markdown.code(r.name())))
                    .append(" | ").append(Markdown.cell(r.protocol()))
                    .append(" | ").append(r.threads())
                    .append(" | ").append(Formats.number(r.throughput()))
                    .append(" | ").append(Formats.percent(r.abortRatePercent()))
                    .append(" | ").append(Formats.number(r.latency().p50()))
                    .append(" | ").append(Formats.number(r.latency().p99()))
                    .append(" | ").append(Formats.number(r.latency().p999()))
                    .append(" | ").append(switch (r.check()) {
                        case PASSED -> "passed";
                        case FAILED -> "**FAILED**";
                        case NOT_RECORDED -> "n/a";
                    })
                    .append(" |\n");
        }
        md.append('\n');
        StringBuilder charts = new StringBuilder();
        plan.scaling().stream().filter(s -> s.group().equals(g))
                .forEach(s -> image(charts, "throughput by threads", s.file()));
        plan.timelines().stream().filter(t -> g.reports().contains(t.report()))
                .forEach(t -> image(charts, "throughput over time: " + t.report().name(), t.file()));
        if (charts.length() > 0) {
            md.append(charts).append('\n');
        }
    }

    /** One row per report: when, from which commit, on which JVM and machine. */
    private static void provenance(StringBuilder md, List<RunReport> reports) {
        md.append("## Provenance\n\n");
        md.append("| report | file | started | git commit | JVM | JVM flags | CPU | processors | OS |\n");
        md.append("|---|---|---|---|---|---|---|---:|---|\n");
        boolean older = false;
        for (RunReport r : reports) {
            RunProvenance p = r.provenance();
            older |= !p.recorded();
            String jvm = p.jvmVm().isEmpty() ? p.jvmVersion() : p.jvmVersion() + " (" + p.jvmVm() + ")";
            md.append("| ").append(Markdown.cell(Markdown.code(r.name())))
                    .append(" | ").append(Markdown.cell(Markdown.code(r.source().toString())))
                    .append(" | ").append(Markdown.cell(p.startedAt()))
                    .append(" | ").append(Markdown.cell(p.gitCommit()))
                    .append(" | ").append(Markdown.cell(jvm))
                    .append(" | ").append(p.jvmFlags().isEmpty() ? "–"
                            : Markdown.cell(Markdown.code(String.join(" ", p.jvmFlags()))))
                    .append(" | ").append(Markdown.cell(p.cpuModel()))
                    .append(" | ").append(Markdown.cell(p.processors()))
                    .append(" | ").append(Markdown.cell(p.os()))
                    .append(" |\n");
        }
        md.append('\n');
        if (older) {
            md.append("A report without a start time, JVM or machine was written before the runner recorded them;"
                    + " its JVM version and processor count are its `java_version` and `available_processors`.\n\n");
        }
    }

    private static void image(StringBuilder md, String alt, String file) {
        md.append("![").append(alt.replace("]", "\\]")).append("](").append(file).append(")\n");
    }
}
