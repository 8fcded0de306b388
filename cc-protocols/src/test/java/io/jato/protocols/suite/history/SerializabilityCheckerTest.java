package io.jato.protocols.suite.history;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker itself, on hand-made histories: it accepts serial ones and catches each anomaly. */
class SerializabilityCheckerTest {
    private static final long T0 = Version.INITIAL;
    private static final long T1 = id(1, 1);
    private static final long T2 = id(2, 1);
    private static final long T3 = id(3, 1);

    private static long id(int thread, int attempt) {
        return ((long) thread << 32) | attempt;
    }

    private static TxnRecord txn(long id) {
        return new TxnRecord(id);
    }

    @Test
    void aSerialHistoryPasses() {
        // T1: x += ..; T2: reads x (T1's), y += ..; T3: read-only, reads both latest; T4 reads an old x
        // and writes nothing it read later: all explained by T4 < T1 < T2 < T3.
        long t4 = id(4, 1);
        List<TxnRecord> history = List.of(
                txn(T1).read("x", T0).write("x", T0),
                txn(T2).read("x", T1).read("y", T0).write("y", T0),
                txn(T3).read("x", T1).read("y", T2),
                txn(t4).read("x", T0).read("z", T0).write("z", T0));
        SerializabilityChecker.Report r = SerializabilityChecker.check(history,
                Map.of("x", T1, "y", T2, "z", t4, "w", T0));
        assertTrue(r.isSerializable(), r::describe);
        assertEquals(4, r.transactions());
        r.assertSerializable("serial history");
    }

    @Test
    void writeSkewIsACycleOfTwoAntiDependencies() {
        List<TxnRecord> history = List.of(
                txn(T1).read("x", T0).read("y", T0).write("x", T0),
                txn(T2).read("x", T0).read("y", T0).write("y", T0));
        SerializabilityChecker.Report r = SerializabilityChecker.check(history);
        assertFalse(r.isSerializable());
        assertEquals(2, r.cycle().size(), r::describe);
        assertTrue(r.cycle().containsAll(List.of(T1, T2)));
        String d = r.describe();
        assertTrue(d.contains("dependency cycle") && d.contains("-rw->"), d);
        assertTrue(d.contains("rw on y: T1.1 read the version T0 wrote, which T2.1 replaced"), d);
        assertTrue(d.contains("rw on x: T2.1 read the version T0 wrote, which T1.1 replaced"), d);
        AssertionError e = assertThrows(AssertionError.class, () -> r.assertSerializable("write skew"));
        assertTrue(e.getMessage().startsWith("write skew: NOT serializable"), e.getMessage());
    }

    @Test
    void aLostUpdateIsAForkedVersionChainAndACycle() {
        List<TxnRecord> history = List.of(
                txn(T1).read("x", T0).write("x", T0),
                txn(T2).read("x", T0).write("x", T0));
        SerializabilityChecker.Report r = SerializabilityChecker.check(history, Map.of("x", T2));
        assertFalse(r.isSerializable());
        assertTrue(r.hasLostUpdate(), r::describe);
        assertEquals(2, r.cycle().size(), r::describe);
        assertTrue(r.describe().contains("lost update on x: T1.1, T2.1 all replaced the version T0 wrote"),
                r::describe);
    }

    @Test
    void aPhantomOnAnAbsentKeyIsACycle() {
        // T1 finds k absent (T0's version) and writes marker m; T2 reads m unset and inserts k.
        List<TxnRecord> history = List.of(
                txn(T1).read("k", T0).read("m", T0).write("m", T0),
                txn(T2).read("m", T0).read("k", T0).write("k", T0));
        SerializabilityChecker.Report r = SerializabilityChecker.check(history);
        assertFalse(r.isSerializable());
        assertEquals(2, r.cycle().size(), r::describe);
        assertTrue(r.describe().contains("rw on k: T1.1 read the version T0 wrote, which T2.1 replaced"),
                r::describe);

        // Serially (T2 before T1, T1 seeing k inserted), the same transactions pass.
        history = List.of(
                txn(T2).read("m", T0).read("k", T0).write("k", T0),
                txn(T1).read("k", T2).read("m", T0).write("m", T0));
        assertTrue(SerializabilityChecker.check(history).isSerializable());
    }

    @Test
    void aPhantomOnADeletedKeyIsACycle() {
        // T2 deletes k after reading m unset; T1 reads k absent (T2's delete) and writes m, which T2 read
        // before: T2 -wr-> T1 (T1 saw the delete) and T2 -rw-> T1 — fine; but T3 reads k present (T0)
        // and m as T1 wrote it: T3 -rw-> T2 and T1 -wr-> T3, so T1 -> T3 -> T2 -> T1.
        List<TxnRecord> history = List.of(
                txn(T2).read("m", T0).read("k", T0).delete("k", T0),
                txn(T1).readDeleted("k").read("m", T0).write("m", T0),
                txn(T3).read("k", T0).read("m", T1));
        SerializabilityChecker.Report r = SerializabilityChecker.check(history, Map.of("k", TxnRecord.DELETED));
        assertFalse(r.isSerializable());
        assertEquals(3, r.cycle().size(), r::describe);
        assertTrue(r.describe().contains("-wr->") && r.describe().contains("-rw->"), r::describe);

        // Without T3 the history is serial: T2 then T1.
        r = SerializabilityChecker.check(history.subList(0, 2), Map.of("k", TxnRecord.DELETED, "m", T1));
        assertTrue(r.isSerializable(), r::describe);
    }

    @Test
    void readsOfVersionsNoCommittedTransactionWroteAreDirty() {
        long aborted = id(9, 9);
        SerializabilityChecker.Report r = SerializabilityChecker.check(List.of(
                txn(T1).read("x", aborted),
                txn(T2).readDeleted("y"),
                txn(T3).read("z", T0).write("z", aborted)));
        assertEquals(3, r.problems().size(), r::describe);
        assertTrue(r.describe().contains("dirty read"), r::describe);
        assertTrue(r.describe().contains("no committed transaction deleted it"), r::describe);
        assertTrue(r.describe().contains("a write based on uncommitted data"), r::describe);
    }

    @Test
    void aFinalStateThatIsNotTheLastCommittedWriteIsReported() {
        List<TxnRecord> history = List.of(
                txn(T1).read("x", T0).write("x", T0),
                txn(T2).read("x", T1).write("x", T1));
        assertTrue(SerializabilityChecker.check(history, Map.of("x", T2)).isSerializable());
        SerializabilityChecker.Report r = SerializabilityChecker.check(history, Map.of("x", T1));
        assertTrue(r.describe().contains("at the end x holds the version T1.1 wrote, but the last committed write"
                + " of it is T2.1"), r::describe);
    }

    @Test
    void aLongerCycleIsReportedEdgeByEdge() {
        // T1 -wr-> T2 -ww-> T3 -rw-> T1
        List<TxnRecord> history = List.of(
                txn(T1).read("a", T0).write("a", T0).read("d", T0).write("d", T0),
                txn(T2).read("a", T1).read("b", T0).write("b", T0),
                txn(T3).read("b", T2).write("b", T2).read("d", T0));
        SerializabilityChecker.Report r = SerializabilityChecker.check(history);
        assertEquals(List.of(T1, T2, T3), r.cycle(), r::describe);
        String d = r.describe();
        assertTrue(d.contains("T1.1 -wr-> T2.1") && d.contains("T2.1 -ww-> T3.1") && d.contains("T3.1 -rw-> T1.1"),
                d);
    }

    @Test
    void idsAndRecordsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new TxnRecord(T0));
        SerializabilityChecker.Report r = SerializabilityChecker.check(List.of(txn(T1), txn(T1)));
        assertTrue(r.describe().contains("recorded twice"), r::describe);
        r = SerializabilityChecker.check(List.of(txn(T1).write("x", T0).write("x", T0)));
        assertTrue(r.describe().contains("two writes of x"), r::describe);
        assertEquals("T0", Version.name(T0));
        assertEquals("T3.1", Version.name(T3));
    }
}
