package io.jato.durable;

import io.jato.durable.internal.MapCore;
import io.jato.stm.Txn;

import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * A transactional hash map whose committed writes survive restarts: a {@code TxHashMap} of the
 * store's {@code Stm} whose puts and removes are also logged at commit (as encoded values, in
 * commit order per key). Reads cost what a {@code TxHashMap}'s cost; a write adds one version-only
 * write of the key's log stripe (so two transactions writing keys of one stripe commit one after
 * the other) and the encoding of the key and value at commit.
 *
 * <p>Obtained from {@link DurableStore#map}; declared with {@link DurableStore.Builder#map}. Every
 * write goes through this object: there is no non-transactional write view (it would bypass the
 * log). Values must be immutable once put (the log encodes them at commit, the map keeps the
 * object).
 *
 * @param <K> key type (its {@code hashCode} must be stable across runs: it picks the stripe)
 * @param <V> value type
 */
public final class DurableMap<K, V> {
    private final MapCore<K, V> core;

    DurableMap(MapCore<K, V> core) {
        this.core = core;
    }

    /** @return the name the map is logged under */
    public String name() {
        return core.name;
    }

    /** @return the value of {@code key}, or null */
    public V get(Txn txn, K key) {
        return core.map.get(txn, key);
    }

    /** @return whether {@code key} is present */
    public boolean containsKey(Txn txn, K key) {
        return core.map.containsKey(txn, key);
    }

    /**
     * Maps {@code key} to {@code value}; logged when the transaction commits.
     *
     * @return the previous value, or null
     * @throws NullPointerException if {@code key} or {@code value} is null
     */
    public V put(Txn txn, K key, V value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        return core.put(txn, key, value);
    }

    /**
     * Removes {@code key}; logged when the transaction commits (if it was present).
     *
     * @return the removed value, or null
     */
    public V remove(Txn txn, K key) {
        Objects.requireNonNull(key, "key");
        return core.remove(txn, key);
    }

    /** @return the number of keys (reads the map's size, a transactional read) */
    public int size(Txn txn) {
        return core.map.size(txn);
    }

    /** Calls {@code action} for every entry, inside the transaction. */
    public void forEach(Txn txn, BiConsumer<? super K, ? super V> action) {
        core.map.forEach(txn, action);
    }

    /** @return the value of {@code key} read outside any transaction (for checks and tools) */
    public V getNonTx(K key) {
        return core.map.single().get(key);
    }

    /** @return the number of keys, read outside any transaction */
    public int sizeNonTx() {
        return core.map.single().size();
    }
}
