package io.jato.stm.spi;

import io.jato.stm.AbortCause;
import io.jato.stm.TxnType;

import java.util.Arrays;

/**
 * One context's statistics: attempts started, commits, aborts by cause, per transaction type (the
 * totals are the sum of the rows). Written only by the owner thread with plain stores (and only
 * when the store keeps statistics); summed racily by the store. A row is {@code [starts, commits,
 * aborts by cause...]}.
 */
final class TxnCounters extends ThreadPadding {
    private static final int SLOTS = 2 + AbortCause.count();

    private final boolean enabled;
    /**
     * Rows per type id, created when a type is first used on this thread; the array grows by
     * copying (owner thread; a racy reader sees the old or the new array, both valid).
     */
    private long[][] byType = new long[1][];
    /** The row of the running transaction's type. */
    private long[] row;
    /** The type id of {@link #row}; -1 before the first. */
    private int rowId = -1;

    TxnCounters(boolean enabled) {
        this.enabled = enabled;
        if (enabled) {
            type(TxnType.UNTYPED);
        }
    }

    /** Selects the type whose row the next events count into (the retry loop, once per transaction). */
    void type(TxnType type) {
        if (!enabled) {
            return;
        }
        int id = type.id();
        if (id == rowId) {
            // The usual case: the thread's last transaction had the same type.
            return;
        }
        long[][] b = byType;
        if (id >= b.length) {
            b = Arrays.copyOf(b, Math.max(id + 1, b.length * 2));
            byType = b;
        }
        long[] r = b[id];
        if (r == null) {
            r = new long[SLOTS];
            b[id] = r;
        }
        row = r;
        rowId = id;
    }

    void started() {
        if (enabled) {
            row[0]++;
        }
    }

    void committed() {
        if (enabled) {
            row[1]++;
        }
    }

    void aborted(AbortCause cause) {
        if (enabled) {
            row[2 + cause.ordinal()]++;
        }
    }

    /**
     * Adds the totals over every type into {@code acc} = [starts, commits, aborts by cause...]. The
     * totals are not kept apart: summing the rows here is cheaper than a second increment per event.
     */
    void addTo(long[] acc) {
        long[][] b = byType;
        for (int id = 0; id < b.length; id++) {
            long[] r = b[id];
            if (r != null) {
                // Ends before starts: the owner bumps starts first, so this order keeps a racy
                // snapshot from showing more ended attempts than started ones.
                for (int i = SLOTS - 1; i >= 0; i--) {
                    acc[i] += r[i];
                }
            }
        }
    }

    /** Adds each type's row into {@code acc[type id]} (created if null; {@code acc} has a slot per possible id). */
    void addTypesTo(long[][] acc) {
        long[][] b = byType;
        for (int id = 0; id < b.length; id++) {
            long[] r = b[id];
            if (r != null) {
                long[] into = acc[id];
                if (into == null) {
                    into = new long[SLOTS];
                    acc[id] = into;
                }
                for (int i = SLOTS - 1; i >= 0; i--) {
                    into[i] += r[i];
                }
            }
        }
    }
}
