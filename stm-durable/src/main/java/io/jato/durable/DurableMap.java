package io.jato.durable;

import io.jato.collections.TxHashMap;
import io.jato.durable.internal.Table;
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
 * object) — except records ({@link Codecs#records}): a stored record's column writes are logged as
 * well, as the groups each transaction wrote.
 *
 * @param <K> key type (its {@code hashCode} must be stable across runs: it picks the stripe)
 * @param <V> value type
 */
public final class DurableMap<K, V> {
    private final Table table;
    private final TxHashMap<K, V> map;

    @SuppressWarnings("unchecked")
    DurableMap(Table table) {
        this.table = table;
        this.map = (TxHashMap<K, V>) table.txMap();
    }

    /** @return the name the map is logged under */
    public String name() {
        return table.name;
    }

    /** @return the value of {@code key}, or null */
    public V get(Txn txn, K key) {
        return map.get(txn, key);
    }

    /** @return whether {@code key} is present */
    public boolean containsKey(Txn txn, K key) {
        return map.containsKey(txn, key);
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
        table.checkPut(key, 0L, value);
        V old = map.put(txn, key, value);
        table.notePut(txn, key, 0L, value, old);
        return old;
    }

    /**
     * Removes {@code key}; logged when the transaction commits (if it was present).
     *
     * @return the removed value, or null
     */
    public V remove(Txn txn, K key) {
        Objects.requireNonNull(key, "key");
        V old = map.remove(txn, key);
        if (old != null) {
            table.noteRemove(txn, key, 0L, old);
        }
        return old;
    }

    /** @return the number of keys (reads the map's size, a transactional read) */
    public int size(Txn txn) {
        return map.size(txn);
    }

    /** Calls {@code action} for every entry, inside the transaction. */
    public void forEach(Txn txn, BiConsumer<? super K, ? super V> action) {
        map.forEach(txn, action);
    }

    /** @return the value of {@code key} read outside any transaction (for checks and tools) */
    public V getNonTx(K key) {
        return map.single().get(key);
    }

    /** @return the number of keys, read outside any transaction */
    public int sizeNonTx() {
        return map.single().size();
    }
}
