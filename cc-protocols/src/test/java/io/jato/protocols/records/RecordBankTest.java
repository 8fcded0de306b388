package io.jato.protocols.records;

import io.jato.collections.TxHashMap;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.protocols.suite.Quiescence;
import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bank invariant over records held in a {@link TxHashMap}, mixing every way of writing a
 * record: a transfer withdraws with a read-modify-write of the hot group (it must not overdraw)
 * and deposits with a blind commit-time updater; a clerk renames owners (default group) and checks
 * presence of keys; auditors sum all balances. Half the accounts are coarse. The total never
 * changes, every audit sees it, and the number of operations recorded in the accounts equals the
 * committed deposits.
 */
@Timeout(180)
class RecordBankTest {
    private static final int ACCOUNTS = 12;
    private static final long OPENING = 1_000;
    private static final long TOTAL = ACCOUNTS * OPENING;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jato.protocols.suite.Protocols#all")
    void transfersWithBlindDepositsPreserveTheTotal(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<Integer, Account> bank = new TxHashMap<>(stm, ACCOUNTS);
        List<Account> all = new ArrayList<>();
        for (int i = 0; i < ACCOUNTS; i++) {
            Account a = Account.create(stm, (i & 1) == 0 ? RecordLayout.SPLIT : RecordLayout.COARSE,
                    new Account.Image().setOwner("owner" + i).setBalance(OPENING));
            all.add(a);
            bank.single().put(i, a);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(800L * Protocols.scale());
        AtomicLong deposits = new AtomicLong();
        AtomicLong audits = new AtomicLong();
        AtomicReference<String> bad = new AtomicReference<>();
        Interleaving il = new Interleaving();
        for (int w = 0; w < 3; w++) {
            int seed = w;
            il.thread("transfers-" + w, () -> {
                SplittableRandom rnd = new SplittableRandom(seed);
                for (int n = 0; n < 200 || System.nanoTime() < deadline; n++) {
                    int from = rnd.nextInt(ACCOUNTS);
                    int to = (from + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                    long amount = 1 + rnd.nextInt(50);
                    boolean moved = stm.atomic(t -> {
                        Account src = bank.get(t, from);
                        long b = src.balance(t);
                        if (b < amount) {
                            return false;
                        }
                        src.setBalance(t, b - amount);
                        bank.get(t, to).update(t, new Deposit(amount));
                        return true;
                    });
                    if (moved) {
                        deposits.incrementAndGet();
                    }
                }
            });
        }
        il.thread("clerk", () -> {
            SplittableRandom rnd = new SplittableRandom(99);
            for (int n = 0; n < 200 || System.nanoTime() < deadline; n++) {
                int k = rnd.nextInt(ACCOUNTS);
                stm.run(t -> {
                    if (!bank.containsKey(t, k)) {
                        throw new AssertionError("account " + k + " vanished");
                    }
                    Account a = bank.get(t, k);
                    a.setOwner(t, a.owner(t).substring(0, Math.min(9, a.owner(t).length())) + "'");
                });
            }
        });
        il.thread("auditor", () -> {
            for (int n = 0; n < 50 || System.nanoTime() < deadline; n++) {
                long sum = stm.readOnly(t -> {
                    long s = 0;
                    for (int i = 0; i < ACCOUNTS; i++) {
                        s += bank.get(t, i).balance(t);
                    }
                    return s;
                });
                audits.incrementAndGet();
                if (sum != TOTAL) {
                    bad.compareAndSet(null, "audit saw " + sum + ", expected " + TOTAL);
                }
            }
        });
        il.run(120_000);
        assertNull(bad.get());
        assertTrue(audits.get() >= 50);
        long sum = 0;
        long ops = 0;
        for (Account a : all) {
            Account.Image im = a.single().get();
            assertTrue(im.balance() >= 0, "overdrawn: " + im);
            sum += im.balance();
            ops += im.ops();
        }
        assertEquals(TOTAL, sum);
        assertEquals(deposits.get(), ops, "each committed transfer applied its deposit exactly once");
        List<Object> objects = new ArrayList<>(all);
        objects.add(bank);
        Quiescence.assertQuiescent(objects.toArray());
    }
}
