/**
 * {@link io.jato.jmh.charts.ScalingCharts}: renders JMH JSON results as scaling charts (throughput
 * and abort rate against the thread count, one line per protocol) and a Markdown summary.
 *
 * <p>A tool of the benchmark jar, not part of any benchmark: it runs after JMH, on the files
 * {@code -rf json -rff FILE} wrote, and is shaded into {@code benchmarks.jar} with the two libraries
 * it reads and draws with (Gson, XChart; {@code docs/dependencies.md}).
 */
package io.jato.jmh.charts;
