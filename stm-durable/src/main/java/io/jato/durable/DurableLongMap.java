package io.jato.durable;

import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.durable.internal.Table;
import io.jato.stm.Txn;

import java.util.Objects;

/**
 * The write side of a long-keyed durable map: a {@link TxLongHashMap} or {@link TxLongSortedMap} of
 * the application's, declared with {@link DurableStore.Builder#longMap}, whose puts and removes
 * through this object are logged at commit, in commit order per key. With record values
 * ({@link Codecs#records}) every later write to a stored row's columns is logged too, as the
 * column groups the transaction wrote, whichever code writes them.
 *
 * <p>Reads, scans and navigation go to the map itself ({@link #hashMap()}, {@link #sortedMap()}) at
 * its own cost. Puts and removes must go through this object: one made on the map directly is not
 * logged, and is lost at the next restart. A write costs what the map's costs plus one
 * version-only write of the key's log stripe (two transactions writing keys of one stripe commit
 * one after the other) and the encoding of the key and value at commit; keys are not boxed.
 *
 * @param <V> value type
 */
public final class DurableLongMap<V> {
    private final Table table;
    private final TxLongHashMap<V> hash;
    private final TxLongSortedMap<V> sorted;

    @SuppressWarnings("unchecked")
    DurableLongMap(Table table) {
        this.table = table;
        Object m = table.txMap();
        this.hash = m instanceof TxLongHashMap<?> h ? (TxLongHashMap<V>) h : null;
        this.sorted = m instanceof TxLongSortedMap<?> s ? (TxLongSortedMap<V>) s : null;
    }

    /** @return the name the map is logged under */
    public String name() {
        return table.name;
    }

    /** @return the hash map underneath, or null if this is a sorted map */
    public TxLongHashMap<V> hashMap() {
        return hash;
    }

    /** @return the sorted map underneath, or null if this is a hash map */
    public TxLongSortedMap<V> sortedMap() {
        return sorted;
    }

    /** @return the value of {@code key}, or null */
    public V get(Txn txn, long key) {
        return hash != null ? hash.get(txn, key) : sorted.get(txn, key);
    }

    /**
     * Maps {@code key} to {@code value}; logged when the transaction commits.
     *
     * @return the previous value, or null
     * @throws NullPointerException     if {@code value} is null
     * @throws IllegalArgumentException if {@code value} is a record of another class than the
     *                                  map's, or one already stored under another key (nothing
     *                                  changes)
     */
    public V put(Txn txn, long key, V value) {
        Objects.requireNonNull(value, "value");
        table.checkPut(null, key, value);
        V old = hash != null ? hash.put(txn, key, value) : sorted.put(txn, key, value);
        table.notePut(txn, null, key, value, old);
        return old;
    }

    /**
     * Removes {@code key}; logged when the transaction commits (if it was present).
     *
     * @return the removed value, or null
     */
    public V remove(Txn txn, long key) {
        V old = hash != null ? hash.remove(txn, key) : sorted.remove(txn, key);
        if (old != null) {
            table.noteRemove(txn, null, key, old);
        }
        return old;
    }
}
