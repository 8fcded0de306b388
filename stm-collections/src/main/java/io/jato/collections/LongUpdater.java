package io.jato.collections;

/**
 * A commit-time update of a {@link TxCounter}: recorded by {@link TxCounter#update} without
 * reading the counter and applied at commit, under the counter's lock, to its latest value.
 * Updaters must be plain functions of their argument and their own immutable parameters:
 * deterministic, not throwing, and touching no other transactional state.
 */
@FunctionalInterface
public interface LongUpdater {
    /** @return the new value computed from {@code current} */
    long apply(long current);
}
