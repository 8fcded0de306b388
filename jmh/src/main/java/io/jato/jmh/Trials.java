package io.jato.jmh;

import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;

/**
 * Reporting for the STM states. The end-of-trial report runs in a trial tear-down, which JMH's GC
 * profiler still counts into the last measured iteration. So it avoids {@code String.format} (whose
 * first use allocates hundreds of kilobytes), and every state runs its checks and this report once
 * at the end of its set-up too: that verifies the loaded state and makes the tear-down's one-off
 * costs (class initialisation, the fork's first output frame) fall outside the measurement.
 */
final class Trials {
    private Trials() {
    }

    /**
     * Prints the store's counters for the whole trial (warm-up included) into the fork's output,
     * so a multi-threaded result can be read together with its abort rate and causes.
     *
     * @return the statistics printed
     */
    static StmStatistics report(String benchmark, String phase, Stm stm) {
        StmStatistics s = stm.statistics();
        long aborts = s.aborts();
        long ended = s.commits() + aborts;
        StringBuilder line = new StringBuilder(200)
                .append(System.lineSeparator())
                .append("[jato] ").append(benchmark)
                .append(", protocol ").append(stm.protocol())
                .append(", ").append(phase)
                .append(": ").append(s.commits()).append(" commits, ")
                .append(aborts).append(" aborts (")
                .append(ended == 0 ? 0 : aborts * 1_000_000 / ended).append(" per million)");
        if (aborts != 0) {
            line.append(", by cause ").append(s.abortsByCause());
        }
        System.out.println(line);
        return s;
    }
}
