package io.jato.durable.internal;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongSortedMap;

import java.util.function.Consumer;

/**
 * The transactional map a durable table keeps its values in, seen by recovery and checkpoints
 * outside any transaction. Keys are boxed here ({@code Long} for long-keyed maps): recovery and
 * checkpoints run once per key, not per transaction. The long-keyed adapters look alike because
 * the two maps' non-transactional views share no interface to adapt once.
 */
abstract class Backend {
    abstract Object get(Object key);

    abstract void put(Object key, Object value);

    abstract void remove(Object key);

    abstract long size();

    abstract void forEachKey(Consumer<Object> action);

    /** @return the map's name for messages */
    abstract String kind();

    /** @return the transactional map itself */
    abstract Object map();

    static final class Hash extends Backend {
        private final TxHashMap<Object, Object> map;

        @SuppressWarnings("unchecked")
        Hash(TxHashMap<?, ?> map) {
            this.map = (TxHashMap<Object, Object>) map;
        }

        @Override
        Object get(Object key) {
            return map.single().get(key);
        }

        @Override
        void put(Object key, Object value) {
            map.single().put(key, value);
        }

        @Override
        void remove(Object key) {
            map.single().remove(key);
        }

        @Override
        long size() {
            return map.single().size();
        }

        @Override
        void forEachKey(Consumer<Object> action) {
            map.single().forEach((k, v) -> action.accept(k));
        }

        @Override
        String kind() {
            return "TxHashMap";
        }

        @Override
        Object map() {
            return map;
        }
    }

    static final class LongHash extends Backend {
        private final TxLongHashMap<Object> map;

        @SuppressWarnings("unchecked")
        LongHash(TxLongHashMap<?> map) {
            this.map = (TxLongHashMap<Object>) map;
        }

        @Override
        Object get(Object key) {
            return map.single().get((Long) key);
        }

        @Override
        void put(Object key, Object value) {
            map.single().put((Long) key, value);
        }

        @Override
        void remove(Object key) {
            map.single().remove((Long) key);
        }

        @Override
        long size() {
            return map.single().size();
        }

        @Override
        void forEachKey(Consumer<Object> action) {
            map.single().forEach((k, v) -> action.accept(k));
        }

        @Override
        String kind() {
            return "TxLongHashMap";
        }

        @Override
        Object map() {
            return map;
        }
    }

    static final class LongSorted extends Backend {
        private final TxLongSortedMap<Object> map;

        @SuppressWarnings("unchecked")
        LongSorted(TxLongSortedMap<?> map) {
            this.map = (TxLongSortedMap<Object>) map;
        }

        @Override
        Object get(Object key) {
            return map.single().get((Long) key);
        }

        @Override
        void put(Object key, Object value) {
            map.single().put((Long) key, value);
        }

        @Override
        void remove(Object key) {
            map.single().remove((Long) key);
        }

        @Override
        long size() {
            return map.single().size();
        }

        @Override
        void forEachKey(Consumer<Object> action) {
            map.single().forEach((k, v) -> {
                action.accept(k);
                return true;
            });
        }

        @Override
        String kind() {
            return "TxLongSortedMap";
        }

        @Override
        Object map() {
            return map;
        }
    }
}
