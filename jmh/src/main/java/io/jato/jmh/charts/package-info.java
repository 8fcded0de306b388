/**
 * Chart tools of the benchmark jar: {@link io.jato.jmh.charts.ScalingCharts} renders JMH JSON
 * results as scaling charts (throughput and abort rate against the thread count, one line per
 * protocol); {@link io.jato.jmh.charts.RunCharts} renders the workload runner's JSON reports
 * ({@code ./jato ... --json}) as throughput-over-time, latency-percentile, protocol-comparison and
 * scaling charts; {@link io.jato.jmh.charts.TableCharts} draws the tables of the benchmark pages
 * ({@code docs/benchmarks/*.md}) that a {@code <!-- chart: ... -->} comment marks. Each checks all
 * its input before writing anything; the first two write a Markdown summary and publish it last,
 * the third writes its PNGs beside the page that links them.
 *
 * <p>Tools, not part of any benchmark: they run after JMH or the runner, on the files those wrote,
 * and are shaded into {@code benchmarks.jar} with the two libraries they read and draw with (Gson,
 * XChart; {@code docs/dependencies.md}). {@code ./jato plot} runs RunCharts, and TableCharts with
 * {@code --tables}.
 */
package io.jato.jmh.charts;
