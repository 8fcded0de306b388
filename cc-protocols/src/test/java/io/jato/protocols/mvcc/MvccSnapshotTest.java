package io.jato.protocols.mvcc;

import io.jato.collections.TxHashMap;
import io.jato.collections.TxLong;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Read-only transactions in the recent past: a declared read-only transaction reads one stable
 * snapshot, keeps no read set, and commits on its first attempt however many writers commit
 * while it runs - including deletes of keys it has yet to read.
 */
@Timeout(60)
class MvccSnapshotTest {
    private static final int ACCOUNTS = 32;
    private static final long EACH = 100;

    private static Stm store() {
        return Protocols.store(MvccProtocol.NAME);
    }

    @Test
    void aSnapshotAcrossManyWriterCommitsSeesOneStateAndCommitsOnItsFirstAttempt() {
        Stm stm = store();
        TxLong[] accounts = new TxLong[ACCOUNTS];
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts[i] = new TxLong(stm, EACH);
        }
        int transfers = 2_000;
        AtomicInteger attempts = new AtomicInteger();
        AtomicLong sum = new AtomicLong();
        AtomicReference<String> firstHalf = new AtomicReference<>();
        Interleaving il = new Interleaving();
        il.thread("auditor", () -> stm.readOnly(txn -> {
            attempts.incrementAndGet();
            long s = 0;
            StringBuilder seen = new StringBuilder();
            for (int i = 0; i < ACCOUNTS; i++) {
                long v = accounts[i].get(txn);
                s += v;
                seen.append(v).append(' ');
                if (i == ACCOUNTS / 2) {
                    il.signal("half read");
                    il.await("transfers done");
                }
            }
            sum.set(s);
            firstHalf.set(seen.toString());
            return null;
        }));
        il.thread("transfers", () -> {
            il.await("half read");
            for (int k = 0; k < transfers; k++) {
                int from = k % ACCOUNTS;
                int to = (k * 7 + 3) % ACCOUNTS;
                stm.run(txn -> {
                    accounts[from].set(txn, accounts[from].get(txn) - 1);
                    accounts[to].set(txn, accounts[to].get(txn) + 1);
                });
            }
            il.signal("transfers done");
        });
        il.run();
        assertTrue(il.followedSchedule(), "the schedule did not run as written");
        assertEquals(1, attempts.get(), "the read-only snapshot was retried");
        assertEquals(ACCOUNTS * EACH, sum.get(), "the snapshot saw part of the transfers");
        assertEquals(String.valueOf(EACH).concat(" ").repeat(ACCOUNTS), firstHalf.get(),
                "the snapshot is the state before every transfer");
    }

    @Test
    void anOldSnapshotStillFindsAKeyDeletedAfterIt() {
        Stm stm = store();
        TxHashMap<Integer, String> map = new TxHashMap<>(stm, 16);
        for (int k = 0; k < 8; k++) {
            map.single().put(k, "v" + k);
        }
        AtomicInteger attempts = new AtomicInteger();
        AtomicReference<String> found = new AtomicReference<>();
        Interleaving il = new Interleaving();
        il.thread("reader", () -> stm.readOnly(txn -> {
            attempts.incrementAndGet();
            map.get(txn, 0);
            il.signal("snapshot taken");
            il.await("deleted");
            found.set(map.get(txn, 5));
            return null;
        }));
        il.thread("deleter", () -> {
            il.await("snapshot taken");
            stm.run(txn -> map.remove(txn, 5));
            il.signal("deleted");
        });
        il.run();
        assertTrue(il.followedSchedule());
        assertEquals(1, attempts.get());
        assertEquals("v5", found.get(), "the snapshot predates the delete");
        assertNull(map.single().get(5));
        assertNull(stm.readOnly(txn -> map.get(txn, 5)), "a snapshot taken after the delete");
        // Once no snapshot can see before the delete, the collector unlinks the kept node.
        stm.run(txn -> map.put(txn, 100, "x"));
        assertEquals(8, map.single().size(), "the kept delete was not unlinked");
    }

    /**
     * A key deleted, inserted again into the same kept node, and deleted again: when the first
     * delete's turn to be unlinked comes, the node is deleted again (by the third commit, newer than
     * the horizon) and a snapshot between the insert and that delete must still find the key. The
     * collector once unlinked it, because the node said "deleted".
     */
    @Test
    void aKeptDeleteIsNotUnlinkedOnceItsKeyWasInsertedAndDeletedAgain() {
        Stm stm = store();
        TxHashMap<Integer, String> map = new TxHashMap<>(stm, 16);
        map.single().put(1, "v1");
        map.single().put(2, "other");
        AtomicReference<String> found = new AtomicReference<>();
        AtomicInteger attempts = new AtomicInteger();
        Interleaving il = new Interleaving();
        il.thread("oldest snapshot", () -> stm.readOnly(txn -> {
            map.get(txn, 2);
            il.signal("oldest open");
            il.await("deleted again");
            return null;
        }));
        il.thread("writer", () -> {
            il.await("oldest open");
            stm.run(txn -> map.remove(txn, 1));
            stm.run(txn -> map.put(txn, 1, "v2"));
            il.signal("inserted again");
            il.await("middle open");
            stm.run(txn -> map.remove(txn, 1));
            il.signal("deleted again");
        });
        il.thread("middle snapshot", () -> {
            il.await("inserted again");
            stm.readOnly(txn -> {
                attempts.incrementAndGet();
                map.get(txn, 2);
                il.signal("middle open");
                il.await("oldest done");
                found.set(map.get(txn, 1));
                return null;
            });
        });
        il.thread("watcher", () -> {
            il.await("deleted again");
            // The oldest snapshot ends (its finish collects) before the middle one reads key 1.
            for (Thread t : il.threads()) {
                if (t.getName().equals("oldest snapshot")) {
                    try {
                        t.join(5_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
            il.signal("oldest done");
        });
        il.run();
        assertTrue(il.followedSchedule());
        assertEquals(1, attempts.get());
        assertEquals("v2", found.get(), "the snapshot between the insert and the second delete lost the key");
        assertNull(map.single().get(1));
    }
}
