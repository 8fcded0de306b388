package io.jato.workloads.tpcc;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/*
 * Silo's fast order id, and what keeps it checkable.
 *
 * With the STRICT policy new-order takes O_ID from D_NEXT_O_ID inside the transaction, a
 * read-modify-write that makes every two new-orders of one district conflict. With FAST, O_ID comes
 * from a per-district counter advanced by an atomic add outside the transaction (Silo's TPC-C, which the
 * OSTO paper's measurements enable), so new-orders of one district no longer conflict on it; D_NEXT_O_ID is
 * then left as loaded and the counter is the district's next order id.
 *
 * The price is gaps: an id whose new-order rolls back (the 1% of clause 2.4.1.4) or gives up is
 * never used. A worker takes one id per drawn new-order and keeps it across retries, so an abort
 * that is retried leaves no gap; only an id whose transaction ends without committing does, and
 * the worker reports it here. The consistency check then replaces conditions 2 and 3, which assume
 * contiguous ids, with exact versions that account for every taken id (TpccConsistency).
 *
 * Counters are padded to a cache line pair each: the two districts that two workers hit at once
 * must not share a line. Abandoned ids are rare (about 1 in 100 new-orders) and go to a small
 * synchronized list per district.
 */

/** Per-district order-id counters of the fast order-id policy, and the ids that were never used. */
final class TpccOrderIds {
    /** How new-order gets its O_ID. */
    enum Policy {
        /** Read-modify-write of D_NEXT_O_ID in the transaction: contiguous ids, conflicts per district. */
        STRICT("strict"),
        /** A per-district atomic counter outside the transaction (Silo): gaps, no conflict on the id. */
        FAST("fast");

        private final String cliName;

        Policy(String cliName) {
            this.cliName = cliName;
        }

        String cliName() {
            return cliName;
        }
    }

    /** Longs per counter: 128 bytes, so neighbouring districts' counters never share a cache line. */
    private static final int STRIDE = 16;

    private final Policy policy;
    /** Per district, at {@code index * STRIDE}: the next id. Advanced by any worker with getAndIncrement. */
    private final AtomicLongArray next;
    /**
     * Per district index: the ids taken and never committed, in no particular order, and how many.
     * Written and read only while holding the monitor of {@code abandoned}.
     */
    private final long[][] abandoned;
    private final int[] abandonedCount;

    TpccOrderIds(Policy policy, int warehouses) {
        this.policy = policy;
        int districts = (warehouses + 1) << TpccKeys.DISTRICT_BITS;
        this.next = new AtomicLongArray(districts * STRIDE);
        for (int i = 0; i < districts; i++) {
            next.set(i * STRIDE, TpccDatabase.ORDERS_PER_DISTRICT + 1);
        }
        this.abandoned = new long[districts][];
        this.abandonedCount = new int[districts];
    }

    Policy policy() {
        return policy;
    }

    boolean fast() {
        return policy == Policy.FAST;
    }

    /** @return a new order id for district (w, d), never returned before */
    long take(int w, int d) {
        return next.getAndIncrement(index(w, d) * STRIDE);
    }

    /** @return the district's next order id: one above every id taken so far */
    long next(int w, int d) {
        return next.get(index(w, d) * STRIDE);
    }

    /**
     * After a recovery, before any new-order runs: the district's counter continues at
     * {@code nextId} (never below the loaded orders' next id).
     */
    void restore(int w, int d, long nextId) {
        int i = index(w, d) * STRIDE;
        next.set(i, Math.max(next.get(i), nextId));
    }

    /** Records that id {@code o} of district (w, d) was taken and its new-order did not commit. */
    void abandon(int w, int d, long o) {
        int i = index(w, d);
        synchronized (abandoned) {
            long[] a = abandoned[i];
            if (a == null) {
                a = abandoned[i] = new long[8];
            } else if (abandonedCount[i] == a.length) {
                a = abandoned[i] = Arrays.copyOf(a, a.length * 2);
            }
            a[abandonedCount[i]++] = o;
        }
    }

    /** @return the abandoned ids of district (w, d), sorted; call while no new-order runs */
    long[] abandoned(int w, int d) {
        int i = index(w, d);
        synchronized (abandoned) {
            long[] a = abandoned[i] == null ? new long[0] : Arrays.copyOf(abandoned[i], abandonedCount[i]);
            Arrays.sort(a);
            return a;
        }
    }

    private static int index(int w, int d) {
        return w << TpccKeys.DISTRICT_BITS | d;
    }
}
