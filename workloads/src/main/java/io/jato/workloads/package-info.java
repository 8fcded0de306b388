/**
 * The command-line runner and what every workload shares: {@link io.jato.workloads.Main} (the
 * {@code jato} command and its option parsing), the {@link io.jato.workloads.Workload} abstraction
 * (load, run one transaction, check), the timed multi-threaded {@link io.jato.workloads.Runner} and
 * the {@link io.jato.workloads.Report} in text and JSON.
 *
 * <p>The module is an application, run from a shaded jar on the class path; it has no
 * {@code module-info} and no API promises beyond what the workloads need from each other.
 */
package io.jato.workloads;
