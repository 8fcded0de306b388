package io.jato.workloads;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's garbage collectors and what they have done so far: collections and accumulated
 * collection time, summed over every collector the JVM reports (a young and an old one for G1 and
 * Parallel). Two snapshots bracket the measured interval, so a report can say how much of it went
 * to collections; the collector's name says which one ran, since it changes throughput a lot on
 * this workload (docs/benchmarks).
 *
 * @param collectors the collectors' names, joined with " + " ("G1 Young Generation + G1 Old Generation")
 * @param count      collections so far, or -1 if a collector does not count them
 * @param millis     accumulated collection time in milliseconds, or -1 if a collector does not time them
 */
public record GcTotals(String collectors, long count, long millis) {
    /** @return the collectors' totals now */
    public static GcTotals now() {
        List<String> names = new ArrayList<>();
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            names.add(gc.getName());
            long c = gc.getCollectionCount();
            long t = gc.getCollectionTime();
            count = count < 0 || c < 0 ? -1 : count + c;
            millis = millis < 0 || t < 0 ? -1 : millis + t;
        }
        return new GcTotals(String.join(" + ", names), count, millis);
    }

    /** @return what happened between {@code earlier} and this snapshot (-1 where either is unknown) */
    public GcTotals since(GcTotals earlier) {
        return new GcTotals(collectors,
                count < 0 || earlier.count < 0 ? -1 : count - earlier.count,
                millis < 0 || earlier.millis < 0 ? -1 : millis - earlier.millis);
    }
}
