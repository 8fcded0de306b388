package io.jato.collections;

import io.jato.records.RecordLayout;
import io.jato.records.fixtures.Account;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;

import java.util.IdentityHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every item a data type creates is in the protocol domain its store gave the object. Only the
 * default protocol is on this module's test path, so a store here has one protocol and every
 * domain must be 0; the suites in cc-protocols run the same types on stores that mix protocols.
 * The items are reached through a transaction's access set, which holds every item the
 * operations touched: cells, stripes, nodes inserted by transactions and by loaders, the anchor,
 * leaves made by splits, slots, and a record's group items.
 */
class ProtocolDomainTest {
    private final Stm stm = Stm.create();

    @Test
    void everyItemOfAStoreOfOneProtocolIsInDomainZero() {
        assertEquals(0, stm.protocolDomain());
        TxRef<String> ref = new TxRef<>(stm, "a");
        TxLong cell = new TxLong(stm, 1);
        TxCounter counter = new TxCounter(stm);
        TxHashMap<String, Integer> map = new TxHashMap<>(stm, 16);
        TxLongHashMap<Integer> longMap = new TxLongHashMap<>(stm, 16);
        // The smallest capacity, so that the loads below split leaves and grow inner nodes.
        TxSortedMap<String, Integer> sorted = TxSortedMap.<String, Integer>builder(stm).nodeCapacity(4).build();
        TxLongSortedMap<Integer> longSorted = TxLongSortedMap.<Integer>builder(stm).nodeCapacity(4).build();
        Account account = Account.create(stm, RecordLayout.SPLIT);
        for (int i = 0; i < 64; i++) {
            map.single().put("k" + i, i);
            longMap.single().put(i, i);
            sorted.single().put(String.format("k%03d", i), i);
            longSorted.single().put(i, i);
        }
        assertEquals(0, Items.domain(account), "a record is its first group's item");
        for (TxItem stripe : map.stripes) {
            assertEquals(0, Items.domain(stripe));
        }

        Map<TxItem, Boolean> seen = new IdentityHashMap<>();
        stm.run(t -> {
            ref.set(t, ref.get(t) + "b");
            cell.addAndGet(t, 1);
            counter.add(t, 1);
            map.get(t, "k1");
            map.get(t, "absent");
            map.put(t, "new", 1);
            longMap.get(t, 1);
            longMap.get(t, -1);
            longMap.put(t, 100, 1);
            sorted.put(t, "new", 1);
            sorted.scan(t, "k000", "k999", (k, v) -> true);
            longSorted.put(t, 100, 1);
            longSorted.scan(t, 0, 100, (k, v) -> true);
            account.setOwner(t, "ann");
            account.setBalance(t, 5);
            collect(t, seen);
        });
        // Commits that inserted keys split leaves; a scan now touches the leaves they made.
        stm.run(t -> {
            sorted.scan(t, "k000", "z", (k, v) -> true);
            longSorted.scan(t, Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> true);
            collect(t, seen);
        });
        assertTrue(seen.size() > 100, "the transactions touched " + seen.size() + " items");
        for (TxItem item : seen.keySet()) {
            assertEquals(0, Items.domain(item), () -> "item " + item);
        }
    }

    /** Adds the items of {@code t}'s access set to {@code seen}. */
    private void collect(Txn t, Map<TxItem, Boolean> seen) {
        TxnContext c = TxnContext.of(t, stm);
        for (int i = 0; i < c.size(); i++) {
            seen.put(c.entryAt(i).item(), Boolean.TRUE);
        }
    }
}
