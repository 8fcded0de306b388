package io.jato.collections.internal.hash;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link ChainedIndex} from object keys to {@link Node}s. A key's {@code hashCode} runs once,
 * when its node is made (and once per lookup); {@code equals} runs only in lookups, after the
 * cached hashes matched. Linking and unlinking run no key method at all: a commit installs a map's
 * inserts and deletes here with its locks held, where user code (a key's {@code equals} throwing)
 * or an allocation could not be undone.
 *
 * @param <K> key type; keys must have stable {@code equals}/{@code hashCode}
 */
public final class ObjectNodeIndex<K> extends ChainedIndex {

    /** @param expectedSize the number of keys expected; the table starts large enough for them */
    public ObjectNodeIndex(int expectedSize) {
        super(expectedSize);
    }

    /**
     * The spread hash of {@code key} (see {@link LongNodeIndex#hash}: a bijection of the key's
     * {@code hashCode}, so keys with distinct hash codes never share a hash).
     */
    public static long hash(Object key) {
        return (key.hashCode() & 0xFFFF_FFFFL) * PHI;
    }

    /**
     * @param key  the key (not null)
     * @param hash {@link #hash}{@code (key)}
     * @return the node linked for {@code key}, or null if none is linked (see {@link ChainedIndex})
     */
    @SuppressWarnings("unchecked")
    public Node<K> get(Object key, long hash) {
        for (;;) {
            long seq = walkStart();
            for (ChainNode n = head(hash); n != null; n = next(n)) {
                if (n.hash == hash) {
                    Object k = ((Node<K>) n).key;
                    if (k == key || key.equals(k)) {
                        return (Node<K>) n;
                    }
                }
            }
            if (missConfirmed(seq)) {
                return null;
            }
        }
    }

    /** Visits every linked node; weakly consistent, as {@link ChainedIndex} describes. */
    @SuppressWarnings("unchecked")
    public void forEach(Consumer<? super Node<K>> action) {
        forEachNode(n -> action.accept((Node<K>) n));
    }

    /**
     * A key's versioned slot and chain link, with the key's hash computed once, here.
     *
     * @param <K> key type
     */
    public static final class Node<K> extends ChainNode {
        /** The key; final, read by anyone. */
        public final K key;
        /**
         * The owner's link between nodes not yet in the index (a transaction's buffered inserts).
         * Never read or written by the index; the owner confines it to one thread.
         */
        public Node<K> pendingNext;

        /**
         * @param key    the key (not null)
         * @param hash   {@link #hash}{@code (key)}, which the caller usually has already
         * @param domain the owning map's protocol domain
         */
        public Node(K key, long hash, int domain) {
            super(hash, domain);
            this.key = Objects.requireNonNull(key, "key");
        }
    }
}
