package io.jato.stm.spi;

import java.util.Arrays;

/**
 * The pooled {@link Scratch} objects of one {@link TxnContext}: borrowed during an attempt,
 * recycled when it ends. Allocates only while a pool grows to the largest number of objects of a
 * kind one transaction uses. Owner thread only. (Package-private: it uses Scratch's ids.)
 */
final class ScratchPool extends ThreadPadding {
    /** Pooled objects per {@link Scratch} id, and how many of each this attempt borrowed. */
    private Scratch.Pooled[][] pools = new Scratch.Pooled[8][];
    private int[] used = new int[8];
    /** Ids with a non-zero use count in this attempt. */
    private int[] touched = new int[8];
    private int touchedCount;

    @SuppressWarnings("unchecked")
    <T extends Scratch.Pooled> T borrow(Scratch<T> kind) {
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

    /** Recycles everything this attempt borrowed; the pool is empty afterwards even if a recycle throws. */
    void recycleAll() {
        if (touchedCount == 0) {
            return;
        }
        try {
            for (int t = 0, n = touchedCount; t < n; t++) {
                int id = touched[t];
                Scratch.Pooled[] pool = pools[id];
                for (int i = 0, u = used[id]; i < u; i++) {
                    pool[i].recycle();
                }
            }
        } finally {
            for (int t = 0, n = touchedCount; t < n; t++) {
                used[touched[t]] = 0;
            }
            touchedCount = 0;
        }
    }
}
