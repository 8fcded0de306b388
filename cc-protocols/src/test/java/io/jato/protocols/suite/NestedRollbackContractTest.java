package io.jato.protocols.suite;

import io.jato.collections.TxCounter;
import io.jato.collections.TxDeque;
import io.jato.collections.TxHashMap;
import io.jato.collections.TxHashSet;
import io.jato.collections.TxLong;
import io.jato.collections.TxLongArray;
import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxQueue;
import io.jato.collections.TxRef;
import io.jato.collections.TxSortedMap;
import io.jato.protocols.records.Account;
import io.jato.protocols.records.Deposit;
import io.jato.records.RecordLayout;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.TxnAbortedException;
import io.jato.stm.TxnLocal;
import io.jato.stm.TxnRunnable;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Closed nesting with partial rollback under every protocol and pairing: a nested {@code atomic}
 * that throws, caught by the enclosing body, takes back exactly its own effects (writes, inserts,
 * removes, updaters and adds, hooks, transaction-local values) and leaves the outer transaction
 * running; {@code orElse} takes back the first alternative's effects before it runs the second.
 */
@Timeout(120)
class NestedRollbackContractTest {
    private static final String PROTOCOLS = "io.jato.protocols.suite.Protocols#all";

    /** Thrown by nested blocks to be rolled back. */
    private static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failure() {
            super("nested failure", null, false, false);
        }
    }

    /** Runs {@code block} nested in {@code txn}'s transaction, expecting it to throw {@link Failure}. */
    private static void failNested(Stm stm, TxnRunnable block) {
        Failure f = assertThrows(Failure.class, () -> stm.run(block));
        assertTrue(stm.inTransaction(), "the outer transaction still runs");
        assertEquals("nested failure", f.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aCaughtNestedFailureRollsBackOnlyTheNestedWrites(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxRef<String> ref = new TxRef<>(stm, "initial");
        TxLong other = new TxLong(stm, 0);
        String seen = stm.atomic(txn -> {
            ref.set(txn, "outer");
            failNested(stm, t -> {
                ref.set(t, "inner");
                other.set(t, 7);
                throw new Failure();
            });
            return ref.get(txn) + " " + other.get(txn);
        });
        assertEquals("outer 0", seen, "ScalaSTM's example: the nested write is gone, the outer one stays");
        assertEquals("outer", ref.single().get());
        assertEquals(0L, other.single().get());
        Quiescence.assertQuiescent(ref, other);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void nestedInsertsRemovesAndOverwritesInHashAndSortedMapsRollBack(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxHashMap<String, Integer> hash = new TxHashMap<>(stm);
        TxSortedMap<String, Integer> sorted = new TxSortedMap<>(stm);
        TxLongSortedMap<Integer> longs = new TxLongSortedMap<>(stm);
        hash.single().put("a", 1);
        sorted.single().put("a", 1);
        longs.single().put(1, 1);
        stm.run(txn -> {
            hash.put(txn, "b", 2);                     // outer inserts, kept
            sorted.put(txn, "b", 2);
            longs.put(txn, 2, 2);
            failNested(stm, t -> {
                hash.put(t, "c", 3);                   // nested inserts
                sorted.put(t, "c", 3);
                longs.put(t, 3, 3);
                hash.remove(t, "a");                   // nested removes of committed keys
                sorted.remove(t, "a");
                longs.remove(t, 1);
                hash.put(t, "b", 20);                  // nested overwrites of the outer's inserts
                sorted.put(t, "b", 20);
                longs.put(t, 2, 20);
                assertEquals(2, hash.size(t));
                throw new Failure();
            });
            assertNull(hash.get(txn, "c"));
            assertNull(sorted.get(txn, "c"));
            assertNull(longs.get(txn, 3));
            assertEquals(1, hash.get(txn, "a"));
            assertEquals(1, sorted.get(txn, "a"));
            assertEquals(1, longs.get(txn, 1));
            assertEquals(2, hash.get(txn, "b"));
            assertEquals(2, sorted.get(txn, "b"));
            assertEquals(2, longs.get(txn, 2));
            assertEquals(2, hash.size(txn));
            List<String> keys = new ArrayList<>();
            sorted.scan(txn, null, null, (k, v) -> keys.add(k));
            assertEquals(List.of("a", "b"), keys);
            hash.put(txn, "d", 4);                     // the outer goes on writing after the rollback
            sorted.put(txn, "d", 4);
        });
        assertEquals(1, hash.single().get("a"));
        assertEquals(2, hash.single().get("b"));
        assertNull(hash.single().get("c"));
        assertEquals(4, hash.single().get("d"));
        assertEquals(3, hash.single().size());
        assertEquals(2, sorted.single().get("b"));
        assertNull(sorted.single().get("c"));
        assertEquals(3, sorted.single().size());
        assertEquals(2, longs.single().get(2));
        assertNull(longs.single().get(3));
        assertEquals(1, longs.single().get(1));
        Quiescence.assertQuiescent(hash, sorted, longs);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void queuesDequesSetsAndArraysRollBackToTheBlocksStart(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxQueue<String> queue = new TxQueue<>(stm);
        TxDeque<String> deque = new TxDeque<>(stm);
        TxHashSet<String> set = new TxHashSet<>(stm);
        TxLongArray array = new TxLongArray(stm, 4);
        io.jato.stm.TxnFunction<String> summarize = txn -> queue.size(txn) + " " + queue.peek(txn) + " "
                + deque.size(txn) + " " + deque.peekFirst(txn) + " " + set.size(txn) + " " + set.contains(txn, "s1")
                + " " + array.get(txn, 0) + " " + array.get(txn, 3);
        String summary = stm.atomic(txn -> {
            queue.offer(txn, "q1");
            deque.offerLast(txn, "d1");
            set.add(txn, "s1");
            array.set(txn, 0, 1);
            failNested(stm, t -> {
                queue.offer(t, "q2");
                queue.poll(t);
                deque.offerFirst(t, "d0");
                deque.pollLast(t);
                set.add(t, "s2");
                set.remove(t, "s1");
                array.add(t, 0, 100);
                array.set(t, 3, 3);
                throw new Failure();
            });
            return summarize.apply(txn);
        });
        assertEquals("1 q1 1 d1 1 true 1 0", summary, "inside the transaction, after the block rolled back");
        assertEquals("1 q1 1 d1 1 true 1 0", stm.atomic(summarize), "committed");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void nestedUpdatersAndCommitTimeAddsRollBack(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxCounter counter = new TxCounter(stm);
        TxLong cell = new TxLong(stm, 100);
        TxHashMap<String, Integer> hash = new TxHashMap<>(stm);
        hash.single().put("k", 1);
        Account acct = Account.create(stm, RecordLayout.SPLIT,
                new Account.Image().setOwner("ann").setFlags(1).setBalance(10).setOps(0));
        stm.run(txn -> {
            counter.add(txn, 1);
            counter.update(txn, v -> v * 2);           // pending updaters before the block
            cell.add(txn, 5);
            hash.update(txn, "k", v -> v + 1);
            acct.update(txn, new Deposit(5));
            acct.setOwner(txn, "bob");
            failNested(stm, t -> {
                counter.add(t, 1000);
                counter.update(t, v -> v + 1_000_000);
                cell.add(t, 1000);
                hash.update(t, "k", v -> v + 1000);
                acct.update(t, new Deposit(1000));
                acct.setOwner(t, "eve");
                acct.setFlags(t, 99);
                throw new Failure();
            });
            counter.add(txn, 3);
        });
        assertEquals((0 + 1) * 2 + 3, counter.single().get());
        assertEquals(105L, cell.single().get());
        assertEquals(2, hash.single().get("k"));
        Account.Image im = acct.single().get();
        assertEquals(15, im.balance());
        assertEquals(1, im.ops());
        assertEquals("bob", im.owner());
        assertEquals(1, im.flags());
        Quiescence.assertQuiescent(counter, cell, hash);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void readsAfterAWriteInTheBlockSeeTheOuterStateOnceItRolledBack(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong a = new TxLong(stm, 1);
        TxCounter c = new TxCounter(stm, 10);
        long[] seen = new long[2];
        stm.run(txn -> {
            c.add(txn, 1);
            failNested(stm, t -> {
                a.set(t, 50);
                c.add(t, 100);
                assertEquals(50L, a.get(t));
                assertEquals(111L, c.get(t));          // materializes the adds inside the block
                throw new Failure();
            });
            seen[0] = a.get(txn);
            seen[1] = c.get(txn);
        });
        assertEquals(1L, seen[0]);
        assertEquals(11L, seen[1]);
        assertEquals(11L, c.single().get());
        Quiescence.assertQuiescent(a, c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aFailedBlockRunsItsRollbackHooksAndDropsItsOtherHooksAndLocals(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        TxnLocal<String> local = TxnLocal.withInitial(() -> "initial");
        List<String> log = new ArrayList<>();
        stm.run(txn -> {
            local.set(txn, "outer");
            txn.afterCommit(() -> log.add("outer after"));
            failNested(stm, t -> {
                local.set(t, "inner");
                t.beforeCommit(t2 -> log.add("inner before"));
                t.afterCommit(() -> log.add("inner after"));
                t.afterRollback(cause -> log.add("inner rollback " + cause));
                x.set(t, 1);
                throw new Failure();
            });
            log.add("local " + local.get(txn));
            txn.beforeCommit(t -> log.add("outer before"));
        });
        // The block's after-rollback hook ran when it rolled back; its other hooks never run.
        assertEquals(List.of("inner rollback USER_EXCEPTION", "local outer", "outer before", "outer after"), log);
        assertEquals(0L, x.single().get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void blocksNestInBlocks(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong a = new TxLong(stm, 0);
        TxLong b = new TxLong(stm, 0);
        TxLong c = new TxLong(stm, 0);
        TxnLocal<Integer> local = TxnLocal.withInitial(() -> 0);
        stm.run(txn -> {
            a.set(txn, 1);
            stm.run(mid -> {                           // completes: its effects are the outer's
                b.set(mid, 1);
                local.set(mid, 1);
                failNested(stm, inner -> {             // fails: only its own effects go
                    a.set(inner, 99);
                    b.set(inner, 99);
                    c.set(inner, 99);
                    local.set(inner, 99);
                    throw new Failure();
                });
                c.set(mid, 1);
            });
            failNested(stm, mid -> {                   // fails after an inner block completed: both go
                stm.run(inner -> {
                    a.set(inner, 50);
                    local.set(inner, 50);
                });
                b.set(mid, 50);
                throw new Failure();
            });
            assertEquals(1, local.get(txn));
        });
        assertEquals(1L, a.single().get());
        assertEquals(1L, b.single().get());
        assertEquals(1L, c.single().get());
        Quiescence.assertQuiescent(a, b, c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void orElseRollsBackTheFirstAlternativesWritesAndRunsTheSecond(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong a = new TxLong(stm, 0);
        TxLong b = new TxLong(stm, 0);
        TxHashMap<String, Integer> hash = new TxHashMap<>(stm);
        String chosen = stm.atomic(txn -> {
            a.set(txn, 1);
            return txn.orElse(t -> {
                a.set(t, 2);                           // written, then the alternative retries
                hash.put(t, "first", 1);
                throw t.retry();
            }, t -> {
                b.set(t, a.get(t));
                return "second";
            });
        });
        assertEquals("second", chosen);
        assertEquals(1L, a.single().get(), "the first alternative's write is gone");
        assertEquals(1L, b.single().get(), "the second alternative saw the outer write only");
        assertNull(hash.single().get("first"));
        Quiescence.assertQuiescent(a, b, hash);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void exceptionsKeepTheirTypeAndAbortEndsTheWholeTransaction(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong a = new TxLong(stm, 0);
        IllegalArgumentException thrown = new IllegalArgumentException("boom");
        // Uncaught by the outer body: the whole transaction rolls back, the same exception reaches the caller.
        IllegalArgumentException seen = assertThrows(IllegalArgumentException.class, () -> stm.run(txn -> {
            a.set(txn, 1);
            stm.run(t -> {
                a.set(t, 2);
                throw thrown;
            });
        }));
        assertSame(thrown, seen);
        assertEquals(0L, a.single().get());
        // abort() in a nested block aborts the whole transaction, even if the outer body catches Exception.
        TxnAbortedException aborted = assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            a.set(txn, 1);
            try {
                stm.run(Txn::abort);
            } catch (RuntimeException e) {
                a.set(txn, 3);
            }
        }));
        assertEquals(AbortCause.USER_ABORT, aborted.abortCause());
        assertEquals(0L, a.single().get());
        // A checked exception through the checked form keeps its type too.
        java.io.IOException io = new java.io.IOException("io");
        long after = stm.atomicLong(txn -> {
            a.set(txn, 4);
            try {
                stm.call(t -> {
                    a.set(t, 5);
                    throw io;
                });
            } catch (java.io.IOException e) {
                assertSame(io, e);
            }
            return a.get(txn);
        });
        assertEquals(4L, after);
        Quiescence.assertQuiescent(a);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void anEntryChangedAtEveryLevelGetsEachLevelsValueBack(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        List<Long> seen = new ArrayList<>();
        stm.run(txn -> {
            x.set(txn, 1);
            failNested(stm, mid -> {
                x.set(mid, 2);
                stm.run(inner -> x.set(inner, 3));     // merges into mid
                failNested(stm, inner -> {
                    x.add(inner, 10);
                    throw new Failure();
                });
                seen.add(x.get(mid));                  // 3: mid's own value, after the inner rollback
                stm.readOnly(ro -> {                   // a read-only block that fails
                    seen.add(x.get(ro));
                    throw new Failure();
                });
            });
            seen.add(x.get(txn));                      // 1: the outer's value
        });
        assertEquals(List.of(3L, 3L, 1L), seen);
        assertEquals(1L, x.single().get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aThrowingRollbackHookOfABlockIsSuppressedIntoItsException(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        RuntimeException hookFailure = new IllegalStateException("hook");
        IllegalArgumentException failure = new IllegalArgumentException("block");   // suppression enabled
        Throwable[] caught = new Throwable[1];
        stm.run(txn -> {
            try {
                stm.run(t -> {
                    x.set(t, 1);
                    t.afterRollback(cause -> {
                        throw hookFailure;
                    });
                    throw failure;
                });
            } catch (IllegalArgumentException f) {
                caught[0] = f;
            }
            x.set(txn, 2);
        });
        assertSame(failure, caught[0]);
        assertEquals(List.of(hookFailure), List.of(caught[0].getSuppressed()));
        assertEquals(2L, x.single().get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void anExceptionFromAFirstAlternativeRollsItBackAndSkipsTheSecond(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        boolean[] secondRan = new boolean[1];
        String r = stm.atomic(txn -> {
            x.set(txn, 1);
            try {
                txn.orElse(t -> {
                    x.set(t, 2);
                    throw new Failure();
                }, t -> {
                    secondRan[0] = true;
                    return "second";
                });
            } catch (Failure expected) {
                return "caught, x=" + x.get(txn);
            }
            return "not thrown";
        });
        assertEquals("caught, x=1", r);
        assertFalse(secondRan[0]);
        // A retry inside a nested atomic inside the first alternative skips to the second, both rolled back.
        String s = stm.atomic(txn -> txn.orElse(t -> {
            x.set(t, 5);
            return stm.atomic(in -> {
                x.set(in, 6);
                throw in.retry();
            });
        }, t -> "second x=" + x.get(t)));
        assertEquals("second x=1", s);
        assertEquals(1L, x.single().get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void aBlockThatFailsOnAStateThatNoLongerValidatesRetriesTheWholeTransaction(String protocol) {
        Stm stm = Protocols.store(protocol);
        TxLong x = new TxLong(stm, 0);
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger caught = new AtomicInteger();
        Interleaving il = new Interleaving();
        il.thread("T1", () -> stm.run(t -> {
            x.get(t);
            if (attempts.getAndIncrement() == 0) {
                il.signal("T1 read x");
                il.await("T2 committed");
            }
            try {
                stm.run(in -> {
                    throw new Failure();               // perhaps because of the stale x
                });
            } catch (Failure expected) {
                caught.incrementAndGet();
            }
        }));
        il.thread("T2", () -> {
            il.await("T1 read x");
            stm.run(t -> x.set(t, 1));
            il.signal("T2 committed");
        });
        il.run();
        if (il.followedSchedule()) {
            // The first attempt's block failed on a stale read: discarded, and the whole ran again.
            assertEquals(2, attempts.get());
            assertEquals(1, caught.get());
            assertEquals(1L, stm.statistics().aborts(AbortCause.INCONSISTENT_READ));
        } else {
            assertEquals(attempts.get(), caught.get());
        }
    }

    /**
     * Transfers between accounts where a nested block moves money and then fails half the time,
     * caught by the outer body: the total never changes and nothing stays locked, whatever the
     * protocol, so rollbacks of nested blocks leave commits serializable.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(PROTOCOLS)
    void transfersWithFailingNestedBlocksKeepTheTotal(String protocol) throws InterruptedException {
        Stm stm = Protocols.store(protocol);
        int n = 8;
        TxLong[] accounts = new TxLong[n];
        for (int i = 0; i < n; i++) {
            accounts[i] = new TxLong(stm, 100);
        }
        TxCounter moves = new TxCounter(stm);
        int perThread = Protocols.scaled(400);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int w = 0; w < 2; w++) {
            threads.add(new Thread(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                try {
                    for (int i = 0; i < perThread; i++) {
                        int from = rnd.nextInt(n);
                        int to = rnd.nextInt(n);
                        boolean fail = rnd.nextBoolean();
                        stm.run(txn -> {
                            try {
                                stm.run(t -> {
                                    accounts[from].set(t, accounts[from].get(t) - 1);
                                    accounts[to].set(t, accounts[to].get(t) + 1);
                                    moves.add(t, 1);
                                    if (fail) {
                                        throw new Failure();
                                    }
                                });
                            } catch (Failure expected) {
                                accounts[to].set(txn, accounts[to].get(txn));     // the outer goes on
                            }
                        });
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(failures.isEmpty(), () -> "failures: " + failures);
        long total = stm.atomicLong(txn -> {
            long s = 0;
            for (TxLong acct : accounts) {
                s += acct.get(txn);
            }
            return s;
        });
        assertEquals(100L * n, total);
        assertFalse(moves.single().get() > 2L * perThread);
        Quiescence.assertQuiescent((Object[]) accounts);
        Quiescence.assertQuiescent(moves);
    }
}
