package io.jato.protocols.tictoc;

import io.jato.collections.TxLong;
import io.jato.protocols.suite.Interleaving;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TicToc's switches (per-store builder options): the defaults, how a bad name or value fails, the
 * timestamp history on the schedule of seed 001 Figure 3, and a bank run with every switch flipped.
 */
@Timeout(120)
class TicTocOptionsTest {

    /** Builds a TicToc store with the given options. */
    private static Stm store(String... namesAndValues) {
        Stm.Builder b = Stm.builder().protocol(TicTocProtocol.NAME);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            b.option(namesAndValues[i], namesAndValues[i + 1]);
        }
        return b.build();
    }

    @Test
    void defaultsFollowThePaper() {
        Map<String, String> declared = Stm.protocolOptions(TicTocProtocol.NAME);
        assertEquals(List.of(TicTocOptions.NO_WAIT, TicTocOptions.PREEMPTIVE_ABORT, TicTocOptions.HISTORY),
                new ArrayList<>(declared.keySet()));
        assertTrue(declared.get(TicTocOptions.NO_WAIT).startsWith("true:"), declared.toString());
        assertTrue(declared.get(TicTocOptions.PREEMPTIVE_ABORT).startsWith("true:"), declared.toString());
        assertTrue(declared.get(TicTocOptions.HISTORY).startsWith("0:"), declared.toString());
        TicTocControl cc = (TicTocControl) store().concurrencyControl();
        assertEquals(new TicTocOptions(true, true, 0), cc.options());
        cc = (TicTocControl) store(TicTocOptions.HISTORY, "4", TicTocOptions.NO_WAIT, "false").concurrencyControl();
        assertEquals(new TicTocOptions(false, true, 4), cc.options());
    }

    @Test
    void invalidOptionsFailTheStoreNamingTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> store(TicTocOptions.NO_WAIT, "yes"));
        assertTrue(e.getMessage().contains("'" + TicTocOptions.NO_WAIT + "'") && e.getMessage().contains("yes"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> store(TicTocOptions.HISTORY, "-1"));
        assertTrue(e.getMessage().contains("'" + TicTocOptions.HISTORY + "'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> store(TicTocOptions.HISTORY, "65"));
        assertTrue(e.getMessage().contains("[0, 64]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> store("histroy", "4"));
        assertTrue(e.getMessage().contains("'histroy'") && e.getMessage().contains(TicTocOptions.HISTORY),
                "names the unknown option and lists the real ones: " + e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Stm.builder().option(TicTocOptions.HISTORY, 4).build());
        assertTrue(e.getMessage().contains("'occ'") && e.getMessage().contains("heldLockSpins"),
                "an option of another protocol is refused: " + e.getMessage());
    }

    /**
     * Seed 001 Figure 3: A reads x (wts 0) and z (wts 3); a reader extends x's rts to 3; C
     * overwrites x at 4; A writes y and commits at 3. x's version read by A was replaced only at 4,
     * so it was valid at 3: with history A commits, without it A must abort (x changed and its
     * observed rts is below 3).
     *
     * @return aborts of A's transaction
     */
    private static long figure3(Stm stm) {
        TxLong x = new TxLong(stm, 0);
        TxLong y = new TxLong(stm, 0);
        TxLong z = new TxLong(stm, 0);
        for (int i = 1; i <= 3; i++) {
            long v = i;
            stm.run(txn -> z.set(txn, v));
        }
        StmStatistics before = stm.statistics();
        Interleaving il = new Interleaving();
        il.thread("A", () -> stm.run(txn -> {
            long seen = x.get(txn) + z.get(txn);
            if (txn.attempt() == 0) {
                il.signal("A read");
                il.await("C committed");
            }
            y.set(txn, seen);
        }));
        il.thread("B and C", () -> {
            il.await("A read");
            stm.readOnly(txn -> x.get(txn) + z.get(txn));
            stm.run(txn -> x.set(txn, 100));
            il.signal("C committed");
        });
        il.run();
        assertTrue(il.followedSchedule());
        StmStatistics d = stm.statistics().minus(before);
        return d.aborts();
    }

    @Test
    void timestampHistoryValidatesAReadOfAVersionReplacedAfterTheCommitTimestamp() {
        assertEquals(0, figure3(store(TicTocOptions.HISTORY, "4")), "with history, A commits at 3");
    }

    /**
     * The history ring is allocated when the item is locked, while the commit can still abort, not
     * in publish, which also serves the failure path (unlockChanged) and must not allocate. A
     * participant's check runs between the two: it must find the ring there on the item's first
     * commit (before the fix the ring appeared only in publish).
     */
    @Test
    void theHistoryRingIsAllocatedBeforeTheInstallPhase() {
        Stm stm = store(TicTocOptions.HISTORY, "4");
        TxItem item = new TxItem();
        Object[] seenAtCheck = {"check not run"};
        TxParticipant p = new TxParticipant() {
            @Override
            public boolean check(TxnContext txn, Entry e) {
                seenAtCheck[0] = Items.extAcquire(e.item());
                return true;
            }

            @Override
            public void install(TxnContext txn, Entry e, long commitTimestamp) {
            }
        };
        for (int round = 0; round < 2; round++) {
            stm.run(t -> {
                TxnContext ctx = TxnContext.of(t, stm);
                Entry e = ctx.entry(item);
                ctx.writeCustom(e, p, null, "x");
                ctx.requestCheck(e, p);
            });
            assertTrue(seenAtCheck[0] instanceof long[], "round " + round + ": ring at check: " + seenAtCheck[0]);
            assertEquals(1 + 2 * 4, ((long[]) seenAtCheck[0]).length);
        }
    }

    @Test
    void withoutHistoryTheSameScheduleAborts() {
        assertEquals(1, figure3(store()), "without history, A cannot tell its version was valid at 3");
    }

    @Test
    void preemptiveAbortCountsAsAReadFailureBeforeAnyLock() {
        Stm stm = store(TicTocOptions.HISTORY, "0");
        StmStatistics before = stm.statistics();
        figure3(stm);
        StmStatistics d = stm.statistics().minus(before);
        assertEquals(1, d.aborts(AbortCause.READ_VALIDATION), d::toString);
    }

    /** Concurrent transfers with every switch flipped from its default: money is conserved. */
    @Test
    void bankWithEverySwitchFlipped() throws InterruptedException {
        Stm stm = store(TicTocOptions.NO_WAIT, "false", TicTocOptions.PREEMPTIVE_ABORT, "false",
                TicTocOptions.HISTORY, "2");
        int n = 8;
        TxLong[] accounts = new TxLong[n];
        for (int i = 0; i < n; i++) {
            accounts[i] = new TxLong(stm, 100);
        }
        List<Thread> threads = new ArrayList<>();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 3; t++) {
            Thread th = new Thread(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                for (int i = 0; i < 5_000; i++) {
                    int a = rnd.nextInt(n);
                    int b = (a + 1 + rnd.nextInt(n - 1)) % n;
                    if (i % 5 == 0) {
                        long sum = stm.readOnly(txn -> {
                            long s = 0;
                            for (TxLong acc : accounts) {
                                s += acc.get(txn);
                            }
                            return s;
                        });
                        if (sum != 100L * n) {
                            failures.add("a read-only snapshot summed to " + sum);
                        }
                    } else {
                        stm.run(txn -> {
                            accounts[a].set(txn, accounts[a].get(txn) - 1);
                            accounts[b].set(txn, accounts[b].get(txn) + 1);
                        });
                    }
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(List.of(), failures);
        long total = 0;
        for (TxLong acc : accounts) {
            total += acc.single().get();
            assertNull(acc.checkQuiescent());
        }
        assertEquals(100L * n, total);
    }
}
