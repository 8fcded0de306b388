package io.jato.stm;

import javax.management.ConstructorParameters;
import java.util.List;
import java.util.Map;

/**
 * The management view of one store: its name, protocols and statistics as read-only JMX
 * attributes, for JConsole, JDK Mission Control or any JMX client. A store built with
 * {@link Stm.Builder#jmx(boolean) jmx(true)} registers one on the platform MBeanServer as
 * {@code io.jato:type=Stm,name=<the store's name, quoted with ObjectName.quote>} (see
 * {@link Stm#jmxName()}); applications do not implement this interface.
 *
 * <p>Every attribute is computed when it is read, from {@link Stm#statistics()} and
 * {@link Stm#statisticsByType()}: reading costs what those cost (a sum over the threads that ran
 * transactions of the store), and transactions pay nothing for the view. Each attribute is its own
 * snapshot, with the consistency of {@link StmStatistics}: read while transactions run,
 * {@code Starts}, {@code Commits} and {@code Aborts} need not add up exactly. With
 * {@link Stm.Builder#statistics(boolean) statistics off} every counter reads zero.
 *
 * <p>The types are open-type friendly, so a generic client needs no Jato classes: lists become
 * arrays, maps become {@code TabularData} with {@code key} and {@code value} columns, and
 * {@link TypeStatistics} becomes {@code CompositeData}.
 */
public interface StmMXBean {
    /** @return the store's name ({@link Stm#name()}) */
    String getName();

    /** @return every protocol of the store, the default first ({@link Stm#protocols()}) */
    List<String> getProtocols();

    /** @return whether the store counts transactions ({@link Stm.Builder#statistics(boolean)}) */
    boolean isStatisticsEnabled();

    /** @return attempts started ({@link StmStatistics#starts()}) */
    long getStarts();

    /** @return transactions committed ({@link StmStatistics#commits()}) */
    long getCommits();

    /** @return aborted attempts of every cause ({@link StmStatistics#aborts()}) */
    long getAborts();

    /** @return aborts / (commits + aborts), 0 when nothing ended ({@link StmStatistics#abortRate()}) */
    double getAbortRate();

    /**
     * @return aborted attempts by {@link AbortCause} name, every cause in declaration order,
     *         zeros included, so that a monitor sees the same rows from the first read on
     */
    Map<String, Long> getAbortsByCause();

    /**
     * @return the counters of every {@link TxnType} that started a transaction, by type name
     *         ({@link Stm#statisticsByType()})
     */
    Map<String, TypeStatistics> getStatisticsByType();

    /**
     * The counters of one transaction type, as the {@link #getStatisticsByType() StatisticsByType}
     * attribute shows them: a {@code CompositeData} with the items {@code starts}, {@code commits},
     * {@code aborts} and {@code abortRate}. An immutable value.
     */
    final class TypeStatistics {
        private final long starts;
        private final long commits;
        private final long aborts;

        /**
         * @throws IllegalArgumentException if a count is negative, naming it
         */
        @ConstructorParameters({"starts", "commits", "aborts"})
        public TypeStatistics(long starts, long commits, long aborts) {
            if (starts < 0 || commits < 0 || aborts < 0) {
                throw new IllegalArgumentException("counts must not be negative, got starts=" + starts
                        + " commits=" + commits + " aborts=" + aborts);
            }
            this.starts = starts;
            this.commits = commits;
            this.aborts = aborts;
        }

        /** @return the counters of {@code s} */
        public static TypeStatistics of(StmStatistics s) {
            return new TypeStatistics(s.starts(), s.commits(), s.aborts());
        }

        /** @return attempts started */
        public long getStarts() {
            return starts;
        }

        /** @return transactions committed */
        public long getCommits() {
            return commits;
        }

        /** @return aborted attempts of every cause */
        public long getAborts() {
            return aborts;
        }

        /** @return aborts / (commits + aborts), 0 when nothing ended */
        public double getAbortRate() {
            long ended = commits + aborts;
            return ended == 0 ? 0.0 : (double) aborts / ended;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TypeStatistics t && t.starts == starts && t.commits == commits && t.aborts == aborts;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(starts) * 31 * 31 + Long.hashCode(commits) * 31 + Long.hashCode(aborts);
        }

        @Override
        public String toString() {
            return "TypeStatistics{starts=" + starts + ", commits=" + commits + ", aborts=" + aborts + '}';
        }
    }
}
