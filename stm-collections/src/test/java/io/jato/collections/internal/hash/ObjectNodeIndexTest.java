package io.jato.collections.internal.hash;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ObjectNodeIndex}: lookups by equal keys, colliding hash codes, and lookups racing resizes. */
class ObjectNodeIndexTest {

    /** A key equal by id, with a hash code shared by {@code id % buckets}; a fresh object per lookup. */
    private static final class Key {
        final int id;
        final int buckets;

        Key(int id, int buckets) {
            this.id = id;
            this.buckets = buckets;
        }

        @Override
        public int hashCode() {
            return id % buckets;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && ((Key) o).id == id;
        }
    }

    private static ObjectNodeIndex.Node<Key> node(Key k) {
        return new ObjectNodeIndex.Node<>(k, ObjectNodeIndex.hash(k), 0);
    }

    private static ObjectNodeIndex.Node<Key> lookup(ObjectNodeIndex<Key> index, Key k) {
        return index.get(k, ObjectNodeIndex.hash(k));
    }

    @Test
    void equalKeysFindTheirNodeAmongCollidingHashCodes() {
        ObjectNodeIndex<Key> index = new ObjectNodeIndex<>(0);
        List<ObjectNodeIndex.Node<Key>> nodes = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ObjectNodeIndex.Node<Key> n = node(new Key(i, 7));
            index.reserve(1);
            index.link(n);
            nodes.add(n);
        }
        assertEquals(1000, index.size());
        assertTrue(index.resizeCount() > 0);
        for (int i = 0; i < 1000; i++) {
            assertSame(nodes.get(i), lookup(index, new Key(i, 7)), "key " + i);
        }
        assertNull(lookup(index, new Key(1000, 7)));
        for (int i = 0; i < 1000; i += 2) {
            assertTrue(index.remove(nodes.get(i)));
            assertFalse(index.remove(nodes.get(i)));
        }
        for (int i = 0; i < 1000; i++) {
            assertSame(i % 2 == 0 ? null : nodes.get(i), lookup(index, new Key(i, 7)), "key " + i);
        }
        assertEquals(500, index.size());
        int[] seen = {0};
        index.forEach(n -> seen[0]++);
        assertEquals(500, seen[0]);
    }

    @Test
    void distinctHashCodesNeverShareASpreadHash() {
        // The spread is a bijection of the 32-bit hash code: equal spread hashes mean equal codes.
        assertFalse(ObjectNodeIndex.hash(1) == ObjectNodeIndex.hash(-1));
        assertFalse(ObjectNodeIndex.hash(0) == ObjectNodeIndex.hash(Integer.MIN_VALUE));
        assertEquals(ObjectNodeIndex.hash("a"), ObjectNodeIndex.hash(new String("a")));
    }

    /**
     * Readers look up keys known to be linked (with fresh, equal key objects) while a writer links
     * thousands more, forcing a dozen resizes: a linked key must never be reported absent.
     */
    @Test
    @Timeout(120)
    void readersNeverMissALinkedKeyWhileTheTableResizes() throws InterruptedException {
        for (int round = 0; round < 3; round++) {
            ObjectNodeIndex<Key> index = new ObjectNodeIndex<>(0);
            int total = 40_000;
            int buckets = round == 0 ? Integer.MAX_VALUE : 1 << (10 + round);
            for (int i = 0; i < 64; i++) {
                index.link(node(new Key(i, buckets)));
            }
            AtomicInteger linked = new AtomicInteger(64);
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<String> failure = new AtomicReference<>();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int seed = r;
                readers.add(new Thread(() -> {
                    java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
                    while (!done.get() && failure.get() == null) {
                        int n = linked.get();
                        int id = rnd.nextInt(n);
                        ObjectNodeIndex.Node<Key> found = lookup(index, new Key(id, buckets));
                        if (found == null || found.key.id != id) {
                            failure.set("key " + id + " of " + n + " linked: found " + (found == null ? null : found.key.id));
                        }
                    }
                }));
            }
            readers.forEach(Thread::start);
            for (int i = 64; i < total && failure.get() == null; i++) {
                index.reserve(1);
                index.link(node(new Key(i, buckets)));
                linked.set(i + 1);
            }
            done.set(true);
            for (Thread t : readers) {
                t.join();
            }
            assertNull(failure.get(), "round " + round);
            assertTrue(index.resizeCount() >= 10, "resizes: " + index.resizeCount());
        }
    }
}
