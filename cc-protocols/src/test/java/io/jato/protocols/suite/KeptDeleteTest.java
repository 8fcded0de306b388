package io.jato.protocols.suite;

import io.jato.collections.TxHashMap;
import io.jato.protocols.suite.probe.PastProtocol;
import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Protocol-controlled unlink ({@code ConcurrencyControl.keepsDeleted},
 * {@code TxParticipant.unlinkDeleted}): a protocol that keeps versions decides when a deleted map
 * entry leaves the index. Until then the entry stays linked holding {@code NO_VERSION} — absent to
 * lookups, scans and the non-transactional view, revived in place by a later insert of its key —
 * and the protocol's later unlink gives it a new, retired version. Driven by the test protocol
 * {@link PastProtocol}, over every map type.
 */
class KeptDeleteTest {

    static List<String> kinds() {
        return AnyMap.KINDS;
    }

    private static Stm keepingStore() {
        return Stm.builder().protocol(PastProtocol.NAME).build();
    }

    /** The hash maps' non-transactional size counts keys, not the kept deletes still linked. */
    @org.junit.jupiter.api.Test
    void theHashMapsSizeSkipsKeptDeletes() {
        Stm stm = keepingStore();
        PastProtocol.Control past = PastProtocol.lastCreated;
        io.jato.collections.TxHashMap<String, Integer> map = new io.jato.collections.TxHashMap<>(stm);
        io.jato.collections.TxLongHashMap<Integer> longMap = new io.jato.collections.TxLongHashMap<>(stm);
        for (int k = 0; k < 3; k++) {
            map.single().put("k" + k, k);
            longMap.single().put(k, k);
        }
        past.keepDeletes = true;
        stm.run(t -> {
            map.remove(t, "k0");
            longMap.remove(t, 0);
        });
        assertEquals(2, past.kept.size(), "both deletes were kept");
        assertEquals(2, map.single().size(), "TxHashMap's size counted a kept delete");
        assertEquals(2, longMap.single().size(), "TxLongHashMap's size counted a kept delete");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aKeptDeleteIsAbsentRevivedInPlaceAndUnlinkedWhenTheProtocolSays(String kind) {
        Stm stm = keepingStore();
        PastProtocol.Control past = PastProtocol.lastCreated;
        ConcurrencyControl cc = stm.concurrencyControl();
        AnyMap<Integer> map = AnyMap.create(kind, stm);
        map.singlePut("a", 1);
        map.singlePut("b", 2);
        map.singlePut("c", 3);
        past.keepDeletes = true;
        stm.run(t -> {
            assertEquals(1, map.remove(t, "a"));
            assertEquals(2, map.remove(t, "b"));
        });
        assertEquals(2, past.kept.size(), "both deletes were kept");
        TxItem keptA = past.kept.get(0).getKey();
        TxItem keptB = past.kept.get(1).getKey();
        for (TxItem k : List.of(keptA, keptB)) {
            assertSame(ConcurrencyControl.NO_VERSION, ((RefItem) k).valueAcquire(), "a kept delete holds NO_VERSION");
            assertFalse(cc.isRetired(k), "a kept delete is not retired");
        }
        stm.run(t -> {
            assertNull(map.get(t, "a"));
            assertNull(map.remove(t, "b"), "removing an absent key writes nothing");
        });
        assertNull(map.singleGet("a"));
        assertEquals(Map.of("c", 3), map.contents(), "scans and the non-transactional view skip kept deletes");
        assertNull(map.checkQuiescent());

        // A later insert of "a" writes into the kept entry: no second entry for the key.
        stm.run(t -> assertNull(map.put(t, "a", 10)));
        assertEquals(10, ((RefItem) keptA).valueAcquire(), "revived in place");
        assertEquals(2, past.kept.size(), "the revival deleted nothing");

        past.keepDeletes = false;
        assertEquals(List.of(false, true), past.unlinkKept(), "only the entry still deleted is unlinked");
        assertTrue(cc.isRetired(keptB), "the unlinked entry is retired");
        assertFalse(cc.isRetired(keptA));
        assertEquals(List.of(false, false), past.unlinkKept(), "unlinking twice does nothing");
        assertEquals(Map.of("a", 10, "c", 3), map.contents());
        assertNull(map.checkQuiescent());
        assertNull(map.singlePut("b", 20), "b was absent");
        stm.run(t -> assertEquals(20, map.get(t, "b")));
        assertNull(map.singlePut("x", 5));
        assertEquals(5, map.singleGet("x"));

        // The non-transactional view revives a kept delete in place too, and reports it absent.
        past.keepDeletes = true;
        stm.run(t -> map.remove(t, "x"));
        past.keepDeletes = false;
        TxItem keptX = past.kept.get(past.kept.size() - 1).getKey();
        assertNull(map.singlePut("x", 6), "a kept delete is absent to the non-transactional view");
        assertEquals(6, ((RefItem) keptX).valueAcquire(), "revived in place");
        assertFalse(past.kept.get(past.kept.size() - 1).getValue().unlinkDeleted(keptX), "revived: not unlinked");
        assertEquals(6, map.singleGet("x"));
        assertNull(map.checkQuiescent());
    }

    /**
     * A transaction that found a key absent through its kept entry must not commit if, after the
     * protocol unlinked the entry, the key was inserted anew (into another entry): the unlink's new
     * version makes its read fail validation. Fails if {@code unlinkDeleted} keeps the version.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aReaderOfAKeptDeleteFailsValidationIfTheKeyReturnsAfterTheUnlink(String kind) {
        Stm stm = keepingStore();
        PastProtocol.Control past = PastProtocol.lastCreated;
        AnyMap<Integer> map = AnyMap.create(kind, stm);
        map.singlePut("k", 1);
        past.keepDeletes = true;
        stm.run(t -> map.remove(t, "k"));
        past.keepDeletes = false;
        int[] attempts = new int[1];
        Integer[] seen = new Integer[2];
        stm.run(t -> {
            attempts[0]++;
            seen[attempts[0] - 1] = map.get(t, "k");
            if (attempts[0] == 1) {
                Thread other = new Thread(() -> {
                    past.unlinkKept();
                    map.singlePut("k", 5);
                });
                other.start();
                join(other);
            }
            map.put(t, "other", seen[attempts[0] - 1] == null ? 0 : seen[attempts[0] - 1]);
        });
        assertEquals(2, attempts[0], "the first attempt's read of the absent key failed validation");
        assertNull(seen[0]);
        assertEquals(5, seen[1]);
        assertEquals(5, map.singleGet("other"), "the committed attempt saw the key's return");
        assertNull(map.checkQuiescent());
    }

    /**
     * A commit-time update scheduled on a present key takes no read; if the key's delete commits
     * meanwhile and is kept linked, the update must not run on the deleted entry (the updater
     * would get NO_VERSION): the attempt retries and then finds the key absent.
     */
    @Test
    void anUpdateOfAKeyWhoseDeleteWasKeptRetriesAndFindsItAbsent() {
        Stm stm = keepingStore();
        PastProtocol.Control past = PastProtocol.lastCreated;
        past.keepDeletes = true;
        TxHashMap<String, Integer> map = new TxHashMap<>(stm);
        map.single().put("a", 1);
        int[] attempts = new int[1];
        boolean applied = stm.atomic(t -> {
            attempts[0]++;
            boolean scheduled = map.update(t, "a", v -> v + 1);
            if (attempts[0] == 1) {
                assertTrue(scheduled);
                Thread other = new Thread(() -> stm.run(o -> map.remove(o, "a")));
                other.start();
                join(other);
            }
            return scheduled;
        });
        assertFalse(applied, "the retry found the key absent");
        assertEquals(2, attempts[0]);
        assertNull(map.single().get("a"));
        assertEquals(1, past.kept.size());
    }

    private static void join(Thread t) {
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertFalse(t.isAlive(), "helper thread finished");
    }
}
