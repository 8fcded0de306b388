package io.jato.collections.internal.hash;

import io.jato.stm.spi.RefItem;

/**
 * A versioned value slot that is also a link of a {@link ChainedIndex} chain: the hash of its key
 * (computed once, when the node is made, so the index never runs a key's {@code hashCode} again)
 * and the pointer to the next node of its chain.
 */
public abstract class ChainNode extends RefItem {
    /** The spread hash of the node's key ({@link ChainedIndex#indexFor}); final, read by anyone. */
    public final long hash;
    /**
     * Next node of the chain. Written under the index lock with release stores (before the node is
     * linked, then by unlinks of its successor and by resizes), read with acquire through
     * {@link ChainedIndex}.
     */
    @SuppressWarnings("unused") // accessed through ChainedIndex.NEXT
    private ChainNode next;

    /**
     * @param hash   the spread hash of the node's key; the value starts null, set by the owner
     *               before linking
     * @param domain the owning map's protocol domain (every node of a map is in the map's domain)
     */
    protected ChainNode(long hash, int domain) {
        super(null, domain);
        this.hash = hash;
    }
}
