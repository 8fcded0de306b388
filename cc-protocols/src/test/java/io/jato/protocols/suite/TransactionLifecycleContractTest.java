package io.jato.protocols.suite;

import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.Txn;
import io.jato.stm.TxnAbortedException;
import io.jato.protocols.suite.Failures.Boom;
import io.jato.protocols.suite.Failures.BoomError;
import io.jato.protocols.suite.Failures.CheckedBoom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static io.jato.protocols.suite.Failures.onAnotherThread;
import static io.jato.protocols.suite.Failures.thrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transaction-lifecycle contract of every data type under every protocol: what a {@link Txn}
 * may be used for and when, read-only transactions, user aborts and user exceptions, flat
 * nesting, and the non-transactional views' guard. Each test runs once per (protocol, data type)
 * and ends by checking that nothing is left locked.
 */
class TransactionLifecycleContractTest {
    private static final String SOURCE = "io.jato.protocols.suite.Subject#protocolsAndTypes";

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void aDeclaredReadOnlyTransactionThatWritesThrowsAndLeavesNothingVisible(String protocol, String type) {
        Stm stm = Protocols.store(protocol);
        Subject s = Subject.create(type, stm);

        boolean[] flagged = new boolean[2];
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> stm.readOnly(txn -> {
            flagged[0] = txn.isReadOnly();
            s.read(txn);
            s.write(txn);
            return null;
        }));
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        assertTrue(flagged[0], "isReadOnly() inside stm.readOnly");
        stm.run(txn -> flagged[1] = txn.isReadOnly());
        assertFalse(flagged[1], "isReadOnly() inside stm.atomic");

        // A body that swallows the refusal commits, but with nothing written.
        Object read = stm.readOnly(txn -> {
            assertInstanceOf(IllegalStateException.class, thrownBy(() -> s.write(txn)));
            return s.read(txn);
        });
        assertTrue(s.pristine(), () -> "state changed by a read-only transaction: " + s.describe());
        assertEquals(read, stm.readOnly(s::read));
        assertEquals(1, stm.statistics().aborts(AbortCause.USER_EXCEPTION));
        Quiescence.assertQuiescent(s);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void aTxnUsedAfterItsTransactionEndedThrows(String protocol, String type) {
        Stm stm = Protocols.store(protocol);
        Subject s = Subject.create(type, stm);
        Txn[] leaked = new Txn[2];
        stm.run(txn -> leaked[0] = txn);
        assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            leaked[1] = txn;
            throw txn.abort();
        }));

        for (Txn txn : leaked) {
            assertStaleUseFails(thrownBy(() -> s.read(txn)));
            assertStaleUseFails(thrownBy(() -> s.write(txn)));
            assertStaleUseFails(thrownBy(txn::abort));
            // ... and from another thread, where it is also foreign.
            assertInstanceOf(IllegalStateException.class, onAnotherThread(() -> s.write(txn)));
        }
        assertFalse(stm.inTransaction());
        assertTrue(s.pristine(), s::describe);
        Quiescence.assertQuiescent(s);
    }

    private static void assertStaleUseFails(Throwable t) {
        assertInstanceOf(IllegalStateException.class, t);
        assertTrue(t.getMessage().contains("ended"), t.getMessage());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void aTxnUsedFromAnotherThreadThrowsAndTheTransactionGoesOn(String protocol, String type) {
        Stm stm = Protocols.store(protocol);
        Subject s = Subject.create(type, stm);
        Throwable[] foreign = new Throwable[3];
        stm.run(txn -> {
            foreign[0] = onAnotherThread(() -> s.read(txn));
            foreign[1] = onAnotherThread(() -> s.write(txn));
            foreign[2] = onAnotherThread(txn::abort);
            s.read(txn);
        });
        for (Throwable t : foreign) {
            assertInstanceOf(IllegalStateException.class, t);
            assertTrue(t.getMessage().contains("thread"), t.getMessage());
        }
        assertTrue(s.pristine(), () -> "a write from a foreign thread took effect: " + s.describe());
        assertEquals(1, stm.statistics().commits());
        Quiescence.assertQuiescent(s);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void anObjectUsedInATransactionOfAnotherStoreThrows(String protocol, String type) {
        Stm a = Protocols.store(protocol, "store-A");
        Stm b = Protocols.store(protocol, "store-B");
        Subject s = Subject.create(type, a);

        for (Failures.Action misuse : new Failures.Action[] {
                () -> b.run(s::read), () -> b.run(s::write), () -> b.readOnly(s::read)}) {
            Throwable t = thrownBy(misuse);
            assertInstanceOf(IllegalStateException.class, t);
            assertTrue(t.getMessage().contains("store-A") && t.getMessage().contains("store-B"), t.getMessage());
        }
        // A transaction of its own store inside the other store's is refused (stores' transactions
        // are not joined); on its own it works.
        Throwable nested = thrownBy(() -> a.run(txa -> b.run(txb -> s.write(txa))));
        assertInstanceOf(IllegalStateException.class, nested);
        assertTrue(nested.getMessage().contains("store 'store-A'") && nested.getMessage().contains("store 'store-B'"),
                nested.getMessage());
        assertTrue(s.pristine());
        a.run(s::write);
        assertFalse(s.pristine());
        assertEquals(1, a.statistics().commits());
        assertEquals(3, b.statistics().aborts(AbortCause.USER_EXCEPTION));
        Quiescence.assertQuiescent(s);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void aNestedAtomicJoinsTheOuterTransaction(String protocol, String type) {
        Stm stm = Protocols.store(protocol);
        Subject s = Subject.create(type, stm);
        Object before = stm.atomic(s::read);

        Txn[] seen = new Txn[2];
        Object[] reads = new Object[2];
        Object result = stm.atomic(outer -> {
            seen[0] = outer;
            Object inner = stm.atomic(in -> {
                seen[1] = in;
                assertTrue(stm.inTransaction());
                s.write(in);
                return s.read(in);
            });
            reads[0] = inner;
            reads[1] = s.read(outer);
            return inner;
        });
        assertSame(seen[0], seen[1], "the nested atomic must run in the outer transaction");
        assertEquals(reads[0], reads[1], "the outer transaction sees the nested one's writes");
        assertEquals(result, stm.atomic(s::read), "the nested writes commit with the outer transaction");
        assertNotEquals(before, result);
        // before, the outer (with its nested) and after: a nested atomic is not a transaction of its own
        assertEquals(3, stm.statistics().commits(), "commits");
        assertEquals(3, stm.statistics().starts(), "starts");
        Quiescence.assertQuiescent(s);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void aNestedTransactionsWritesAreDiscardedWhenTheOuterOneAborts(String protocol, String type) {
        Stm stm = Protocols.store(protocol);
        Subject s = Subject.create(type, stm);
        TxnAbortedException e = assertThrows(TxnAbortedException.class, () -> stm.run(outer -> {
            stm.run(s::write);
            stm.readOnly(s::read);
            throw outer.abort();
        }));
        assertEquals(AbortCause.USER_ABORT, e.abortCause());
        assertTrue(s.pristine(), () -> "the nested writes survived the outer abort: " + s.describe());

        // An abort inside the nested body aborts the outer transaction too.
        boolean[] afterInner = new boolean[1];
        e = assertThrows(TxnAbortedException.class, () -> stm.run(outer -> {
            s.write(outer);
            stm.run(in -> {
                throw in.abort();
            });
            afterInner[0] = true;
        }));
        assertEquals(AbortCause.USER_ABORT, e.abortCause());
        assertFalse(afterInner[0], "the outer body went on after the nested abort");
        assertTrue(s.pristine(), s::describe);

        // Closed nesting: an exception from the nested body that the outer body catches rolls back
        // the nested body's writes only; a nested body that completes commits with the outer one.
        stm.run(outer -> {
            Throwable t = thrownBy(() -> stm.run(in -> {
                s.write(in);
                throw new Boom("inner");
            }));
            assertInstanceOf(Boom.class, t);
        });
        assertTrue(s.pristine(), () -> "the writes of a caught nested failure committed: " + s.describe());
        stm.run(outer -> stm.run(s::write));
        assertFalse(s.pristine(), "a nested body that completed did not commit with the outer transaction");
        Quiescence.assertQuiescent(s);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void aUserAbortRollsBackAndIsNotRetried(String protocol, String type) {
        Stm stm = Protocols.store(protocol);
        Subject s = Subject.create(type, stm);
        int[] runs = new int[1];
        TxnAbortedException e = assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            runs[0]++;
            s.write(txn);
            throw txn.abort();
        }));
        assertEquals(AbortCause.USER_ABORT, e.abortCause());
        assertEquals(1, e.attempts());
        assertEquals(1, runs[0], "a user abort is not retried");
        assertTrue(s.pristine(), s::describe);

        // Swallowing the abort gains nothing: the transaction is still rolled back.
        Throwable[] swallowed = new Throwable[1];
        e = assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            s.write(txn);
            swallowed[0] = thrownBy(() -> {
                throw txn.abort();
            });
        }));
        assertNotNull(swallowed[0], "abort() returned normally");
        assertEquals(AbortCause.USER_ABORT, e.abortCause());
        assertTrue(s.pristine(), s::describe);

        StmStatistics st = stm.statistics();
        assertEquals(0, st.commits());
        assertEquals(2, st.aborts(AbortCause.USER_ABORT));
        assertEquals(2, st.aborts());
        assertEquals(2, st.starts());
        Quiescence.assertQuiescent(s);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void aUserExceptionIsRethrownUnchangedAndRollsBack(String protocol, String type) {
        Stm stm = Protocols.store(protocol);
        Subject s = Subject.create(type, stm);
        Throwable[] failures = {new Boom("runtime"), new BoomError("error"), new CheckedBoom("checked")};
        for (Throwable failure : failures) {
            int[] runs = new int[1];
            Throwable thrown = thrownBy(() -> stm.run(txn -> {
                runs[0]++;
                s.read(txn);
                s.write(txn);
                throw Failures.sneakyThrow(failure);
            }));
            assertSame(failure, thrown, "the body's exception must be rethrown as is");
            assertEquals(1, runs[0], "a user exception on a consistent state is not retried");
            assertTrue(s.pristine(), () -> "written before " + failure + ": " + s.describe());
            assertFalse(stm.inTransaction());
        }
        StmStatistics st = stm.statistics();
        assertEquals(failures.length, st.aborts(AbortCause.USER_EXCEPTION));
        assertEquals(0, st.commits());
        Quiescence.assertQuiescent(s);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void theNonTransactionalViewThrowsInsideATransactionOfItsStore(String protocol, String type) {
        Stm stm = Protocols.store(protocol);
        Stm other = Protocols.store(protocol, "other");
        Subject s = Subject.create(type, stm);
        Throwable[] inside = new Throwable[2];
        stm.run(txn -> {
            inside[0] = thrownBy(s::singleRead);
            inside[1] = thrownBy(s::singleWrite);
        });
        for (Throwable t : inside) {
            assertInstanceOf(IllegalStateException.class, t);
            assertTrue(t.getMessage().contains("inside a transaction"), t.getMessage());
        }
        stm.readOnly(txn -> assertInstanceOf(IllegalStateException.class, thrownBy(s::singleRead)));
        assertTrue(s.pristine(), s::describe);

        // Inside a transaction of another store it is an ordinary single operation.
        Object read = other.atomic(txn -> s.singleRead());
        assertEquals(read, s.singleRead());
        other.run(txn -> s.singleWrite());
        assertFalse(s.pristine());
        Quiescence.assertQuiescent(s);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void theNonTransactionalViewThrowsInsideADoomedTransaction(String protocol, String type) {
        Stm stm = Protocols.store(protocol);
        Subject s = Subject.create(type, stm);
        Throwable[] inside = new Throwable[2];
        assertThrows(TxnAbortedException.class, () -> stm.run(txn -> {
            try {
                txn.abort();
            } catch (Throwable swallowed) {
                // a careless body swallows the library's rollback signal
            }
            inside[0] = thrownBy(s::singleRead);
            inside[1] = thrownBy(s::singleWrite);
        }));
        for (Throwable t : inside) {
            assertInstanceOf(IllegalStateException.class, t);
        }
        assertTrue(s.pristine(), s::describe);
        Quiescence.assertQuiescent(s);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void aWriteInAReadOnlyBlockNestedInAWritingTransactionThrows(String protocol, String type) {
        Stm stm = Protocols.store(protocol);
        Subject s = Subject.create(type, stm);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> stm.run(txn ->
                stm.readOnly(inner -> {
                    s.write(inner);
                    return null;
                })));
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        assertTrue(s.pristine(), () -> "a write in a nested read-only block committed: " + s.describe());
        // After the nested block the outer transaction may write again.
        stm.run(txn -> {
            stm.readOnly(s::read);
            s.write(txn);
        });
        assertFalse(s.pristine());
        Quiescence.assertQuiescent(s);
    }
}
