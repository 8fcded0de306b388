package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.collections.TxRef;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.TxnAbortedException;
import io.jato.stm.TxnLocal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Before-commit, after-commit and after-rollback hooks and transaction-local values, under every
 * protocol: order, what each hook sees, what an exception from one does, and (concurrently) that a
 * rolled-back attempt's registrations never run on commit.
 */
class TxnHooksContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void hooksRunOnceInRegistrationOrderAroundTheCommit(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        TxRef<String> audit = new TxRef<>(stm, "");
        List<String> log = new ArrayList<>();
        stm.run(txn -> {
            x.set(txn, 1);
            txn.afterCommit(() -> log.add("after1 sees " + x.single().get() + audit.single().get()));
            txn.beforeCommit(t -> {
                log.add("before1 sees " + x.get(t));
                audit.set(t, "+audited");                      // writes in the same transaction
                t.beforeCommit(t2 -> log.add("before3"));      // registered while hooks run: runs last
            });
            txn.beforeCommit(t -> log.add("before2"));
            txn.afterCommit(() -> log.add("after2"));
            txn.afterRollback(cause -> log.add("rollback"));
            log.add("body");
        });
        assertEquals(List.of("body", "before1 sees 1", "before2", "before3", "after1 sees 1+audited", "after2"), log);
        assertEquals("+audited", audit.single().get());
        Quiescence.assertQuiescent(x);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void anAfterCommitExceptionNeverUndoesTheCommitAndTheOtherHooksStillRun(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        RuntimeException first = new IllegalStateException("first");
        RuntimeException second = new IllegalArgumentException("second");
        List<String> log = new ArrayList<>();
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> stm.run(txn -> {
            x.set(txn, 5);
            txn.afterCommit(() -> {
                throw first;
            });
            txn.afterCommit(() -> log.add("ran"));
            txn.afterCommit(() -> {
                throw second;
            });
        }));
        assertSame(first, thrown);
        assertEquals(List.of(second), List.of(thrown.getSuppressed()));
        assertEquals(List.of("ran"), log);
        assertEquals(5L, x.single().get(), "committed");
        assertEquals(1, stm.statistics().commits());
        stm.run(txn -> x.set(txn, 6));               // the thread is usable
        assertEquals(6L, x.single().get());
        Quiescence.assertQuiescent(x);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void rollbackHooksReceiveTheCauseAndTheOtherRegistrationsAreDiscarded(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        List<Object> log = new ArrayList<>();
        assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            x.set(txn, 1);
            txn.afterRollback(log::add);
            txn.afterCommit(() -> log.add("commit"));
            throw txn.abort();
        }));
        IllegalStateException userFailure = new IllegalStateException("user");
        IllegalArgumentException hookFailure = new IllegalArgumentException("hook");
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> stm.run(txn -> {
            x.set(txn, 2);
            txn.afterRollback(log::add);
            txn.afterRollback(cause -> {
                throw hookFailure;
            });
            txn.beforeCommit(t -> {
                throw userFailure;                       // a before-commit hook fails like the body
            });
        }));
        assertSame(userFailure, thrown);
        assertEquals(List.of(hookFailure), List.of(thrown.getSuppressed()));
        assertEquals(List.of(AbortCause.USER_ABORT, AbortCause.USER_EXCEPTION), log);
        assertEquals(0L, x.single().get(), "nothing committed");
        stm.run(txn -> txn.afterCommit(() -> log.add("clean")));
        assertEquals("clean", log.get(log.size() - 1), "earlier registrations do not linger");
        assertEquals(3, log.size());
        Quiescence.assertQuiescent(x);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aTransactionLocalIsPrivateToItsTransactionAndResetAfterIt(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        TxnLocal<Integer> writes = TxnLocal.withInitial(() -> 0);
        int first = stm.atomic(txn -> {
            for (int i = 0; i < 3; i++) {
                x.set(txn, x.get(txn) + 1);
                writes.set(txn, writes.get(txn) + 1);
            }
            stm.run(nested -> writes.set(nested, writes.get(nested) + 1));   // nested: same transaction
            txn.beforeCommit(t -> x.set(t, x.get(t) * 100 + writes.get(t)));
            return writes.get(txn);
        });
        assertEquals(4, first);
        assertEquals(304L, x.single().get());
        assertEquals(0, stm.atomic(writes::get), "a new transaction starts from the initial value");
    }

    /**
     * Many threads increment one cell, each attempt registering hooks that record its attempt
     * number before it touches anything. Whatever the protocol retries: every transaction commits once, its after-commit hook
     * comes from its last attempt only, and every earlier attempt ran its rollback hook once.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void underContentionOnlyTheCommittedAttemptsHooksRunOnCommit(String protocol) throws Exception {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        TxnLocal<int[]> touched = TxnLocal.withInitial(() -> new int[1]);
        int threads = 4;
        int perThread = Protocols.scaled(300);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicLong commits = new AtomicLong();
        AtomicLong rollbacks = new AtomicLong();
        AtomicLong expectedRollbacks = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            workers.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    int[] lastAttempt = {-1};
                    stm.run(txn -> {
                        int a = txn.attempt();
                        lastAttempt[0] = a;
                        txn.afterCommit(() -> {
                            commits.incrementAndGet();
                            if (a != lastAttempt[0]) {
                                problems.add("after-commit hook of attempt " + a + " ran, committed " + lastAttempt[0]);
                            }
                        });
                        txn.afterRollback(cause -> {
                            rollbacks.incrementAndGet();
                            if (!cause.isRetried()) {
                                problems.add("rolled back with " + cause);
                            }
                        });
                        // Registered first: an attempt that reads may be rolled back at the read.
                        if (touched.get(txn)[0]++ != 0) {
                            problems.add("a local kept its value across attempts");
                        }
                        x.set(txn, x.get(txn) + 1);
                    });
                    expectedRollbacks.addAndGet(lastAttempt[0]);
                }
            }));
        }
        workers.forEach(Thread::start);
        for (Thread t : workers) {
            t.join();
        }
        assertEquals(List.of(), Collections.unmodifiableList(new ArrayList<>(problems)));
        assertEquals((long) threads * perThread, x.single().get());
        assertEquals((long) threads * perThread, commits.get());
        assertEquals(expectedRollbacks.get(), rollbacks.get());
        assertTrue(rollbacks.get() >= 0);
        Quiescence.assertQuiescent(x);
    }
}
