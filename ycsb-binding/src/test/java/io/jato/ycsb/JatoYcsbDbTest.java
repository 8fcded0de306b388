package io.jato.ycsb;

import static io.jato.ycsb.Ycsb.fields;
import static io.jato.ycsb.Ycsb.open;
import static io.jato.ycsb.Ycsb.props;
import static io.jato.ycsb.Ycsb.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.jato.stm.Stm;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

/** JatoYcsbDb's operations against a model, its store's life cycle, and what it refuses. */
class JatoYcsbDbTest {
    private final List<JatoYcsbDb> opened = new ArrayList<>();

    private JatoYcsbDb db(String... nameValue) throws DBException {
        JatoYcsbDb db = open(props(nameValue));
        opened.add(db);
        return db;
    }

    @BeforeAll
    static void measurements() {
        Ycsb.measurements();
    }

    @AfterEach
    void closeAll() {
        opened.forEach(JatoYcsbDb::cleanup);
        assertEquals(0, YcsbStore.users(), "every init was paired with a cleanup");
    }

    static List<String> protocols() {
        return Stm.availableProtocols();
    }

    static List<String> serializableProtocols() {
        return Stm.availableProtocols().stream().filter(p -> Stm.protocolCapabilities(p).serializable()).toList();
    }

    /**
     * Random reads, scans, updates (of some fields, sometimes new ones), inserts and deletes over a
     * small key space, each checked against a TreeMap of records.
     */
    @ParameterizedTest
    @MethodSource("protocols")
    void behavesLikeASortedMapOfRecords(String protocol) throws DBException {
        JatoYcsbDb db = db("jato.protocol", protocol);
        TreeMap<String, TreeMap<String, String>> model = new TreeMap<>();
        SplittableRandom rnd = new SplittableRandom(protocol.hashCode());
        String[] names = {"f0", "f1", "f2", "f3", "f4"};
        for (int step = 0; step < 4000; step++) {
            String key = "k" + rnd.nextInt(60);
            int what = rnd.nextInt(10);
            if (what < 3) {
                Set<String> wanted = rnd.nextBoolean() ? null : someOf(rnd, names);
                Map<String, ByteIterator> got = new HashMap<>();
                Status s = db.read("t", key, wanted, got);
                TreeMap<String, String> expected = model.get(key);
                assertEquals(expected == null ? Status.NOT_FOUND : Status.OK, s, () -> "read " + key);
                assertEquals(expected == null ? Map.of() : project(expected, wanted), text(got), () -> "read " + key);
            } else if (what < 5) {
                Set<String> wanted = rnd.nextBoolean() ? null : someOf(rnd, names);
                int count = rnd.nextInt(8);
                Vector<HashMap<String, ByteIterator>> got = new Vector<>();
                assertEquals(Status.OK, db.scan("t", key, count, wanted, got));
                List<Map<String, String>> expected = new ArrayList<>();
                for (TreeMap<String, String> r : model.tailMap(key, true).values()) {
                    if (expected.size() == count) {
                        break;
                    }
                    expected.add(project(r, wanted));
                }
                List<Map<String, String>> actual = new ArrayList<>();
                got.forEach(r -> actual.add(text(r)));
                assertEquals(expected, actual, () -> "scan from " + key + " of " + count);
            } else if (what < 7) {
                TreeMap<String, String> values = randomValues(rnd, names, step);
                Status s = db.update("t", key, fields(flat(values)));
                TreeMap<String, String> r = model.get(key);
                assertEquals(r == null ? Status.NOT_FOUND : Status.OK, s, () -> "update " + key);
                if (r != null) {
                    r.putAll(values);
                }
            } else if (what < 9) {
                TreeMap<String, String> values = randomValues(rnd, names, step);
                assertEquals(Status.OK, db.insert("t", key, fields(flat(values))));
                model.put(key, values);
            } else {
                assertEquals(model.remove(key) == null ? Status.NOT_FOUND : Status.OK, db.delete("t", key));
            }
        }
        Vector<HashMap<String, ByteIterator>> all = new Vector<>();
        assertEquals(Status.OK, db.scan("t", "", Integer.MAX_VALUE, null, all));
        List<Map<String, String>> actual = new ArrayList<>();
        all.forEach(r -> actual.add(text(r)));
        assertEquals(new ArrayList<>(model.values()), actual, "every record at the end");
    }

    private static Set<String> someOf(SplittableRandom rnd, String[] names) {
        Set<String> s = new HashSet<>();
        for (String n : names) {
            if (rnd.nextInt(3) == 0) {
                s.add(n);
            }
        }
        if (rnd.nextInt(4) == 0) {
            s.add("absent");
        }
        return s;
    }

    private static TreeMap<String, String> randomValues(SplittableRandom rnd, String[] names, int step) {
        TreeMap<String, String> v = new TreeMap<>();
        for (String n : names) {
            if (rnd.nextInt(2) == 0) {
                v.put(n, n + "@" + step);
            }
        }
        if (v.isEmpty()) {
            v.put(names[rnd.nextInt(names.length)], "only@" + step);
        }
        return v;
    }

    private static Map<String, String> project(TreeMap<String, String> record, Set<String> wanted) {
        if (wanted == null) {
            return record;
        }
        TreeMap<String, String> out = new TreeMap<>(record);
        out.keySet().retainAll(wanted);
        return out;
    }

    private static String[] flat(Map<String, String> m) {
        List<String> out = new ArrayList<>();
        m.forEach((k, v) -> {
            out.add(k);
            out.add(v);
        });
        return out.toArray(new String[0]);
    }

    @Test
    void updateMergesFieldsAndInsertReplacesTheRecord() throws DBException {
        JatoYcsbDb db = db();
        assertEquals(Status.OK, db.insert("t", "a", fields("f0", "x", "f1", "y")));
        assertEquals(Status.OK, db.update("t", "a", fields("f1", "Y", "f2", "z")));
        Map<String, ByteIterator> got = new HashMap<>();
        assertEquals(Status.OK, db.read("t", "a", null, got));
        assertEquals(Map.of("f0", "x", "f1", "Y", "f2", "z"), text(got));

        got.clear();
        assertEquals(Status.OK, db.read("t", "a", Set.of("f2", "nope"), got));
        assertEquals(Map.of("f2", "z"), text(got), "the named fields the record has");

        assertEquals(Status.OK, db.insert("t", "a", fields("g", "1")));
        got.clear();
        assertEquals(Status.OK, db.read("t", "a", null, got));
        assertEquals(Map.of("g", "1"), text(got), "an insert of an existing key replaces the record");
    }

    @Test
    void absentKeysAreNotFoundAndTablesAreApart() throws DBException {
        JatoYcsbDb db = db();
        assertEquals(Status.NOT_FOUND, db.read("t", "a", null, new HashMap<>()));
        assertEquals(Status.NOT_FOUND, db.update("t", "a", fields("f", "v")));
        assertEquals(Status.NOT_FOUND, db.delete("t", "a"));
        assertEquals(Status.OK, db.insert("t", "a", fields("f", "v")));
        assertEquals(Status.NOT_FOUND, db.read("other", "a", null, new HashMap<>()));
        Vector<HashMap<String, ByteIterator>> none = new Vector<>();
        assertEquals(Status.OK, db.scan("t", "b", 10, null, none));
        assertTrue(none.isEmpty(), "nothing from b on");
        assertEquals(Status.OK, db.scan("t", "", 0, null, none));
        assertTrue(none.isEmpty(), "a scan of 0 records");
    }

    @Test
    void storedValuesCannotBeChangedByTheCallersArraysOrIterators() throws DBException {
        JatoYcsbDb db = db();
        byte[] bytes = {1, 2, 3};
        assertEquals(Status.OK, db.insert("t", "a", Map.of("f", new ByteArrayByteIterator(bytes))));
        bytes[0] = 9;
        Map<String, ByteIterator> got = new HashMap<>();
        db.read("t", "a", null, got);
        byte[] read = got.get("f").toArray();
        assertEquals("[1, 2, 3]", Arrays.toString(read));
        read[1] = 9;
        got.clear();
        db.read("t", "a", null, got);
        assertEquals("[1, 2, 3]", Arrays.toString(got.get("f").toArray()));
    }

    @Test
    void badInputIsRefusedNamingIt() throws DBException {
        JatoYcsbDb db = db();
        assertEquals("key", assertThrows(NullPointerException.class,
                () -> db.read("t", null, null, new HashMap<>())).getMessage());
        assertEquals("table", assertThrows(NullPointerException.class,
                () -> db.insert(null, "k", fields("f", "v"))).getMessage());
        Map<String, ByteIterator> nullValue = new HashMap<>();
        nullValue.put("f", null);
        assertEquals("the value of field f", assertThrows(NullPointerException.class,
                () -> db.insert("t", "k", nullValue)).getMessage());
        Set<String> withNull = new HashSet<>(Arrays.asList("f", null));
        assertEquals("a field name in fields", assertThrows(NullPointerException.class,
                () -> db.read("t", "k", withNull, new HashMap<>())).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> db.scan("t", "k", -1, null, new Vector<>()))
                .getMessage().contains("recordcount=-1"));
        JatoYcsbDb unopened = new JatoYcsbDb();
        assertTrue(assertThrows(IllegalStateException.class, () -> unopened.delete("t", "k")).getMessage()
                .contains("before init()"));
        assertThrows(DBException.class, db::init, "a second init");
    }

    @Test
    void malformedPropertiesFailInitNamingTheProperty() {
        assertMessage("unknown protocol 'nope'", "jato.protocol", "nope");
        assertMessage("tictoc", "jato.protocol", "nope");                  // lists the known ones
        assertMessage("jato.opspertxn must be a whole number", "jato.opspertxn", "many");
        assertMessage("jato.opspertxn must be from 1", "jato.opspertxn", "0");
        assertMessage("jato.preload must be true or false, got 'yes'", "jato.preload", "yes");
        assertMessage("jato.options takes NAME=VALUE pairs", "jato.options", "history");
        assertMessage("jato.opspertxn=4 needs -p workload=io.jato.ycsb.JatoWorkload", "jato.opspertxn", "4");
        assertEquals(0, YcsbStore.users(), "a failed init holds no store");
    }

    private static void assertMessage(String part, String property, String value) {
        DBException e = assertThrows(DBException.class, () -> open(props(property, value)));
        assertTrue(e.getMessage().contains(part), () -> "'" + part + "' in: " + e.getMessage());
    }

    @Test
    void instancesShareOneStoreUntilTheLastCleanup() throws DBException {
        JatoYcsbDb first = open(props());
        JatoYcsbDb second = open(props());
        try {
            assertEquals(2, YcsbStore.users());
            first.insert("t", "a", fields("f", "v"));
            assertEquals(Status.OK, second.read("t", "a", null, new HashMap<>()));
            first.cleanup();
            first.cleanup();                                                   // idempotent
            assertEquals(Status.OK, second.read("t", "a", null, new HashMap<>()), "still open for the second");
            DBException e = assertThrows(DBException.class, () -> open(props("jato.protocol", "tictoc")));
            assertTrue(e.getMessage().contains("a Jato store with occ is open"), e.getMessage());
        } finally {
            second.cleanup();
        }
        JatoYcsbDb third = db("jato.protocol", "tictoc");
        assertEquals(Status.NOT_FOUND, third.read("t", "a", null, new HashMap<>()), "a new, empty store");
    }

    /**
     * Threads update fields of one record at once, each its own fields, half of them fields the
     * record does not have yet (so that rows are replaced while others write into them). Every
     * field's last write must survive: a lost update shows as a field missing or behind.
     */
    @ParameterizedTest
    @MethodSource("serializableProtocols")
    void concurrentUpdatesOfOneRecordLoseNoField(String protocol) throws Exception {
        JatoYcsbDb setup = db("jato.protocol", protocol);
        setup.insert("t", "r", fields("base", "0"));
        int threads = 4;
        int rounds = 400;
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            JatoYcsbDb db = db("jato.protocol", protocol);
            workers.add(new Thread(() -> {
                try {
                    start.await();
                    for (int i = 1; i <= rounds; i++) {
                        // an existing field, and every 8th round a new one
                        Map<String, ByteIterator> v = i % 8 == 0
                                ? fields("own" + id, "" + i, "new" + id + "_" + i, "" + i)
                                : fields("own" + id, "" + i);
                        if (db.update("t", "r", v) != Status.OK) {
                            throw new AssertionError("update failed");
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        // the "own" fields exist from the start, so most updates are blind writes into the row
        Map<String, ByteIterator> init = new HashMap<>();
        for (int t = 0; t < threads; t++) {
            init.putAll(fields("own" + t, "0"));
        }
        setup.update("t", "r", init);
        workers.forEach(Thread::start);
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        Map<String, ByteIterator> got = new HashMap<>();
        setup.read("t", "r", null, got);
        TreeMap<String, String> expected = new TreeMap<>();
        expected.put("base", "0");
        for (int t = 0; t < threads; t++) {
            expected.put("own" + t, "" + rounds);
            for (int i = 8; i <= rounds; i += 8) {
                expected.put("new" + t + "_" + i, "" + i);
            }
        }
        assertEquals(expected, text(got));
    }

    @Test
    void aTransactionRunLoadsYcsbsRecordsFirst() throws DBException {
        Properties p = props("workload", "site.ycsb.workloads.CoreWorkload", "recordcount", "300", "fieldcount", "3",
                "fieldlength", "7", "threadcount", "2");
        JatoYcsbDb db = open(p);
        opened.add(db);
        Vector<HashMap<String, ByteIterator>> all = new Vector<>();
        db.scan("usertable", "", Integer.MAX_VALUE, null, all);
        assertEquals(300, all.size());
        for (HashMap<String, ByteIterator> r : all) {
            assertEquals(Set.of("field0", "field1", "field2"), r.keySet());
            assertEquals(7, r.get("field1").toArray().length);
        }
        // the second user finds it loaded
        JatoYcsbDb second = open(p);
        opened.add(second);
        all.clear();
        second.scan("usertable", "", Integer.MAX_VALUE, null, all);
        assertEquals(300, all.size());
    }

    @Test
    void noLoadForALoadRunOrWhenSwitchedOff() throws DBException {
        for (Properties p : List.of(
                props("workload", "site.ycsb.workloads.CoreWorkload", "recordcount", "50", "dotransactions", "false"),
                props("workload", "site.ycsb.workloads.CoreWorkload", "recordcount", "50", "jato.preload", "false"),
                props("workload", "site.ycsb.BasicDB", "recordcount", "50"))) {
            JatoYcsbDb db = open(p);
            try {
                Vector<HashMap<String, ByteIterator>> all = new Vector<>();
                db.scan("usertable", "", Integer.MAX_VALUE, null, all);
                assertEquals(0, all.size(), () -> "nothing loaded with " + p);
            } finally {
                db.cleanup();
            }
        }
    }
}
