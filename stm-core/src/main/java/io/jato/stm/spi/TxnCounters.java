package io.jato.stm.spi;

import io.jato.stm.AbortCause;

/**
 * One context's statistics: attempts started, commits, aborts by cause. Written only by the owner
 * thread with plain stores (and only when the store keeps statistics); summed racily by the store.
 */
final class TxnCounters extends ThreadPadding {
    private final boolean enabled;
    private long starts;
    private long commits;
    private final long[] aborts = new long[AbortCause.count()];

    TxnCounters(boolean enabled) {
        this.enabled = enabled;
    }

    void started() {
        if (enabled) {
            starts++;
        }
    }

    void committed() {
        if (enabled) {
            commits++;
        }
    }

    void aborted(AbortCause cause) {
        if (enabled) {
            aborts[cause.ordinal()]++;
        }
    }

    /** Adds the counters into {@code acc} = [starts, commits, aborts by cause...]. */
    void addTo(long[] acc) {
        // Ends before starts: the owner bumps starts first, so this order keeps a racy snapshot
        // from showing more ended attempts than started ones.
        for (int i = 0; i < aborts.length; i++) {
            acc[2 + i] += aborts[i];
        }
        acc[1] += commits;
        acc[0] += starts;
    }
}
