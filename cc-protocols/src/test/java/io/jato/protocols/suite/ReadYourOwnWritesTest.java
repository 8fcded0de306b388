package io.jato.protocols.suite;

import io.jato.collections.TxHashMap;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Read-your-own-writes while another transaction commits to the same item: a transaction reads
 * back what it wrote, never the other transaction's value, in every attempt. Scheduled: T1 writes
 * x, T2 writes x and commits, T1 reads x back.
 */
@Timeout(120)
class ReadYourOwnWritesTest {

    static Outcome scenario(Stm stm, String kind) {
        Cells[] c = Cells.create(kind, stm, 0);
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        Interleaving il = new Interleaving();
        il.thread("T1", () -> stm.run(txn -> {
            c[0].set(txn, 100);
            if (txn.attempt() == 0) {
                il.signal("T1 wrote");
                il.await("T2 committed");
            }
            long own = c[0].get(txn);
            c[0].set(txn, own + 1);
            seen.add(own + "," + c[0].get(txn));
        }));
        il.thread("T2", () -> {
            il.await("T1 wrote");
            stm.run(txn -> c[0].set(txn, 200));
            il.signal("T2 committed");
        });
        il.run();
        long end = c[0].committed();
        String anomaly = null;
        for (String s : seen) {
            if (!s.equals("100,101")) {
                anomaly = "T1 wrote 100 then read back " + s.split(",")[0] + " (all attempts: " + seen + ")";
            }
        }
        if (anomaly == null && end != 101 && end != 200) {
            anomaly = "x ended at " + end + ", not 101 (T2 then T1) nor 200 (T1 then T2)";
        }
        return new Outcome("read-your-own-writes on " + kind + " under " + stm.protocol(), anomaly,
                il.followedSchedule(), Quiescence.problems((Object[]) c));
    }

    /**
     * A map key this transaction inserted reads back as its own value, even after another
     * transaction inserted the same key and committed (this attempt is then doomed to fail
     * validation, but its own buffered write still takes precedence over anything committed).
     */
    static Outcome ownInsertScenario(Stm stm) {
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        Interleaving il = new Interleaving();
        il.thread("T1", () -> stm.run(txn -> {
            map.put(txn, "k", "T1");
            if (txn.attempt() == 0) {
                il.signal("T1 wrote");
                il.await("T2 committed");
            }
            seen.add("attempt " + txn.attempt() + ": get=" + map.get(txn, "k") + " containsKey="
                    + map.containsKey(txn, "k") + " putIfAbsent=" + map.putIfAbsent(txn, "k", "again"));
        }));
        il.thread("T2", () -> {
            il.await("T1 wrote");
            stm.run(txn -> map.put(txn, "k", "T2"));
            il.signal("T2 committed");
        });
        il.run();
        String anomaly = null;
        for (String s : seen) {
            if (!s.endsWith("get=T1 containsKey=true putIfAbsent=T1")) {
                anomaly = "T1 inserted k = T1, T2 inserted k = T2 and committed, then T1 read back: " + seen;
            }
        }
        String end = map.single().get("k");
        if (anomaly == null && !"T1".equals(end) && !"T2".equals(end)) {
            anomaly = "k ended as " + end;
        }
        return new Outcome("read-your-own-insert on a TxHashMap key under " + stm.protocol(), anomaly,
                il.followedSchedule(), Quiescence.problems(map));
    }

    /** A map key this transaction deleted reads absent, even after another transaction updated it and committed. */
    static Outcome ownDeleteScenario(Stm stm) {
        TxHashMap<String, String> map = new TxHashMap<>(stm);
        map.single().put("k", "initial");
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        Interleaving il = new Interleaving();
        il.thread("T1", () -> stm.run(txn -> {
            map.remove(txn, "k");
            if (txn.attempt() == 0) {
                il.signal("T1 wrote");
                il.await("T2 committed");
            }
            seen.add("attempt " + txn.attempt() + ": get=" + map.get(txn, "k") + " containsKey="
                    + map.containsKey(txn, "k") + " remove=" + map.remove(txn, "k"));
        }));
        il.thread("T2", () -> {
            il.await("T1 wrote");
            stm.run(txn -> map.put(txn, "k", "T2"));
            il.signal("T2 committed");
        });
        il.run();
        String anomaly = null;
        for (String s : seen) {
            if (!s.endsWith("get=null containsKey=false remove=null")) {
                anomaly = "T1 deleted k, T2 updated k and committed, then T1 read back: " + seen;
            }
        }
        String end = map.single().get("k");
        if (anomaly == null && end != null && !"T2".equals(end)) {
            anomaly = "k ended as " + end + ", not absent (T2 then T1) nor T2 (T1 then T2)";
        }
        return new Outcome("read-your-own-delete on a TxHashMap key under " + stm.protocol(), anomaly,
                il.followedSchedule(), Quiescence.problems(map));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.jato.protocols.suite.Cells#protocolsAndKinds")
    void aTransactionReadsItsOwnWriteNotAConcurrentCommit(String protocol, String kind) {
        scenario(Protocols.store(protocol), kind).assertCorrect();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jato.protocols.suite.Protocols#all")
    void aTransactionReadsItsOwnInsertNotAConcurrentlyCommittedOne(String protocol) {
        ownInsertScenario(Protocols.store(protocol)).assertCorrect();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jato.protocols.suite.Protocols#all")
    void aTransactionReadsItsOwnDeleteNotAConcurrentlyCommittedUpdate(String protocol) {
        ownDeleteScenario(Protocols.store(protocol)).assertCorrect();
    }
}
