package io.jato.records;

import io.jato.collections.LongUpdater;
import io.jato.collections.TxCounter;
import io.jato.collections.TxHashMap;
import io.jato.collections.ValueUpdater;
import io.jato.records.fixtures.Account;
import io.jato.records.fixtures.AppendDigitOf;
import io.jato.records.fixtures.Deposit;
import io.jato.records.fixtures.DepositBy;
import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Record getters, setters and commit-time updaters (and the counter and map updaters) allocate
 * nothing in steady state: images and update lists come from the thread's pools. Measured with
 * HotSpot's per-thread allocation counter, as in the collections' allocation test.
 */
class RecordAllocationTest {
    private static final int ROUNDS = 20_000;

    private final Stm stm = Stm.create();
    private final Account[] accounts = new Account[8];
    private final TxCounter counter = new TxCounter(stm);
    private final TxHashMap<Integer, Integer> map = new TxHashMap<>(stm);
    private final Integer key = 1;
    private final Deposit deposit = new Deposit(1);
    private final LongUpdater doubleIt = v -> v * 2 + 1;
    private final ValueUpdater<Integer> same = v -> v;
    private int next;

    private final TxnFunction<Object> read = t -> {
        long s = 0;
        for (Account a : accounts) {
            s += a.balance(t) + a.ops(t) + a.flags(t) + a.owner(t).length();
        }
        return s == 42 ? accounts : null;
    };

    private final TxnRunnable write = t -> {
        Account a = accounts[next & 7];
        Account b = accounts[(next + 3) & 7];
        a.setBalance(t, a.balance(t) + 1);
        a.setOps(t, next);
        b.update(t, deposit);
        b.update(t, deposit);
        b.update(t, DepositBy.INSTANCE, next);
        a.update(t, AppendDigitOf.INSTANCE, next & 7);
        if ((next & 1) == 0) {
            b.balance(t); // materializes the pending updaters
        }
        counter.update(t, doubleIt);
        counter.add(t, 1);
        map.update(t, key, same);
    };

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private long bytesPerTransaction(Runnable tx) {
        for (int i = 0; i < ROUNDS; i++) {
            next++;
            tx.run();
        }
        long before = allocatedBytes();
        for (int i = 0; i < ROUNDS; i++) {
            next++;
            tx.run();
        }
        return (allocatedBytes() - before) / ROUNDS;
    }

    @Test
    void recordAccessAndUpdatersAllocateNothingInSteadyState() {
        for (int i = 0; i < accounts.length; i++) {
            accounts[i] = Account.create(stm, i % 2 == 0 ? RecordLayout.SPLIT : RecordLayout.COARSE,
                    new Account.Image().setOwner("o" + i));
        }
        map.single().put(key, 7);
        long readOnly = bytesPerTransaction(() -> stm.readOnly(read));
        long writes = bytesPerTransaction(() -> stm.run(write));
        assertEquals(0, readOnly, "bytes per read-only transaction reading 4 columns of 8 records");
        assertEquals(0, writes, "bytes per transaction with setters, updaters and materialization");
        assertTrue(stm.statistics().commits() >= 4L * ROUNDS);
    }
}
