package io.jato.jmh.charts;

import java.util.List;

/**
 * What produced a runner report: when it started, from which commit, on which JVM (with its flags)
 * and machine. Values the report does not have are empty strings, never null, so the summary can
 * print them as they are; an older report knows only the JVM version and the processor count.
 *
 * @param recorded whether the report has the provenance keys ({@code started_at}, {@code jvm},
 *     {@code machine}) or predates them
 */
record RunProvenance(
        boolean recorded,
        String startedAt,
        String gitCommit,
        String jvmVersion,
        String jvmVm,
        List<String> jvmFlags,
        String cpuModel,
        String processors,
        String os) {

    RunProvenance {
        jvmFlags = List.copyOf(jvmFlags);
    }
}
