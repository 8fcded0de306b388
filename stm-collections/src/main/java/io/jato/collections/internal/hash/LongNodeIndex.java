package io.jato.collections.internal.hash;

import io.jato.stm.spi.RefItem;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/*
 * Design. A chained hash table whose chains run through the nodes themselves: a lookup costs the
 * table slot, then the node (key inline, next pointer inline), then the caller reads the value. No
 * boxing, no wrapper entries, no allocation on lookup.
 *
 * Readers never lock. Every structural change (insert at a chain head, unlink, resize) happens
 * under one lock per index; commits that insert are short, and lookups never take it.
 *
 * Invariant that keeps readers safe: along every chain, each node's next pointer leads to a node
 * that was inserted earlier (inserts go to the head; unlink and resize only drop nodes from a
 * chain, never reorder the rest). Pointers therefore always lead from newer to older nodes, so a
 * reader can never walk into a cycle, whatever mix of old and new pointers it observes.
 *
 * What a reader may miss, and why that is fine:
 *  - a node inserted after it read the chain head: the caller validates absence separately (the
 *    map's absence stripes), and an insert is published here before its stripe is bumped;
 *  - nothing because of an unlink: the unlinked node keeps its next pointer, so a reader standing
 *    on it still reaches the rest of the chain;
 *  - nodes because of a resize, which relinks next pointers in place (old bucket i splits into new
 *    buckets 2i and 2i + 1) and so cuts a chain a reader may be walking. A resize therefore runs
 *    inside a seqlock-style counter, odd while it runs; a reader that does not find its key
 *    re-reads the counter and retries if a resize started or ended meanwhile. A miss is then
 *    reported only from a table no resize touched during the walk. A hit needs no check: keys are
 *    final, so a node found is the key's node.
 */

/**
 * A concurrent index from primitive {@code long} keys to {@link Node}s: lock-free, allocation-free
 * lookups; inserts, unlinks and resizes serialized by a lock. It maps a key to at most one node;
 * the owner decides when a node is inserted and removed, and what its value means.
 */
public final class LongNodeIndex {
    private static final int MAX_CAPACITY = 1 << 30;
    private static final long PHI = 0x9E3779B97F4A7C15L;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Node[].class);
    private static final VarHandle TABLE;
    private static final VarHandle RESIZES;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TABLE = lookup.findVarHandle(LongNodeIndex.class, "table", Node[].class);
            RESIZES = lookup.findVarHandle(LongNodeIndex.class, "resizes", long.class);
            NEXT = lookup.findVarHandle(Node.class, "next", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Written only under {@link #lock} by a resize, with a release store after the new table is
     * complete; read by lookups with acquire. Slots of the current table are written under the lock
     * with release stores (a node is fully built before it is reachable) and read with acquire.
     */
    @SuppressWarnings("unused") // accessed through TABLE
    private Node[] table;
    /**
     * The resize sequence: odd while a resize relinks chains, incremented (volatile store) once when
     * it starts and once when it has published the new table. Written only under {@link #lock}; read
     * by lookups before and after a walk that found nothing.
     */
    @SuppressWarnings("unused") // accessed through RESIZES
    private long resizes;
    /** Number of linked nodes. Written under {@link #lock}; read racily as an estimate. */
    private volatile int size;
    /** Resize when {@link #size} exceeds this; only touched under {@link #lock}. */
    private int threshold;  // guarded by lock; read racily by reserve's fast check (a hint only)
    /** Serializes all structural changes; lookups never take it. */
    private final Object lock = new Object();

    /** @param expectedSize the number of keys expected; the table starts large enough for them */
    public LongNodeIndex(int expectedSize) {
        if (expectedSize < 0) {
            throw new IllegalArgumentException("expectedSize must be >= 0, got " + expectedSize);
        }
        long want = Math.max(16L, (long) expectedSize * 4 / 3 + 1);
        int cap = want >= MAX_CAPACITY ? MAX_CAPACITY : Integer.highestOneBit((int) want - 1) << 1;
        Node[] t = new Node[cap];
        this.threshold = thresholdFor(cap);
        TABLE.setRelease(this, t);
    }

    private static int thresholdFor(int capacity) {
        return capacity >= MAX_CAPACITY ? Integer.MAX_VALUE : capacity - (capacity >>> 2);
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

    /** @return the bucket of {@code hash} (from {@link #hash}) in a power-of-two table of {@code length} >= 2 */
    public static int indexFor(long hash, int length) {
        // The top log2(length) bits: shift by 64 - log2(length) = 33 + numberOfLeadingZeros(length).
        return (int) (hash >>> (33 + Integer.numberOfLeadingZeros(length)));
    }

    /** @return the node linked for {@code key}, or null if none is linked (see the class comment) */
    public Node get(long key) {
        long h = hash(key);
        for (;;) {
            long seq = (long) RESIZES.getAcquire(this);
            Node[] tab = (Node[]) TABLE.getAcquire(this);
            Node n = (Node) SLOT.getAcquire(tab, indexFor(h, tab.length));
            while (n != null) {
                if (n.key == key) {
                    return n;
                }
                n = (Node) NEXT.getAcquire(n);
            }
            // Order the walk's loads before the re-check: if the walk saw any pointer a resize
            // relinked, it also sees the sequence that resize made odd (or a later value).
            VarHandle.acquireFence();
            if ((seq & 1) == 0 && (long) RESIZES.getOpaque(this) == seq) {
                return null;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Links {@code node} unless a node with its key is linked already. The node must not be linked
     * in any index and must be fully initialized: it becomes visible to readers here. Never
     * allocates and never resizes: a transaction's commit links its inserts here with its locks
     * held, where a failed allocation could not be undone; the table grows in {@link #reserve},
     * which inserting code calls before it commits (the load factor may be exceeded meanwhile,
     * which only lengthens chains).
     *
     * @return the node already linked for the key (then {@code node} is not linked), or null
     */
    public Node putIfAbsent(Node node) {
        long key = node.key;
        long h = hash(key);
        synchronized (lock) {
            Node[] tab = (Node[]) TABLE.get(this);
            int i = indexFor(h, tab.length);
            Node head = (Node) SLOT.get(tab, i);
            for (Node e = head; e != null; e = (Node) NEXT.get(e)) {
                if (e.key == key) {
                    return e;
                }
            }
            NEXT.setRelease(node, head);
            SLOT.setRelease(tab, i, node);
            size = size + 1;
            return null;
        }
    }

    /**
     * Grows the table, if needed, so that {@code more} further nodes fit within the load factor.
     * Called before a commit links inserts (by a transaction when it buffers one, by a
     * non-transactional insert before it locks): an {@code OutOfMemoryError} here leaves the index
     * as it was, since a resize allocates its new table before it touches a pointer.
     */
    public void reserve(int more) {
        if (size + more <= threshold) {
            return;
        }
        synchronized (lock) {
            for (Node[] tab = (Node[]) TABLE.get(this);
                 size + more > threshold && tab.length < MAX_CAPACITY;
                 tab = (Node[]) TABLE.get(this)) {
                resize(tab);
            }
        }
    }

    /**
     * Unlinks {@code node} if it is linked. Its own next pointer is left as it is, so a reader
     * standing on it still reaches the rest of its chain.
     *
     * @return true if the node was linked
     */
    public boolean remove(Node node) {
        long h = hash(node.key);
        synchronized (lock) {
            Node[] tab = (Node[]) TABLE.get(this);
            int i = indexFor(h, tab.length);
            Node prev = null;
            for (Node e = (Node) SLOT.get(tab, i); e != null; prev = e, e = (Node) NEXT.get(e)) {
                if (e == node) {
                    Node next = (Node) NEXT.get(e);
                    if (prev == null) {
                        SLOT.setRelease(tab, i, next);
                    } else {
                        NEXT.setRelease(prev, next);
                    }
                    size = size - 1;
                    return true;
                }
            }
            return false;
        }
    }

    /** @return the number of linked nodes (a moment's estimate while the index changes) */
    public int size() {
        return size;
    }

    /** @return the current table length (for tests and diagnostics) */
    public int capacity() {
        return ((Node[]) TABLE.getAcquire(this)).length;
    }

    /** @return how many resizes completed (for tests and diagnostics) */
    public long resizeCount() {
        return (long) RESIZES.getAcquire(this) >>> 1;
    }

    /**
     * Visits every linked node of the current table. Weakly consistent: nodes linked or unlinked
     * meanwhile may or may not be visited, and a concurrent resize may hide some nodes, but no node
     * is visited twice (each walk follows only one old bucket's nodes, forward).
     */
    public void forEach(Consumer<? super Node> action) {
        Node[] tab = (Node[]) TABLE.getAcquire(this);
        for (int i = 0; i < tab.length; i++) {
            for (Node n = (Node) SLOT.getAcquire(tab, i); n != null; n = (Node) NEXT.getAcquire(n)) {
                action.accept(n);
            }
        }
    }

    /**
     * Doubles the table, lock held. Buckets are the top bits of the hash, so old bucket i splits
     * into new buckets 2i and 2i + 1 by the next bit; each part keeps the nodes' relative order, so every relinked pointer still leads to an
     * older node (no reader can cycle). Readers on the old table may lose their way meanwhile, which
     * the odd sequence tells them.
     */
    private void resize(Node[] old) {
        int n = old.length;
        if (n >= MAX_CAPACITY) {
            return;
        }
        Node[] tab = new Node[n << 1];
        // The bit below old bucket i's: 0 sends a node to new bucket 2i, 1 to 2i + 1.
        long splitBit = 1L << (63 - Integer.numberOfTrailingZeros(n));
        long seq = (long) RESIZES.get(this);
        // Volatile: ordered before every relinking store below.
        RESIZES.setVolatile(this, seq + 1);
        for (int i = 0; i < n; i++) {
            Node loHead = null;
            Node loTail = null;
            Node hiHead = null;
            Node hiTail = null;
            Node e = (Node) SLOT.get(old, i);
            while (e != null) {
                // Read the successor before any store below can change a pointer we still need.
                Node next = (Node) NEXT.get(e);
                if ((hash(e.key) & splitBit) == 0) {
                    if (loTail == null) {
                        loHead = e;
                    } else if (NEXT.get(loTail) != e) {
                        NEXT.setRelease(loTail, e);
                    }
                    loTail = e;
                } else {
                    if (hiTail == null) {
                        hiHead = e;
                    } else if (NEXT.get(hiTail) != e) {
                        NEXT.setRelease(hiTail, e);
                    }
                    hiTail = e;
                }
                e = next;
            }
            if (loTail != null && NEXT.get(loTail) != null) {
                NEXT.setRelease(loTail, null);
            }
            if (hiTail != null && NEXT.get(hiTail) != null) {
                NEXT.setRelease(hiTail, null);
            }
            // The new table is not reachable yet: plain stores, published by the release below.
            tab[2 * i] = loHead;
            tab[2 * i + 1] = hiHead;
        }
        threshold = thresholdFor(tab.length);
        TABLE.setRelease(this, tab);
        RESIZES.setVolatile(this, seq + 2);
    }

    /**
     * A key's versioned slot and chain link. The key is final, so a node found by a lookup is the
     * key's node however stale the path to it was.
     */
    public static final class Node extends RefItem {
        /** The key; final, read by anyone. */
        public final long key;
        /**
         * The owner's link between nodes not yet in the index (a transaction's buffered inserts).
         * Never read or written by the index; the owner confines it to one thread.
         */
        public Node pendingNext;
        /**
         * Next node of the chain. Written under the index lock with release stores (before the node
         * is linked, then by unlinks of its successor and by resizes), read with acquire.
         */
        @SuppressWarnings("unused") // accessed through NEXT
        private Node next;

        /** @param key the key; the value starts null and is set by the owner before linking */
        public Node(long key) {
            super(null);
            this.key = key;
        }
    }
}
