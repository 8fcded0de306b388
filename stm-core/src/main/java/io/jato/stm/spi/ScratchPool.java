package io.jato.stm.spi;

import java.util.Arrays;

/*
 * A layer of the context's class chain (Txn <- AccessSet <- ScratchPool <- CommitDriver <-
 * RetryLoop <- UserTxn <- TxnContext), not an object the context holds, for the reason CommitDriver gives:
 * every updater and every buffered map write borrows here, and every attempt that borrowed
 * recycles here, so the pool's arrays are one load closer as fields of the context: writes that
 * borrow ran 2-5% faster in JMH than with the pool an object of its own
 * (docs/benchmarks/2026-11-perfasm.md, "Scratch pool as a layer too").
 */

/**
 * The pooled {@link Scratch} objects of one {@link TxnContext}: borrowed during an attempt,
 * recycled when it ends. Allocates only while a pool grows to the largest number of objects of a
 * kind one transaction uses. Owner thread only. (Package-private: it uses Scratch's ids.)
 */
abstract class ScratchPool extends AccessSet {
    /** Pooled objects per {@link Scratch} id, and how many of each this attempt borrowed. */
    private Scratch.Pooled[][] pools = new Scratch.Pooled[8][];
    private int[] used = new int[8];
    /** Ids with a non-zero use count in this attempt. */
    private int[] touched = new int[8];
    private int touchedCount;

    @SuppressWarnings("unchecked")
    final <T extends Scratch.Pooled> T borrowScratch(Scratch<T> kind) {
        int id = kind.id;
        if (id >= used.length) {
            int cap = Math.max(id + 1, used.length * 2);
            Scratch.Pooled[][] np = Arrays.copyOf(pools, cap);
            int[] nu = Arrays.copyOf(used, cap);
            pools = np;
            used = nu;
        }
        int n = used[id];
        if (n == 0) {
            if (touchedCount == touched.length) {
                touched = Arrays.copyOf(touched, touchedCount * 2);
            }
            touched[touchedCount++] = id;
        }
        Scratch.Pooled[] pool = pools[id];
        if (pool == null) {
            pool = pools[id] = new Scratch.Pooled[4];
        } else if (n == pool.length) {
            pool = pools[id] = Arrays.copyOf(pool, n * 2);
        }
        Scratch.Pooled p = pool[n];
        if (p == null) {
            p = pool[n] = kind.create();
        }
        used[id] = n + 1;
        return (T) p;
    }

    /**
     * Recycles everything this attempt borrowed; the pool is empty afterwards even if a recycle
     * throws. One pass: each kind's count is reset before its objects are recycled, and only a
     * throw resets the kinds not reached yet.
     */
    final void recycleAll() {
        int n = touchedCount;
        if (n == 0) {
            return;
        }
        touchedCount = 0;
        int t = 0;
        try {
            for (; t < n; t++) {
                int id = touched[t];
                int u = used[id];
                used[id] = 0;
                Scratch.Pooled[] pool = pools[id];
                for (int i = 0; i < u; i++) {
                    pool[i].recycle();
                }
            }
        } catch (Throwable e) {
            for (t++; t < n; t++) {
                used[touched[t]] = 0;
            }
            throw e;
        }
    }
}
