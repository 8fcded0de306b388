package io.jato.protocols.maat;

import io.jato.stm.AbortCause;
import io.jato.stm.spi.TxItem;

/**
 * The rules of seed 004 that order a committing transaction against the other holders of soft
 * locks on its items ({@link SoftLocks}), by narrowing, pushing or reading their ranges
 * ({@link MaatRange}). {@link MaatControl} calls them from its commit phases: writers after soft
 * readers and frozen soft writers ({@code commitTimestamp}), readers before soft writers
 * ({@code validate}), open soft writers after a writer that froze ({@code prepare}). Stateless
 * beyond the store's slot table; thread-safe.
 */
final class SoftLockOrdering {
    private final SlotTable slotTable;

    SoftLockOrdering(SlotTable slotTable) {
        this.slotTable = slotTable;
    }

    /**
     * Orders a writer of {@code item} (holding its lock) against the other holders of soft locks
     * on it. After every soft reader: an open range is narrowed below {@code lower}, a frozen one
     * raises {@code lower} above its timestamp. Before narrowing, the writer goes above the
     * reader's published lower bound if it can (that bound is at most {@code spare}): narrowing
     * below it would empty the reader's range, an abort the writer can spare it by committing
     * higher (the ranges then still do not overlap). After every frozen soft writer: one that froze
     * while we hold the lock has published already (it locked the item first), so {@code lower}
     * goes above it, the order the item's rts gives too. Open soft writers are ordered after us
     * once our timestamp is fixed ({@link #pushWriters}, from {@code prepare}).
     *
     * @param self the caller's own slot bit (its own soft locks are skipped), or 0
     * @param spare how high the caller may raise {@code lower} to spare a reader's range;
     *              {@code Long.MIN_VALUE} never
     * @return the raised lower bound
     */
    long orderAfterHolders(TxItem item, long lower, long self, long spare) {
        SoftLocks locks = SoftLocks.peek(item);
        if (locks == null) {
            return lower;
        }
        for (long m = locks.readers() & ~self; m != 0; m &= m - 1) {
            MaatTxnState reader = slotTable.holder(Long.numberOfTrailingZeros(m));
            if (reader != null) {
                MaatRange range = reader.range;
                long known = range.lower();
                if (known >= lower && known < spare && known <= range.upper()) {
                    lower = known + 1;
                }
                long frozen = range.narrow(lower - 1);
                if (frozen != MaatRange.NARROWED) {
                    lower = Math.max(lower, frozen + 1);
                }
            }
        }
        for (long m = locks.writers() & ~self; m != 0; m &= m - 1) {
            MaatTxnState writer = slotTable.holder(Long.numberOfTrailingZeros(m));
            if (writer != null) {
                long frozen = writer.range.frozenAt();
                if (frozen != MaatRange.OPEN) {
                    lower = Math.max(lower, frozen + 1);
                }
            }
        }
        return lower;
    }

    /**
     * Orders a reader committing at {@code ts} before every other holder of a soft write lock on
     * {@code item} (seed 004: the reader of an item with a soft write lock commits before the
     * holder; it read the version the holder's buffered write will replace). An open holder has
     * its published lower bound pushed above {@code ts}. A frozen one holds the item's commit lock
     * or has published: if it froze above the version read ({@code observed}), the reader must be
     * below it, and its timestamp, fixed now, is not: the reader's range is empty. If it froze at
     * or below the version read, the reader read its write (or a later one) and comes after it.
     *
     * @param self the caller's own slot bit (its own soft lock is skipped)
     * @return null, or {@code TIMESTAMP_ORDER}
     */
    AbortCause orderBeforeWriters(long self, TxItem item, long observed, long ts) {
        SoftLocks locks = SoftLocks.peek(item); // not null: the read soft-locked the item
        for (long m = locks.writers() & ~self; m != 0; m &= m - 1) {
            MaatTxnState writer = slotTable.holder(Long.numberOfTrailingZeros(m));
            if (writer != null) {
                long frozen = writer.range.frozenAt();
                if (frozen == MaatRange.OPEN) {
                    writer.range.pushLower(ts + 1);
                } else if (frozen > observed && frozen <= ts) {
                    return AbortCause.TIMESTAMP_ORDER;
                }
            }
        }
        return null;
    }

    /**
     * Orders a writer that froze at {@code ts} before every other open holder of a soft write lock
     * on an item it soft-write-locked (write-write: the one that commits first goes first, the
     * order in which the commit lock makes the two install): their lower bounds are pushed above
     * {@code ts}. Frozen ones were ordered before us in {@link #orderAfterHolders}.
     */
    void pushWriters(MaatTxnState s, long ts) {
        SoftLocks[] h = s.heldWrites;
        for (int i = 0, n = s.heldWriteCount; i < n; i++) {
            for (long m = h[i].writers() & ~s.bit; m != 0; m &= m - 1) {
                MaatTxnState writer = slotTable.holder(Long.numberOfTrailingZeros(m));
                if (writer != null) {
                    writer.range.pushLower(ts + 1);
                }
            }
        }
    }

    /**
     * Makes every other open soft reader of {@code item} unable to commit (its upper bound becomes
     * -1): used when a commit failed after its install began, since what it installed may be
     * partial and nobody who read the item before may be ordered before it either.
     *
     * @param self the caller's own slot bit (its own soft lock is skipped), or 0
     */
    void emptyReaders(TxItem item, long self) {
        SoftLocks locks = SoftLocks.peek(item);
        if (locks != null) {
            for (long m = locks.readers() & ~self; m != 0; m &= m - 1) {
                MaatTxnState reader = slotTable.holder(Long.numberOfTrailingZeros(m));
                if (reader != null) {
                    reader.range.narrow(-1);
                }
            }
        }
    }
}
