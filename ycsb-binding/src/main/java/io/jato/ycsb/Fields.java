package io.jato.ycsb;

import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * Field names and values of one record, as plain arrays: what a write brings into the store
 * (materialized from YCSB's one-shot {@link ByteIterator}s, so that a retried transaction can write
 * them again) and what a read collects inside a transaction before it is handed to YCSB after the
 * commit. Not thread-safe; a value array belongs to the store once written and is never changed.
 */
final class Fields {
    private final ArrayList<String> names = new ArrayList<>();
    private final ArrayList<byte[]> values = new ArrayList<>();

    /**
     * Drains {@code values}' iterators into a new instance.
     *
     * @throws NullPointerException naming the field whose name or value is null
     */
    static Fields of(Map<String, ByteIterator> values) {
        Objects.requireNonNull(values, "values");
        Fields f = new Fields();
        for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
            String name = Objects.requireNonNull(e.getKey(), "a field name in values");
            ByteIterator v = Objects.requireNonNull(e.getValue(), () -> "the value of field " + name);
            f.add(name, v.toArray());
        }
        return f;
    }

    void add(String name, byte[] value) {
        names.add(name);
        values.add(value);
    }

    void clear() {
        names.clear();
        values.clear();
    }

    int size() {
        return names.size();
    }

    String name(int i) {
        return names.get(i);
    }

    byte[] value(int i) {
        return values.get(i);
    }

    /** Puts every field into {@code into} as a fresh iterator over the stored bytes. */
    void copyTo(Map<String, ByteIterator> into) {
        for (int i = 0; i < names.size(); i++) {
            into.put(names.get(i), new ByteArrayByteIterator(values.get(i)));
        }
    }
}
