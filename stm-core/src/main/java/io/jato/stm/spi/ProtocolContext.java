package io.jato.stm.spi;

import io.jato.stm.internal.Epoch;

/**
 * Store-wide services a protocol may use: the store's epoch clock and its configured spin bounds.
 * One instance per store, immutable apart from the epoch.
 */
public final class ProtocolContext {
    private final Epoch epoch;
    private final int lockSpinLimit;
    private final int readSpinLimit;

    private ProtocolContext(Epoch epoch, int lockSpinLimit, int readSpinLimit) {
        this.epoch = epoch;
        this.lockSpinLimit = lockSpinLimit;
        this.readSpinLimit = readSpinLimit;
    }

    /** Creates a store's context; called by the store. Protocol authors receive it in {@link Protocol#create}. */
    public static ProtocolContext create(long epochPeriodNanos, int lockSpinLimit, int readSpinLimit) {
        return new ProtocolContext(new Epoch(epochPeriodNanos), lockSpinLimit, readSpinLimit);
    }

    /** Advances the epoch if its period elapsed; called by committing threads every few thousand commits. */
    void tickEpoch(long nowNanos) {
        epoch.tick(nowNanos);
    }

    /** @return the current global epoch (volatile read of a padded word nobody writes often) */
    public long currentEpoch() {
        return epoch.current();
    }

    /** Moves the epoch to at least {@code target} (used when a per-epoch sequence overflows). */
    public long advanceEpochTo(long target) {
        return epoch.advanceTo(target);
    }

    /** @return how many times a commit tries to lock one item before suspecting deadlock */
    public int lockSpinLimit() {
        return lockSpinLimit;
    }

    /** @return how many times an execution-time read waits for a locked item before aborting */
    public int readSpinLimit() {
        return readSpinLimit;
    }
}
