package io.jato.collections.internal.hash;

import java.util.function.Consumer;

/**
 * A {@link ChainedIndex} from primitive {@code long} keys to {@link Node}s: a lookup compares
 * primitive keys, with no boxing and no allocation. It maps a key to at most one node.
 */
public final class LongNodeIndex extends ChainedIndex {

    /** @param expectedSize the number of keys expected; the table starts large enough for them */
    public LongNodeIndex(int expectedSize) {
        super(expectedSize);
    }

    /**
     * Mixes a key for {@link #indexFor}. Keys are often packed bit fields whose low bits vary little;
     * folding the high half into the low one and multiplying by an odd constant are both bijections
     * (distinct keys keep distinct hashes), and after the Fibonacci multiply the top bits of the
     * product depend on every bit of the key. Buckets and stripes are therefore taken from the top.
     */
    public static long hash(long key) {
        return (key ^ (key >>> 32)) * PHI;
    }

    /** @return the node linked for {@code key}, or null if none is linked (see {@link ChainedIndex}) */
    public Node get(long key) {
        long h = hash(key);
        for (;;) {
            long seq = walkStart();
            for (ChainNode n = head(h); n != null; n = next(n)) {
                if (((Node) n).key == key) {
                    return (Node) n;
                }
            }
            if (missConfirmed(seq)) {
                return null;
            }
        }
    }

    /**
     * Links {@code node} unless a node with its key is linked already (see {@link #link} for what
     * the node must be; like it, this never allocates).
     *
     * @return the node already linked for the key (then {@code node} is not linked), or null
     */
    public Node putIfAbsent(Node node) {
        long key = node.key;
        synchronized (lock) {
            for (ChainNode e = headLocked(node.hash); e != null; e = next(e)) {
                if (((Node) e).key == key) {
                    return (Node) e;
                }
            }
            linkLocked(node);
            return null;
        }
    }

    /** Visits every linked node; weakly consistent, as {@link ChainedIndex} describes. */
    public void forEach(Consumer<? super Node> action) {
        forEachNode(n -> action.accept((Node) n));
    }

    /**
     * A key's versioned slot and chain link. The key is final, so a node found by a lookup is the
     * key's node however stale the path to it was.
     */
    public static final class Node extends ChainNode {
        /** The key; final, read by anyone. */
        public final long key;
        /**
         * The owner's link between nodes not yet in the index (a transaction's buffered inserts).
         * Never read or written by the index; the owner confines it to one thread.
         */
        public Node pendingNext;

        /**
         * @param key    the key; the value starts null and is set by the owner before linking
         * @param domain the owning map's protocol domain
         */
        public Node(long key, int domain) {
            super(hash(key), domain);
            this.key = key;
        }
    }
}
