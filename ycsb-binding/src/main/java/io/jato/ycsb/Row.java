package io.jato.ycsb;

import java.util.Arrays;
import java.util.Set;
import java.util.TreeMap;

import io.jato.collections.TxRef;
import io.jato.stm.Stm;
import io.jato.stm.Txn;

/**
 * One YCSB record: a fixed, sorted set of field names, each with a transactional reference of its
 * own. A transaction that reads some fields observes only their references, and one that updates
 * fields the row has writes only theirs, blindly: updates of different fields of a record never
 * conflict, and reading field 1 does not conflict with writing field 2. Changing the set of names
 * (an update that brings a new field) makes a new row, which replaces the old one in the table's
 * map; the map's entry version covers which row is current, so a transaction that wrote into the
 * old row's references fails validation if the replacement committed first.
 */
final class Row {
    private final String[] names;
    private final TxRef<byte[]>[] values;

    private Row(String[] names, TxRef<byte[]>[] values) {
        this.names = names;
        this.values = values;
    }

    /** A new row holding {@code fields} (for a name given twice, the later value). */
    static Row create(Stm stm, Fields fields) {
        TreeMap<String, byte[]> sorted = new TreeMap<>();
        for (int i = 0; i < fields.size(); i++) {
            sorted.put(fields.name(i), fields.value(i));
        }
        return create(stm, sorted);
    }

    private static Row create(Stm stm, TreeMap<String, byte[]> sorted) {
        String[] names = sorted.keySet().toArray(new String[0]);
        @SuppressWarnings("unchecked")
        TxRef<byte[]>[] values = (TxRef<byte[]>[]) new TxRef<?>[names.length];
        int i = 0;
        for (byte[] v : sorted.values()) {
            values[i++] = new TxRef<>(stm, v);
        }
        return new Row(names, values);
    }

    private int indexOf(String name) {
        return Arrays.binarySearch(names, name);
    }

    /** Adds the requested fields the row has, or all of them if {@code fields} is null, to {@code out}. */
    void read(Txn txn, Set<String> fields, Fields out) {
        if (fields == null) {
            for (int i = 0; i < names.length; i++) {
                out.add(names[i], values[i].get(txn));
            }
            return;
        }
        for (String f : fields) {
            int i = indexOf(f);
            if (i >= 0) {
                out.add(names[i], values[i].get(txn));
            }
        }
    }

    /**
     * Writes {@code fields} into this row if it has every one of them and returns this row; otherwise
     * writes nothing and returns a new row with the union of the names (this row's current values,
     * overwritten by {@code fields}), which the caller must put in this row's place.
     */
    Row update(Txn txn, Fields fields) {
        for (int i = 0; i < fields.size(); i++) {
            if (indexOf(fields.name(i)) < 0) {
                TreeMap<String, byte[]> merged = new TreeMap<>();
                for (int j = 0; j < names.length; j++) {
                    merged.put(names[j], values[j].get(txn));
                }
                for (int j = 0; j < fields.size(); j++) {
                    merged.put(fields.name(j), fields.value(j));
                }
                return create(txn.stm(), merged);
            }
        }
        for (int i = 0; i < fields.size(); i++) {
            values[indexOf(fields.name(i))].set(txn, fields.value(i));
        }
        return this;
    }
}
