/**
 * TPC-C and YCSB as JMH benchmarks: one operation is one transaction of the runner's workload
 * ({@code io.jato.workloads}), loaded once per trial through the runner's own set-up, so the
 * benchmarks and {@code ./jato} run the same code. Throughput is the primary result; commits and
 * aborts by cause are secondary results ({@link io.jato.jmh.workloads.Attempts}); every trial ends
 * with the workload's checks, and a violation fails the benchmark. How to run them, the scaling
 * sweep and how to read the results against the runner's: {@code docs/benchmarking.md}.
 */
package io.jato.jmh.workloads;
