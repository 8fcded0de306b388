package io.jato.collections.internal.hash;

import io.jato.stm.spi.Scratch;

import java.util.Arrays;

/**
 * A growable list of index nodes, pooled per transaction ({@link #KIND}): what a transactional
 * iteration of a hash map fills with a snapshot of the index ({@link ChainedIndex#collect}), or a
 * batch lookup with the nodes of its keys, before it reads the nodes one by one. Once it has grown to the largest map a thread iterates, filling
 * it allocates nothing. Owner thread only.
 */
public final class NodeBuffer implements Scratch.Pooled {
    /** The scratch kind transactions borrow buffers of. */
    public static final Scratch<NodeBuffer> KIND = Scratch.of(NodeBuffer::new);

    private ChainNode[] nodes = new ChainNode[16];
    private int size;

    private NodeBuffer() {
    }

    /** @return the number of nodes collected */
    public int size() {
        return size;
    }

    /** @return the {@code i}-th node collected, {@code 0 <= i < size()} */
    public ChainNode get(int i) {
        return nodes[i];
    }

    /** Appends {@code n} (null allowed: a batch lookup's miss). */
    public void add(ChainNode n) {
        if (size == nodes.length) {
            nodes = Arrays.copyOf(nodes, size * 2);
        }
        nodes[size++] = n;
    }

    /** Empties the buffer, dropping its references. */
    void reset() {
        Arrays.fill(nodes, 0, size, null);
        size = 0;
    }

    @Override
    public void recycle() {
        reset();
    }
}
