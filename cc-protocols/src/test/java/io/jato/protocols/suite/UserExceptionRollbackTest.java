package io.jato.protocols.suite;

import io.jato.protocols.suite.Failures.Boom;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rollback on a user exception, watched by a concurrent reader: T1 writes to one object of every
 * data type and then throws; while T1 is between its writes and its throw, T2 reads everything in
 * a read-only transaction. T2 must see only the initial state (no dirty read), T1's exception must
 * come out of {@code atomic} as the same instance, and afterwards nothing T1 wrote is visible and
 * nothing is locked.
 */
@Timeout(120)
class UserExceptionRollbackTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jato.protocols.suite.Protocols#all")
    void aFailedTransactionsWritesAreNeverSeenAndNothingStaysLocked(String protocol) {
        Stm stm = Protocols.store(protocol);
        List<Subject> subjects = new ArrayList<>();
        for (String type : Subject.TYPES) {
            subjects.add(Subject.create(type, stm));
        }
        List<Object> initial = stm.readOnly(txn -> readAll(subjects, txn));
        Boom boom = new Boom("after writing everything");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<List<Object>> seenMeanwhile = new AtomicReference<>();
        Interleaving il = new Interleaving();
        il.thread("T1", () -> thrown.set(Failures.thrownBy(() -> stm.run(txn -> {
            for (Subject s : subjects) {
                s.write(txn);
            }
            if (txn.attempt() == 0) {
                il.signal("T1 wrote");
                il.await("T2 read");
            }
            throw boom;
        }))));
        il.thread("T2", () -> {
            il.await("T1 wrote");
            seenMeanwhile.set(stm.readOnly(txn -> readAll(subjects, txn)));
            il.signal("T2 read");
        });
        il.run();

        assertSame(boom, thrown.get(), "the user exception must come out unchanged");
        assertEquals(initial, seenMeanwhile.get(), "a concurrent reader saw uncommitted writes");
        for (Subject s : subjects) {
            assertTrue(s.pristine(), () -> s + " kept a write of the failed transaction: " + s.describe());
        }
        assertEquals(initial, stm.readOnly(txn -> readAll(subjects, txn)));
        StmStatistics st = stm.statistics();
        assertEquals(1, st.aborts(AbortCause.USER_EXCEPTION), st::toString);
        assertEquals(st.starts(), st.commits() + st.aborts(), st::toString);
        Quiescence.assertQuiescent(subjects.toArray());
    }

    private static List<Object> readAll(List<Subject> subjects, io.jato.stm.Txn txn) {
        List<Object> values = new ArrayList<>();
        for (Subject s : subjects) {
            values.add(s.read(txn));
        }
        return values;
    }
}
