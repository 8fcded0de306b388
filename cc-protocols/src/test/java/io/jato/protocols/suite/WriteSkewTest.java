package io.jato.protocols.suite;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Write skew: two transactions read x and y, check the constraint x + y >= 0, and each writes a
 * different item; each write alone keeps the constraint, both together break it. Scheduled: T1
 * reads x and y, T2 reads x and y, then both write and commit. With x = y = 50 and withdrawals of
 * 100 allowed only when x + y >= 100, every serial order makes exactly one withdrawal.
 */
@Timeout(120)
class WriteSkewTest {
    private static final String SOURCE = "io.jato.protocols.suite.Cells#protocolsAndKinds";

    /** The scheduled scenario on fresh cells of {@code kind} in {@code stm}. */
    static Outcome scenario(Stm stm, String kind) {
        Cells[] c = Cells.create(kind, stm, 50, 50);
        Interleaving il = new Interleaving();
        il.thread("T1", () -> stm.run(txn -> {
            long x = c[0].get(txn);
            long y = c[1].get(txn);
            if (txn.attempt() == 0) {
                il.signal("T1 read");
                il.await("T2 read");
            }
            if (x + y >= 100) {
                c[0].set(txn, x - 100);
            }
        }));
        il.thread("T2", () -> stm.run(txn -> {
            if (txn.attempt() == 0) {
                il.await("T1 read");
            }
            long x = c[0].get(txn);
            long y = c[1].get(txn);
            if (txn.attempt() == 0) {
                il.signal("T2 read");
            }
            if (x + y >= 100) {
                c[1].set(txn, y - 100);
            }
        }));
        il.run();
        long x = c[0].committed();
        long y = c[1].committed();
        String anomaly = null;
        if (x + y < 0) {
            anomaly = "write skew: both withdrew, x = " + x + ", y = " + y + ", x + y = " + (x + y) + " < 0";
        } else if (!(x == -50 && y == 50 || x == 50 && y == -50)) {
            anomaly = "exactly one withdrawal expected, got x = " + x + ", y = " + y;
        }
        return new Outcome("write skew on " + kind + " under " + stm.protocol(), anomaly, il.followedSchedule(),
                Quiescence.problems((Object[]) c));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void twoTransactionsCannotBothActOnTheSameSnapshot(String protocol, String kind) {
        scenario(Protocols.store(protocol), kind).assertCorrect();
    }

    /**
     * Unscheduled: writers withdraw from either item of a pair when the pair's sum allows it and
     * deposit back to keep going; read-only transactions check that every snapshot they commit
     * keeps x + y >= 0 for every pair.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void theConstraintHoldsInEverySnapshotUnderContention(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        int pairs = 3;
        long[] initial = new long[2 * pairs];
        Arrays.fill(initial, 5);
        Cells[] c = Cells.create(kind, stm, initial);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(150L * Protocols.scale());
        AtomicReference<String> violation = new AtomicReference<>();
        AtomicLong withdrawals = new AtomicLong();
        AtomicLong snapshots = new AtomicLong();
        AtomicInteger writersLeft = new AtomicInteger(3);
        Interleaving il = new Interleaving();
        for (int t = 0; t < 3; t++) {
            SplittableRandom rnd = new SplittableRandom(t);
            il.thread("writer-" + t, () -> {
                // Until the deadline, and at least a minimum (a loaded machine may start threads late).
                for (int n = 0; n < 300 || System.nanoTime() - deadline < 0; n++) {
                    int p = rnd.nextInt(pairs);
                    int side = rnd.nextInt(2);
                    long amount = 1 + rnd.nextInt(10);
                    boolean deposit = rnd.nextInt(3) == 0;
                    boolean yield = rnd.nextInt(4) == 0;
                    boolean withdrew = stm.atomic(txn -> {
                        long x = c[2 * p].get(txn);
                        long y = c[2 * p + 1].get(txn);
                        if (yield) {
                            Thread.yield();
                        }
                        Cells target = c[2 * p + side];
                        long mine = side == 0 ? x : y;
                        if (deposit) {
                            target.set(txn, mine + amount);
                            return false;
                        }
                        if (x + y - amount >= 0) {
                            target.set(txn, mine - amount);
                            return true;
                        }
                        return false;
                    });
                    if (withdrew) {
                        withdrawals.incrementAndGet();
                    }
                }
                writersLeft.decrementAndGet();
            });
        }
        il.thread("auditor", () -> {
            for (int n = 0; n < 50 || writersLeft.get() > 0; n++) {
                String bad = stm.readOnly(txn -> {
                    for (int p = 0; p < pairs; p++) {
                        long x = c[2 * p].get(txn);
                        long y = c[2 * p + 1].get(txn);
                        if (x + y < 0) {
                            return "pair " + p + ": x = " + x + ", y = " + y;
                        }
                    }
                    return null;
                });
                snapshots.incrementAndGet();
                if (bad != null) {
                    violation.compareAndSet(null, "a committed read-only snapshot broke x + y >= 0: " + bad);
                }
            }
        });
        il.run();
        assertNull(violation.get());
        for (int p = 0; p < pairs; p++) {
            long x = c[2 * p].committed();
            long y = c[2 * p + 1].committed();
            assertTrue(x + y >= 0, "write skew on pair " + p + ": x = " + x + ", y = " + y);
        }
        assertTrue(withdrawals.get() > 0 && snapshots.get() > 0, "the test did nothing");
        Quiescence.assertQuiescent((Object[]) c);
    }
}
