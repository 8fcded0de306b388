package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every protocol and pairing on virtual threads, which borrow pooled transaction contexts: one
 * context serves many threads in turn and one thread's transactions run in several contexts, so a
 * protocol's per-context state must neither leak between threads nor hold others back while idle
 * (MVCC's horizon and clocks, SwissTM's contention manager and remote aborts, 2PL's locks). Many
 * short virtual threads transfer between accounts while every tenth also audits the total in a
 * declared read-only transaction; afterwards the total holds, every transfer committed once and
 * nothing is locked. JDK 21+ (virtual threads by reflection); scaled by {@code jato.stress.scale}.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@Timeout(120)
class VirtualThreadContractTest {
    private static final int ACCOUNTS = 16;
    private static final long OPENING = 1_000;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jato.protocols.suite.Protocols#all")
    void virtualThreadsKeepTheTotal(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxLong[] accounts = new TxLong[ACCOUNTS];
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts[i] = new TxLong(stm, OPENING);
        }
        int threads = Protocols.scaled(1_000);
        int transfers = 5;
        AtomicReference<String> badAudit = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ExecutorService vt = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                .invoke(null);
        for (int t = 0; t < threads; t++) {
            boolean auditor = t % 10 == 0;
            vt.execute(() -> {
                try {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    for (int k = 0; k < transfers; k++) {
                        int from = r.nextInt(ACCOUNTS);
                        int to = (from + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                        stm.run(txn -> {
                            accounts[from].set(txn, accounts[from].get(txn) - 1);
                            accounts[to].set(txn, accounts[to].get(txn) + 1);
                        });
                    }
                    if (auditor) {
                        long sum = stm.readOnlyLong(txn -> {
                            long s = 0;
                            for (TxLong a : accounts) {
                                s += a.get(txn);
                            }
                            return s;
                        });
                        if (sum != ACCOUNTS * OPENING) {
                            badAudit.compareAndSet(null, "an audit saw " + sum);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
        }
        vt.shutdown();
        assertTrue(vt.awaitTermination(100, TimeUnit.SECONDS), "virtual threads did not finish");
        assertNull(failure.get());
        assertNull(badAudit.get());
        long total = 0;
        for (TxLong a : accounts) {
            total += a.single().get();
        }
        assertEquals(ACCOUNTS * OPENING, total);
        assertEquals((long) threads * transfers + threads / 10, stm.statistics().commits());
        assertEquals(List.of(), Quiescence.problems((Object[]) accounts));
    }
}
