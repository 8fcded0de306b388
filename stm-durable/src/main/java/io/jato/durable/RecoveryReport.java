package io.jato.durable;

import java.nio.file.Path;

/**
 * What {@link DurableStore.Builder#open()} recovered.
 *
 * @param checkpoint             the checkpoint loaded, or null if none
 * @param checkpointEntries      entries loaded from it
 * @param segmentsReplayed       log segments read after it
 * @param logBytes               bytes of those segments
 * @param transactionsApplied    logged transactions replayed (epoch at most {@code durableEpoch})
 * @param transactionsDiscarded  logged transactions beyond the last durable epoch, not applied
 * @param writesApplied          key writes that changed the state (checkpoint entries included)
 * @param durableEpoch           the last epoch whose marker was found, -1 if none
 * @param tornTail               the cut-off end of the last segment (file, offset, why), or null
 * @param millis                 wall time of the recovery
 */
public record RecoveryReport(Path checkpoint, long checkpointEntries, int segmentsReplayed, long logBytes,
                             long transactionsApplied, long transactionsDiscarded, long writesApplied,
                             long durableEpoch, String tornTail, long millis) {

    @Override
    public String toString() {
        return "recovered " + (checkpoint == null ? "no checkpoint" : checkpointEntries + " entries from "
                + checkpoint.getFileName()) + ", " + transactionsApplied + " transactions from " + segmentsReplayed
                + " log segments (" + logBytes + " bytes) up to epoch " + durableEpoch + ", " + transactionsDiscarded
                + " not durable discarded" + (tornTail == null ? "" : ", " + tornTail) + ", in " + millis + " ms";
    }
}
