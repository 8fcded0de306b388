package io.jato.collections.internal.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/*
 * Design. A chained hash table whose chains run through the nodes themselves: a lookup costs the
 * table slot, then the node (key, hash and next pointer inline), then the caller reads the value.
 * No boxing, no wrapper entries, no allocation on lookup; the subclasses add the key comparison
 * (LongNodeIndex: a primitive compare; ObjectNodeIndex: the cached hash, then equals).
 *
 * Readers never lock, except that a miss that overlapped a resize waits for it by passing through
 * the lock. Every structural change (insert at a chain head, unlink, resize) happens under one
 * lock per index; commits that insert are short.
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
 *    re-reads the counter (missConfirmed) and retries if a resize started or ended meanwhile. A
 *    miss is then reported only from a table no resize touched during the walk. A hit needs no
 *    check: keys are final, so a node found is the key's node.
 *
 * Failure atomicity. Linking and unlinking never allocate and never run user code (the hash is
 * cached in the node, nodes are compared by identity), so a commit can link and unlink its nodes
 * with its locks held. Only reserve allocates (a resize's new table), before anything changes.
 */

/**
 * A concurrent hash index from keys to {@link ChainNode}s: lock-free, allocation-free lookups
 * (in the subclasses); inserts, unlinks and resizes serialized by a lock, none of which allocates
 * or calls a key's methods but {@link #reserve}. The owner decides when a node is linked and
 * unlinked, and what its value means.
 */
public abstract class ChainedIndex {
    private static final int MAX_CAPACITY = 1 << 30;
    /** 2^64 / golden ratio, odd: multiplying by it is a bijection that spreads every bit upwards. */
    static final long PHI = 0x9E3779B97F4A7C15L;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(ChainNode[].class);
    private static final VarHandle TABLE;
    private static final VarHandle RESIZES;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TABLE = lookup.findVarHandle(ChainedIndex.class, "table", ChainNode[].class);
            RESIZES = lookup.findVarHandle(ChainedIndex.class, "resizes", long.class);
            NEXT = MethodHandles.privateLookupIn(ChainNode.class, lookup)
                    .findVarHandle(ChainNode.class, "next", ChainNode.class);
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
    private ChainNode[] table;
    /**
     * The resize sequence: odd while a resize relinks chains, incremented (volatile store) once when
     * it starts and once when it has published the new table. Written only under {@link #lock}; read
     * by lookups before and after a walk that found nothing.
     */
    @SuppressWarnings("unused") // accessed through RESIZES
    private long resizes;
    /** Number of linked nodes. Written under {@link #lock}; read racily as an estimate. */
    private volatile int size;
    /** Resize when {@link #size} exceeds this. Written under {@link #lock}; read racily by reserve's fast check (a hint). */
    private int threshold;
    /** Serializes all structural changes; a lookup passes through it only to wait out a resize. */
    final Object lock = new Object();

    /** @param expectedSize the number of keys expected; the table starts large enough for them */
    ChainedIndex(int expectedSize) {
        if (expectedSize < 0) {
            throw new IllegalArgumentException("expectedSize must be >= 0, got " + expectedSize);
        }
        long want = Math.max(16L, (long) expectedSize * 4 / 3 + 1);
        int cap = want >= MAX_CAPACITY ? MAX_CAPACITY : Integer.highestOneBit((int) want - 1) << 1;
        ChainNode[] t = new ChainNode[cap];
        this.threshold = thresholdFor(cap);
        TABLE.setRelease(this, t);
    }

    private static int thresholdFor(int capacity) {
        return capacity >= MAX_CAPACITY ? Integer.MAX_VALUE : capacity - (capacity >>> 2);
    }

    /** @return the bucket of {@code hash} (a spread hash) in a power-of-two table of {@code length} >= 2 */
    public static int indexFor(long hash, int length) {
        // The top log2(length) bits: shift by 64 - log2(length) = 33 + numberOfLeadingZeros(length).
        return (int) (hash >>> (33 + Integer.numberOfLeadingZeros(length)));
    }

    // ------------------------------------------------------------------ lookups (subclasses)

    /** Starts a walk: the resize sequence, to pass to {@link #missConfirmed} if the walk finds nothing. */
    final long walkStart() {
        return (long) RESIZES.getAcquire(this);
    }

    /** @return the head of {@code hash}'s chain in the current table */
    final ChainNode head(long hash) {
        ChainNode[] tab = (ChainNode[]) TABLE.getAcquire(this);
        return (ChainNode) SLOT.getAcquire(tab, indexFor(hash, tab.length));
    }

    /** @return the node after {@code n} in its chain */
    static ChainNode next(ChainNode n) {
        return (ChainNode) NEXT.getAcquire(n);
    }

    /**
     * After a walk started at {@code seq} found nothing: true if no resize ran meanwhile, so the miss
     * stands; false if the caller must walk again, which it may do at once: this has waited for the
     * resize that disturbed the walk to finish.
     */
    final boolean missConfirmed(long seq) {
        // Order the walk's loads before the re-check: if the walk saw any pointer a resize
        // relinked, it also sees the sequence that resize made odd (or a later value).
        VarHandle.acquireFence();
        if ((seq & 1) == 0 && (long) RESIZES.getOpaque(this) == seq) {
            return true;
        }
        awaitResize();
        return false;
    }

    /**
     * Waits until no resize runs, by passing through the lock every resize holds from start to end.
     * A resize of a large table takes milliseconds; spinning on the sequence for that long burns
     * the core the resizing thread needs whenever there are more threads than cores (TPC-C at 8
     * threads on 2 cores spent a fifth of its CPU in that spin). A contended monitor parks its
     * waiters, so the resize gets the core. No key method runs under the lock: the caller walks
     * again after this returns.
     */
    private void awaitResize() {
        synchronized (lock) {
            // Empty on purpose: entering means the resize that made the sequence odd is over.
        }
    }

    // ------------------------------------------------------------------ structural changes

    /**
     * Links {@code node} at the head of its chain. The caller guarantees that no node of the same
     * key is linked (a map's locked absence stripe); the node must not be linked in any index and
     * must be fully initialized: it becomes visible to readers here. Never allocates, never resizes
     * and runs no key method, so a commit may call it with its locks held; the table grows in
     * {@link #reserve} (the load factor may be exceeded meanwhile, which only lengthens chains).
     */
    public final void link(ChainNode node) {
        synchronized (lock) {
            linkLocked(node);
        }
    }

    /** {@link #link} with {@link #lock} held by the caller. */
    final void linkLocked(ChainNode node) {
        ChainNode[] tab = (ChainNode[]) TABLE.get(this);
        int i = indexFor(node.hash, tab.length);
        NEXT.setRelease(node, (ChainNode) SLOT.get(tab, i));
        SLOT.setRelease(tab, i, node);
        size = size + 1;
    }

    /** @return the head of {@code hash}'s chain, plain load: only with {@link #lock} held */
    final ChainNode headLocked(long hash) {
        ChainNode[] tab = (ChainNode[]) TABLE.get(this);
        return (ChainNode) SLOT.get(tab, indexFor(hash, tab.length));
    }

    /**
     * Grows the table, if needed, so that {@code more} further nodes fit within the load factor.
     * Called before a commit links nodes (by a transaction when it buffers an insert, by a
     * non-transactional insert before it locks): an {@code OutOfMemoryError} here leaves the index
     * as it was, since a resize allocates its new table before it touches a pointer.
     */
    public final void reserve(int more) {
        if (size + more <= threshold) {
            return;
        }
        synchronized (lock) {
            for (ChainNode[] tab = (ChainNode[]) TABLE.get(this);
                 size + more > threshold && tab.length < MAX_CAPACITY;
                 tab = (ChainNode[]) TABLE.get(this)) {
                resize(tab);
            }
        }
    }

    /**
     * Unlinks {@code node} if it is linked (found by identity: no key method runs). Its own next
     * pointer is left as it is, so a reader standing on it still reaches the rest of its chain.
     *
     * @return true if the node was linked
     */
    public final boolean remove(ChainNode node) {
        synchronized (lock) {
            ChainNode[] tab = (ChainNode[]) TABLE.get(this);
            int i = indexFor(node.hash, tab.length);
            ChainNode prev = null;
            for (ChainNode e = (ChainNode) SLOT.get(tab, i); e != null; prev = e, e = (ChainNode) NEXT.get(e)) {
                if (e == node) {
                    ChainNode next = (ChainNode) NEXT.get(e);
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
    public final int size() {
        return size;
    }

    /** @return the current table length (for tests and diagnostics) */
    public final int capacity() {
        return ((ChainNode[]) TABLE.getAcquire(this)).length;
    }

    /** @return how many resizes completed (for tests and diagnostics) */
    public final long resizeCount() {
        return (long) RESIZES.getAcquire(this) >>> 1;
    }

    /**
     * Visits every linked node of the current table. Weakly consistent: nodes linked or unlinked
     * meanwhile may or may not be visited, and a concurrent resize may hide some nodes, but no node
     * is visited twice (each walk follows only one old bucket's nodes, forward).
     */
    final void forEachNode(Consumer<? super ChainNode> action) {
        ChainNode[] tab = (ChainNode[]) TABLE.getAcquire(this);
        for (int i = 0; i < tab.length; i++) {
            for (ChainNode n = (ChainNode) SLOT.getAcquire(tab, i); n != null; n = (ChainNode) NEXT.getAcquire(n)) {
                action.accept(n);
            }
        }
    }

    /**
     * Fills {@code into} with every node linked when the walk started, by a walk that no resize
     * overlapped: if one did, the buffer is emptied and the walk repeated once the resize is over.
     * Nodes linked or unlinked during the walk may or may not be included; none is included twice.
     * A transactional iteration relies on it: a node linked before the walk is never missed.
     */
    public final void collect(NodeBuffer into) {
        for (;;) {
            long seq = walkStart();
            into.reset();
            ChainNode[] tab = (ChainNode[]) TABLE.getAcquire(this);
            for (int i = 0; i < tab.length; i++) {
                for (ChainNode n = (ChainNode) SLOT.getAcquire(tab, i); n != null; n = (ChainNode) NEXT.getAcquire(n)) {
                    into.add(n);
                }
            }
            if (missConfirmed(seq)) {
                return;
            }
        }
    }

    /**
     * Test seam: when set, runs just before a resize allocates its table (tests make it throw an
     * {@code OutOfMemoryError}); null otherwise. Read only on the resize path.
     */
    static volatile Runnable resizeFault;

    /**
     * Test seam: when set, runs once a resize has made the sequence odd and before it relinks
     * anything (tests hold a resize there to see what readers do meanwhile); null otherwise.
     */
    static volatile Runnable resizeStall;

    /**
     * Doubles the table, lock held. Buckets are the top bits of the hash, so old bucket i splits
     * into new buckets 2i and 2i + 1 by the next bit; each part keeps the nodes' relative order, so
     * every relinked pointer still leads to an older node (no reader can cycle). Readers on the old
     * table may lose their way meanwhile, which the odd sequence tells them.
     */
    private void resize(ChainNode[] old) {
        int n = old.length;
        if (n >= MAX_CAPACITY) {
            return;
        }
        // Allocated before anything changes: an OutOfMemoryError leaves the index as it was.
        Runnable fault = resizeFault;
        if (fault != null) {
            fault.run();
        }
        ChainNode[] tab = new ChainNode[n << 1];
        // The bit below old bucket i's: 0 sends a node to new bucket 2i, 1 to 2i + 1.
        long splitBit = 1L << (63 - Integer.numberOfTrailingZeros(n));
        long seq = (long) RESIZES.get(this);
        // Volatile: ordered before every relinking store below.
        RESIZES.setVolatile(this, seq + 1);
        Runnable stall = resizeStall;
        if (stall != null) {
            stall.run();
        }
        for (int i = 0; i < n; i++) {
            ChainNode loHead = null;
            ChainNode loTail = null;
            ChainNode hiHead = null;
            ChainNode hiTail = null;
            ChainNode e = (ChainNode) SLOT.get(old, i);
            while (e != null) {
                // Read the successor before any store below can change a pointer we still need.
                ChainNode next = (ChainNode) NEXT.get(e);
                if ((e.hash & splitBit) == 0) {
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
}
