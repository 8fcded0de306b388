package io.jato.stm;

import java.util.EnumMap;
import java.util.Map;

/**
 * An immutable snapshot of a store's counters: attempts started, transactions committed, and
 * aborted attempts by cause. Snapshots are summed from per-thread counters without stopping the
 * world, so a snapshot taken while transactions run is only approximately consistent; take two
 * and {@link #minus} them to measure an interval.
 */
public final class StmStatistics {
    private final long starts;
    private final long commits;
    private final long[] aborts;

    public StmStatistics(long starts, long commits, long[] abortsByCause) {
        if (abortsByCause.length != AbortCause.count()) {
            throw new IllegalArgumentException("abortsByCause must have one slot per AbortCause");
        }
        this.starts = starts;
        this.commits = commits;
        this.aborts = abortsByCause.clone();
    }

    /** @return attempts started (commits + aborts, plus any attempt still running) */
    public long starts() {
        return starts;
    }

    public long commits() {
        return commits;
    }

    public long aborts(AbortCause cause) {
        return aborts[cause.ordinal()];
    }

    /** @return aborted attempts of every cause */
    public long aborts() {
        long sum = 0;
        for (long a : aborts) {
            sum += a;
        }
        return sum;
    }

    /** @return aborts / (commits + aborts), or 0 if nothing ended */
    public double abortRate() {
        long a = aborts();
        long total = a + commits;
        return total == 0 ? 0.0 : (double) a / total;
    }

    /** @return the non-zero abort counts by cause */
    public Map<AbortCause, Long> abortsByCause() {
        Map<AbortCause, Long> m = new EnumMap<>(AbortCause.class);
        for (AbortCause c : AbortCause.values()) {
            if (aborts[c.ordinal()] != 0) {
                m.put(c, aborts[c.ordinal()]);
            }
        }
        return m;
    }

    /** @return this snapshot minus an earlier one */
    public StmStatistics minus(StmStatistics earlier) {
        long[] d = new long[aborts.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = aborts[i] - earlier.aborts[i];
        }
        return new StmStatistics(starts - earlier.starts, commits - earlier.commits, d);
    }

    @Override
    public String toString() {
        return "StmStatistics{starts=" + starts + ", commits=" + commits + ", aborts=" + abortsByCause() + '}';
    }
}
