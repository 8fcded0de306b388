package io.jato.protocols.adaptive;

import io.jato.protocols.clock.StoreCounter;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.TxItem;

/**
 * The per-item state machine of the adaptive lock, with one store's thresholds. Pure functions of
 * the {@link ModeWord}, plus the CAS loops that apply them to an item; thread-safe.
 *
 * <pre>
 *                    score &gt;= pessimisticAt
 *   +------------+  -----------------------&gt;  +-------------+
 *   | optimistic |                            | pessimistic |
 *   +------------+  &lt;-----------------------  +-------------+
 *                    score &lt;= optimisticAt
 * </pre>
 *
 * The score moves by events attributable to the item:
 * <ul>
 *   <li>a <b>conflict</b> adds {@value #CONFLICT_WEIGHT} (up to {@link ModeWord#MAX_SCORE}): an
 *       access that found the item held in a conflicting mode (and waited or aborted), a commit
 *       lock that had to wait or gave up, a validation that found the item changed or locked;</li>
 *   <li>a <b>quiet</b> event subtracts {@value #QUIET_WEIGHT} (down to 0): every committed write
 *       of the item (folded into the version increment, so it costs nothing extra), and one in
 *       {@value AdaptiveControl#READ_DECAY_PERIOD} committed pessimistic reads (so that an item
 *       that is only read anymore drifts back to optimistic).</li>
 * </ul>
 * So the score climbs while more than one access in {@code CONFLICT_WEIGHT + 1} conflicts and
 * decays otherwise. The mode changes only at the thresholds, with hysteresis between them, so an
 * item near one threshold does not flip on every event: invariant, after every update, a
 * pessimistic item's score is above {@code optimisticAt} and an optimistic one's below
 * {@code pessimisticAt}.
 */
final class ModeSwitch {
    static final int CONFLICT_WEIGHT = 4;
    static final int QUIET_WEIGHT = 1;

    private final int pessimisticAt;
    private final int optimisticAt;
    /** Mode changes so far (diagnostics; incremented only when an update flips the mode, which is rare). */
    private final StoreCounter switches = new StoreCounter(0);

    ModeSwitch(int pessimisticAt, int optimisticAt) {
        if (pessimisticAt < 1 || pessimisticAt > ModeWord.MAX_SCORE) {
            throw new IllegalArgumentException("option '" + AdaptiveProtocol.PESSIMISTIC_AT + "' of protocol '"
                    + AdaptiveProtocol.NAME + "' must be in [1, " + ModeWord.MAX_SCORE + "], was " + pessimisticAt);
        }
        if (optimisticAt < 0 || optimisticAt >= pessimisticAt) {
            throw new IllegalArgumentException("option '" + AdaptiveProtocol.OPTIMISTIC_AT + "' of protocol '"
                    + AdaptiveProtocol.NAME + "' must be at least 0 and below '" + AdaptiveProtocol.PESSIMISTIC_AT
                    + "' (" + pessimisticAt + "), was " + optimisticAt);
        }
        this.pessimisticAt = pessimisticAt;
        this.optimisticAt = optimisticAt;
    }

    /** @return {@code w} after a conflict */
    long afterConflict(long w) {
        return withScore(w, Math.min(ModeWord.MAX_SCORE, ModeWord.score(w) + CONFLICT_WEIGHT));
    }

    /** @return {@code w} after a quiet event */
    long afterQuiet(long w) {
        return withScore(w, Math.max(0, ModeWord.score(w) - QUIET_WEIGHT));
    }

    /** @return {@code w} after a committed write: the next version, and a quiet event */
    long afterWrite(long w) {
        return afterQuiet(ModeWord.nextVersion(w));
    }

    private long withScore(long w, int score) {
        boolean pessimistic = ModeWord.isPessimistic(w);
        if (!pessimistic && score >= pessimisticAt) {
            pessimistic = true;
        } else if (pessimistic && score <= optimisticAt) {
            pessimistic = false;
        }
        return ModeWord.with(w, pessimistic, score);
    }

    /** An event: a conflict ({@link #afterConflict}). */
    static final int CONFLICT = 0;
    /** An event: a quiet access ({@link #afterQuiet}). */
    static final int QUIET = 1;
    /** An event: the exclusive holder publishes a committed write ({@link #afterWrite}). */
    static final int WRITE = 2;
    /** An event: the exclusive holder changed the item outside a transaction (the next version only). */
    static final int CHANGE = 3;

    private long after(long w, int event) {
        switch (event) {
            case CONFLICT:
                return afterConflict(w);
            case QUIET:
                return afterQuiet(w);
            case WRITE:
                return afterWrite(w);
            default:
                return ModeWord.nextVersion(w);
        }
    }

    /**
     * Applies {@code event} to {@code item}'s mode word: a CAS loop, since anyone may update the
     * score while the exclusive holder increments the version; skipped when it would change nothing.
     */
    void record(TxItem item, int event) {
        for (;;) {
            long w = Items.word2Volatile(item);
            long next = after(w, event);
            if (next == w) {
                return;
            }
            if (Items.casWord2(item, w, next)) {
                counted(w, next);
                return;
            }
        }
    }

    private void counted(long before, long after) {
        if (((before ^ after) & ModeWord.PESSIMISTIC) != 0) {
            switches.next();
        }
    }

    /** @return how many times an item of the store changed mode */
    long switches() {
        return switches.current();
    }

    /** @return null if {@code w}'s mode agrees with its score under these thresholds, else what is wrong */
    String check(long w) {
        int score = ModeWord.score(w);
        if (ModeWord.isPessimistic(w) ? score <= optimisticAt : score >= pessimisticAt) {
            return "mode disagrees with the score (thresholds " + pessimisticAt + "/" + optimisticAt + "): "
                    + ModeWord.describe(w);
        }
        return null;
    }
}
