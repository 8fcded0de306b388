package io.jato.collections;

/**
 * A {@link ValueUpdater} whose effect does not depend on the order in which it is applied relative
 * to other commutative updaters of the same key (adding to a count, keeping a maximum, adding to a
 * set that is replaced whole). Passed to {@link TxHashMap#update}, {@link TxHashMap#merge} or their
 * {@link TxLongHashMap} forms, it lets a protocol reorder concurrent updates of one key instead of
 * serializing them: {@code mvcc} keeps them as delta versions, which concurrent updaters of the key
 * join without conflict (docs/mvcc.md, "Delta versions"). Protocols that do not reorder apply it
 * like any updater.
 *
 * <p>Besides {@link ValueUpdater}'s rules (deterministic, never null, no other transactional
 * state), {@code mvcc} applies it when its transaction commits and again, after the transaction
 * ended, for readers of older snapshots: it must not change once passed, and must treat the value
 * it is given as immutable, returning a new one.
 *
 * @param <V> the map's value type
 */
@FunctionalInterface
public interface CommutativeUpdater<V> extends ValueUpdater<V> {
}
