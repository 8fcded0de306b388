package io.jato.collections;

/**
 * A commit-time update of a {@link TxHashMap} value: {@link TxHashMap#update} records it instead of
 * reading the value, and at commit it maps the key's latest committed value, under the key's lock,
 * to the value installed. Updaters must be plain functions of their argument and their own
 * immutable parameters: deterministic, not throwing, never returning null, and touching no other
 * transactional state.
 *
 * @param <V> the map's value type
 */
@FunctionalInterface
public interface ValueUpdater<V> {
    /** @return the new value for the key, computed from its current value (never null) */
    V apply(V current);
}
