package io.jato.durable;

/** When {@link DurableStore#atomic} returns, relative to its transaction reaching the disk. */
public enum DurabilityMode {
    /**
     * {@code atomic} returns as soon as the transaction committed in memory; the logger writes and
     * syncs it with its epoch, a few milliseconds later ({@link DurableStore.Builder#epochMillis}).
     * A crash may lose the last epochs' commits, never part of one. Call
     * {@link DurableStore#awaitDurable()} to wait for what was committed so far.
     */
    ASYNC,
    /**
     * {@code atomic} returns only when the transaction's epoch is on disk (written and synced).
     * Threads that commit together share one write and one sync (group commit).
     */
    DURABLE
}
