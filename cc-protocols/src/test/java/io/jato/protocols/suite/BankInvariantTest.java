package io.jato.protocols.suite;

import io.jato.collections.TxCounter;
import io.jato.collections.TxHashMap;
import io.jato.collections.TxLong;
import io.jato.protocols.suite.Failures.Boom;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.Txn;
import io.jato.stm.TxnAbortedException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bank-sum invariant under concurrency, with injected user exceptions, user aborts and
 * interrupts. Money lives in the accounts of a {@link TxHashMap}, a vault ({@link TxLong}) and a
 * fee pot ({@link TxCounter}, credited by commit-time adds); transfers move it around, so the total
 * never changes. Four writers run random transfers; about 5% of them throw after writing and 1%
 * call {@code txn.abort()}; an interrupter thread interrupts the writers and the auditor at random;
 * the auditor sums everything in read-only (and ordinary) transactions, which must always see the
 * invariant total. Afterwards: the total is unchanged, the committed transfers equal both the
 * transfer counter and the store's statistics, every abort cause is accounted for, and nothing is
 * locked.
 */
@Timeout(180)
class BankInvariantTest {
    private static final int ACCOUNTS = 16;
    private static final long OPENING_BALANCE = 1_000;
    private static final long VAULT = 10_000;
    private static final long TOTAL = ACCOUNTS * OPENING_BALANCE + VAULT;
    private static final int WRITERS = 4;
    /** Each writer runs at least this many transfers, and the auditor this many audits. */
    private static final int MINIMUM_TRANSFERS = 400;
    private static final int MINIMUM_AUDITS = 20;
    private static final int MINIMUM_INTERRUPTS = 20;

    private Stm stm;
    private TxHashMap<Integer, Long> accounts;
    private TxLong vault;
    private TxCounter fees;
    private TxCounter transfers;
    private long deadline;

    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong userFailures = new AtomicLong();
    private final AtomicLong userAborts = new AtomicLong();
    private final AtomicLong audits = new AtomicLong();
    private final AtomicLong interruptsSent = new AtomicLong();
    private final AtomicLong interruptsSeen = new AtomicLong();
    private final AtomicInteger writersRunning = new AtomicInteger(WRITERS);
    private final AtomicInteger victimsRunning = new AtomicInteger(WRITERS + 1);
    private final AtomicReference<String> badAudit = new AtomicReference<>();

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jato.protocols.suite.Protocols#all")
    void transfersPreserveTheTotalDespiteFailuresAndInterrupts(String protocol) {
        stm = Protocols.store(protocol);
        accounts = new TxHashMap<>(stm, ACCOUNTS);
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts.single().put(i, OPENING_BALANCE);
        }
        vault = new TxLong(stm, VAULT);
        fees = new TxCounter(stm);
        transfers = new TxCounter(stm);
        deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_000L * Protocols.scale());

        Interleaving il = new Interleaving();
        for (int w = 0; w < WRITERS; w++) {
            SplittableRandom rnd = new SplittableRandom(42 + w);
            il.thread("writer-" + w, () -> {
                try {
                    transferUntilDone(rnd);
                } finally {
                    writersRunning.decrementAndGet();
                    victimsRunning.decrementAndGet();
                }
            });
        }
        il.thread("auditor", () -> {
            try {
                auditUntilDone();
            } finally {
                victimsRunning.decrementAndGet();
            }
        });
        List<Thread> victims = new ArrayList<>(il.threads());
        il.thread("interrupter", () -> {
            SplittableRandom rnd = new SplittableRandom(7);
            while (victimsRunning.get() > 0) {
                victims.get(rnd.nextInt(victims.size())).interrupt();
                interruptsSent.incrementAndGet();
                try {
                    Thread.sleep(1 + rnd.nextInt(3));
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        il.run();

        assertNull(badAudit.get());
        assertEquals(TOTAL, committedTotal(), "money was created or destroyed");
        assertEquals(TOTAL, (long) stm.readOnly(this::total));
        assertEquals(committed.get(), transfers.single().get(), "committed transfers vs the transfer counter");

        StmStatistics st = stm.statistics();
        long auditsAndFinal = audits.get() + 1;
        assertEquals(committed.get() + auditsAndFinal, st.commits(), () -> "commits vs " + st);
        assertEquals(userFailures.get(), st.aborts(AbortCause.USER_EXCEPTION), st::toString);
        assertEquals(userAborts.get(), st.aborts(AbortCause.USER_ABORT), st::toString);
        assertEquals(st.starts(), st.commits() + st.aborts(), st::toString);
        assertTrue(committed.get() > 0 && userFailures.get() > 0 && audits.get() >= MINIMUM_AUDITS
                        && interruptsSeen.get() > 0,
                () -> "the test did too little: " + committed + " transfers, " + userFailures + " failures, "
                        + audits + " audits, " + interruptsSeen + " interrupts seen");
        assertEquals(ACCOUNTS, accounts.single().size());
        Quiescence.assertQuiescent(accounts, vault, fees, transfers);
    }

    /** Runs transfers until the deadline, and at least a minimum (a loaded machine may start threads late). */
    private void transferUntilDone(SplittableRandom rnd) {
        for (int n = 0; n < MINIMUM_TRANSFERS || interruptsSent.get() < MINIMUM_INTERRUPTS
                || System.nanoTime() - deadline < 0; n++) {
            int kind = rnd.nextInt(100);
            int from = rnd.nextInt(ACCOUNTS);
            int to = (from + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            long amount = 1 + rnd.nextInt(50);
            boolean fail = rnd.nextInt(100) < 5;
            boolean abort = !fail && rnd.nextInt(100) == 0;
            boolean yield = rnd.nextInt(8) == 0;
            try {
                stm.run(txn -> {
                    if (kind < 70) {
                        move(txn, from, -amount);
                        if (yield) {
                            Thread.yield();
                        }
                        move(txn, to, amount);
                    } else if (kind < 80) {
                        move(txn, from, -amount);
                        vault.addAndGet(txn, amount);
                    } else if (kind < 90) {
                        vault.set(txn, vault.get(txn) - amount);
                        move(txn, to, amount);
                    } else {
                        move(txn, from, -1);
                        fees.add(txn, 1);
                    }
                    transfers.add(txn, 1);
                    if (fail) {
                        throw new Boom("injected after writing");
                    }
                    if (abort) {
                        throw txn.abort();
                    }
                });
                committed.incrementAndGet();
            } catch (Boom e) {
                userFailures.incrementAndGet();
            } catch (TxnAbortedException e) {
                assertEquals(AbortCause.USER_ABORT, e.abortCause());
                userAborts.incrementAndGet();
            }
            if (Thread.interrupted()) {
                interruptsSeen.incrementAndGet();
            }
        }
    }

    /** Audits the total, in read-only and ordinary transactions, while any writer runs. */
    private void auditUntilDone() {
        for (long n = 0; n < MINIMUM_AUDITS || writersRunning.get() > 0; n++) {
            long s = n % 4 == 3 ? stm.atomic(this::total) : stm.readOnly(this::total);
            audits.incrementAndGet();
            if (s != TOTAL) {
                badAudit.compareAndSet(null, "an audit committed with total " + s + " instead of " + TOTAL);
            }
            if (Thread.interrupted()) {
                interruptsSeen.incrementAndGet();
            }
        }
    }

    private void move(Txn txn, int account, long delta) {
        Long balance = accounts.get(txn, account);
        if (balance == null) {
            throw new IllegalStateException("account " + account + " vanished");
        }
        accounts.put(txn, account, balance + delta);
    }

    private long total(Txn txn) {
        long s = vault.get(txn) + fees.get(txn);
        for (int i = 0; i < ACCOUNTS; i++) {
            s += accounts.get(txn, i);
        }
        return s;
    }

    private long committedTotal() {
        long[] s = {vault.single().get() + fees.single().get()};
        accounts.single().forEach((k, v) -> s[0] += v);
        return s[0];
    }
}
