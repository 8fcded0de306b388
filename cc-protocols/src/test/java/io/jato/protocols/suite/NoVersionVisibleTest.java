package io.jato.protocols.suite;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxSortedMap;
import io.jato.protocols.suite.probe.PastProtocol;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The shared "no version visible" answer ({@code ConcurrencyControl.NO_VERSION}): a protocol that
 * reads in the past answers it for a map entry that its snapshot does not contain, and every map
 * treats the key as absent — lookups, containment, scans, first/last keys, putIfAbsent — without
 * looking it up again (the entry is still linked). Driven by the test protocol
 * {@link PastProtocol}, which hides the entries holding chosen values.
 */
class NoVersionVisibleTest {
    private static final String HIDDEN = "inserted after the snapshot";

    private static PastProtocol.Control hiding(Stm stm) {
        PastProtocol.Control c = PastProtocol.lastCreated;
        c.hiddenValues.add(HIDDEN);
        return c;
    }

    @Test
    void hashMapsTreatAnInvisibleEntryAsAbsent() {
        Stm stm = Stm.builder().protocol(PastProtocol.NAME).build();
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        TxLongHashMap<String> longs = new TxLongHashMap<>(stm);
        map.single().put("a", "old");
        map.single().put("b", HIDDEN);
        longs.single().put(1, "old");
        longs.single().put(2, HIDDEN);
        hiding(stm);
        stm.run(t -> {
            assertEquals("old", map.get(t, "a"));
            assertNull(map.get(t, "b"));
            assertFalse(map.containsKey(t, "b"));
            assertEquals("old", longs.get(t, 1));
            assertNull(longs.get(t, 2));
            assertFalse(longs.containsKey(t, 2));
        });
        // Absent to the transaction: putIfAbsent writes (an MVCC store installs a newer version).
        stm.run(t -> assertNull(map.putIfAbsent(t, "b", "mine")));
        assertEquals("mine", map.single().get("b"));
        assertEquals(0, stm.statistics().aborts(AbortCause.DELETED), "an invisible entry is absent, not deleted");
        assertEquals(2, stm.statistics().commits(), "no attempt looked the key up forever or retried");
    }

    @Test
    void sortedMapsSkipAnInvisibleEntryInLookupsAndScans() {
        Stm stm = Stm.builder().protocol(PastProtocol.NAME).build();
        TxSortedMap<String, String> map = new TxSortedMap<>(stm);
        TxLongSortedMap<String> longs = new TxLongSortedMap<>(stm);
        for (String k : List.of("a", "b", "c")) {
            map.single().put(k, k.equals("c") ? HIDDEN : "v" + k);
        }
        longs.single().put(1, HIDDEN);
        longs.single().put(2, "v2");
        hiding(stm);
        stm.run(t -> {
            assertNull(map.get(t, "c"));
            assertFalse(map.containsKey(t, "c"));
            assertEquals("b", map.lastKey(t));
            List<String> seen = new ArrayList<>();
            map.scan(t, "a", "z", (k, v) -> {
                seen.add(k + "=" + v);
                return true;
            });
            assertEquals(List.of("a=va", "b=vb"), seen);
            assertNull(longs.get(t, 1));
            assertEquals(2L, longs.firstKey(t, -1));
        });
        assertEquals(1, stm.statistics().commits());
        assertEquals(1, stm.statistics().starts(), "no retry");
    }

    /**
     * A commit-time update of a key with no visible version finds it absent (the updater never
     * sees the marker), and a merge after a read writes its value into the found entry. Before the fix the
     * updater was applied to null.
     */
    @Test
    void updatesOfAnInvisibleEntryFindItAbsentAndMergesWriteIntoIt() {
        Stm stm = Stm.builder().protocol(PastProtocol.NAME).build();
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        TxLongHashMap<String> longs = new TxLongHashMap<>(stm);
        map.single().put("b", HIDDEN);
        longs.single().put(2, HIDDEN);
        hiding(stm);
        stm.run(t -> {
            assertNull(map.get(t, "b"));
            assertFalse(map.update(t, "b", v -> v + "!"));
            assertNull(longs.get(t, 2));
            assertFalse(longs.update(t, 2, v -> v + "!"));
        });
        stm.run(t -> {
            // Read first: a blind merge would apply at commit to the latest committed value.
            assertNull(map.get(t, "b"));
            map.merge(t, "b", "merged", (v) -> v + "+");
            assertNull(longs.get(t, 2));
            longs.merge(t, 2, "merged", (v) -> v + "+");
        });
        assertEquals("merged", map.single().get("b"));
        assertEquals("merged", longs.single().get(2));
    }
}
