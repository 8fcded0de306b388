package io.jato.protocols.maat;

import io.jato.collections.TxLong;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Contexts without a soft-lock slot (option {@value MaatProtocol#SOFT_LOCK_SLOTS}: more threads
 * than slots) read without soft locks and validate as TicToc does; the proof suites run with every
 * context holding a slot, so this path is proved here: it must not commit the schedule that only a
 * soft lock makes safe, and slot holders and slotless contexts together must keep a bank's sum.
 */
@Timeout(60)
class MaatSlotlessTest {

    private static Stm store(int slots) {
        return Stm.builder().protocol(MaatProtocol.NAME).option(MaatProtocol.SOFT_LOCK_SLOTS, slots).build();
    }

    /** Without a slot A's read of x carries no soft lock, so B cannot order itself after A: A must abort. */
    @Test
    void withoutSlotsAnOverwrittenReaderAbortsAsInTicToc() {
        long[] r = MaatScheduleTest.readerOverwrittenBeforeItCommits(store(0), "maat without slots");
        assertEquals(1, r[0], "A's read changed and was not soft-locked: A must abort once");
        assertEquals(15, r[2], "A's retry reads B's x");
    }

    /**
     * One slot, three writers and an auditor: the first context takes the slot, the others run
     * slotless. Transfers move money between accounts; every audit and the final sum must see the
     * total.
     */
    @Test
    void slotHoldersAndSlotlessContextsKeepTheSum() {
        Stm stm = store(1);
        int accounts = 8;
        long opening = 100;
        TxLong[] cells = new TxLong[accounts];
        for (int i = 0; i < accounts; i++) {
            cells[i] = new TxLong(stm, opening);
        }
        int transfers = 2_000 * Protocols.scale();
        AtomicLong badAudits = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            long seed = w;
            threads.add(new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(seed);
                for (int i = 0; i < transfers; i++) {
                    int from = rnd.nextInt(accounts);
                    int to = rnd.nextInt(accounts);
                    long amount = rnd.nextInt(5);
                    stm.run(txn -> {
                        cells[from].set(txn, cells[from].get(txn) - amount);
                        cells[to].set(txn, cells[to].get(txn) + amount);
                    });
                }
            }, "writer-" + w));
        }
        threads.add(new Thread(() -> {
            for (int i = 0; i < transfers / 10; i++) {
                long sum = stm.readOnly(txn -> {
                    long s = 0;
                    for (TxLong c : cells) {
                        s += c.get(txn);
                    }
                    return s;
                });
                if (sum != accounts * opening) {
                    badAudits.incrementAndGet();
                }
            }
        }, "auditor"));
        threads.forEach(Thread::start);
        Interleaving.joinAll(threads, 50_000);
        assertEquals(0, badAudits.get(), "audits that saw another total");
        long sum = 0;
        for (TxLong c : cells) {
            sum += c.single().get();
            assertNull(c.checkQuiescent());
        }
        assertEquals(accounts * opening, sum);
        assertTrue(stm.statistics().commits() >= 3L * transfers);
    }
}
