package io.jato.protocols.suite;

import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxSortedMap;
import io.jato.protocols.suite.probe.PastProtocol;
import io.jato.stm.Stm;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Sorted-map scans at a snapshot, with no version of the leaves: what a multi-version protocol
 * needs from the sorted maps. Leaves are not versioned in the past; instead, every key a snapshot
 * can see is still in some leaf, because the protocol keeps deleted entries linked until no
 * snapshot can see them ({@code keepsDeleted}); each entry's version is the protocol's to serve
 * (an older value, or {@code NO_VERSION} for an entry inserted after the snapshot); and splits move
 * entries between leaves without changing them. So a scan over today's leaves, reading each entry
 * through the protocol, sees exactly the snapshot's keys and values. Driven by the test protocol
 * {@link PastProtocol} with small leaves, so that the inserts after the "snapshot" split them.
 */
class SnapshotScanTest {
    private static final String NEW = "inserted after the snapshot";

    /** Deletes k3, changes k5 and inserts keys 10..39 (hidden) in one commit, after ten loaded keys. */
    private static PastProtocol.Control changeAfterSnapshot(Stm stm, Runnable commit) {
        PastProtocol.Control past = PastProtocol.lastCreated;
        past.keepDeletes = true;
        past.hiddenValues.add(NEW);
        commit.run();
        past.servePast = true;
        past.untrackReadOnly = true;
        return past;
    }

    @Test
    void aScanAtTheSnapshotSeesExactlyItsKeysAcrossSplitLeavesAndKeptDeletes() {
        Stm stm = Stm.builder().protocol(PastProtocol.NAME).build();
        TxSortedMap<String, String> map = TxSortedMap.<String, String>builder(stm).nodeCapacity(4).build();
        List<String> before = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            map.single().put(key(i), "v" + i);
            before.add(key(i) + "=v" + i);
        }
        changeAfterSnapshot(stm, () -> stm.run(t -> {
            map.remove(t, key(3));
            map.put(t, key(5), "changed");
            for (int i = 10; i < 40; i++) {
                map.put(t, key(i), NEW);
            }
        }));
        // 30 inserts into leaves of at most 4 keys split the leaves the snapshot's keys were in.
        int[] readCount = new int[1];
        List<String> seen = stm.readOnly(t -> {
            List<String> out = new ArrayList<>();
            map.scan(t, null, null, (k, v) -> out.add(k + "=" + v));
            readCount[0] = ((TxnContext) t).readCount();
            return out;
        });
        assertEquals(before, seen, "the snapshot's keys and values, in order");
        assertEquals(0, readCount[0], "a read-only snapshot scan validates nothing");
        List<String> descending = stm.readOnly(t -> {
            List<String> out = new ArrayList<>();
            map.scan(t, key(2), true, key(7), true, Integer.MAX_VALUE, true, (k, v) -> out.add(k + "=" + v));
            return out;
        });
        assertEquals(List.of("k07=v7", "k06=v6", "k05=v5", "k04=v4", "k03=v3", "k02=v2"), descending);
        assertEquals(List.of(), Quiescence.problems(map), "quiescent");
    }

    @Test
    void theSameHoldsForLongKeys() {
        Stm stm = Stm.builder().protocol(PastProtocol.NAME).build();
        TxLongSortedMap<String> map = TxLongSortedMap.<String>builder(stm).nodeCapacity(4).build();
        List<String> before = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            map.single().put(i, "v" + i);
            before.add(i + "=v" + i);
        }
        changeAfterSnapshot(stm, () -> stm.run(t -> {
            map.remove(t, 3);
            map.put(t, 5, "changed");
            for (int i = 10; i < 40; i++) {
                map.put(t, i, NEW);
            }
        }));
        List<String> seen = stm.readOnly(t -> {
            List<String> out = new ArrayList<>();
            map.scan(t, Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> out.add(k + "=" + v));
            return out;
        });
        assertEquals(before, seen);
        assertEquals(List.of(), Quiescence.problems(map), "quiescent");
    }

    private static String key(int i) {
        return String.format("k%02d", i);
    }
}
