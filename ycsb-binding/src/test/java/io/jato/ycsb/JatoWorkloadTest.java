package io.jato.ycsb;

import static io.jato.ycsb.Ycsb.props;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.jato.stm.StmStatistics;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.WorkloadException;

/**
 * JatoWorkload in the client's place: several operations per transaction, atomic and isolated
 * under concurrency, retried without drawing again, inserts visible to the key chooser only once
 * committed; and what its init refuses.
 */
class JatoWorkloadTest {
    private final List<JatoWorkload> opened = new ArrayList<>();

    @BeforeAll
    static void measurements() {
        Ycsb.measurements();
    }

    @AfterEach
    void closeAll() throws WorkloadException {
        for (JatoWorkload w : opened) {
            w.cleanup();
        }
        assertEquals(0, YcsbStore.users(), "every init was paired with a cleanup");
    }

    private <W extends JatoWorkload> W init(W w, String... nameValue) throws WorkloadException {
        Properties p = props("db", JatoYcsbDb.class.getName(), "workload", w.getClass().getName(), "jato.stats",
                "false");
        p.putAll(props(nameValue));
        w.init(p);
        opened.add(w);
        return w;
    }

    /** Runs {@code body(thread)} on {@code threads} threads started together; rethrows the first failure. */
    private static void onThreads(int threads, ThreadBody body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            all.add(new Thread(() -> {
                try {
                    start.await();
                    body.run(id);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        all.forEach(Thread::start);
        start.countDown();
        for (Thread t : all) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a worker failed", failure.get());
        }
    }

    @FunctionalInterface
    private interface ThreadBody {
        void run(int thread) throws Exception;
    }

    /** Draws the operations a test scripts for the current thread's next transaction. */
    static class Scripted extends JatoWorkload {
        final ThreadLocal<List<Op>> script = new ThreadLocal<>();
        private final ThreadLocal<Integer> next = ThreadLocal.withInitial(() -> 0);

        /** Makes {@code ops} the next transaction of this thread. */
        void plan(List<Op> ops) {
            script.set(ops);
            next.set(0);
        }

        @Override
        Op nextOperation() {
            int i = next.get();
            next.set(i + 1);
            return script.get().get(i);
        }

        String key(long n) {
            return buildKeyName(n);
        }
    }

    private static Fields value(String field, String text) {
        Fields f = new Fields();
        f.add(field, text.getBytes(StandardCharsets.UTF_8));
        return f;
    }

    /**
     * Writers set one field of all K records to a stamp of their own in one transaction of K
     * updates; readers read all K in one transaction of K reads. Atomic, isolated transactions
     * leave every reader with K equal stamps; a transaction whose operations took effect one by one
     * would let readers see a mix.
     */
    @ParameterizedTest
    @ValueSource(strings = {"occ", "tictoc", "global-lock"})
    void aTransactionsOperationsTakeEffectTogether(String protocol) throws Exception {
        int k = 6;
        Scripted w = init(new Scripted(), "jato.protocol", protocol, "jato.opspertxn", "" + k, "recordcount", "" + k,
                "fieldcount", "1", "fieldlength", "8");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            keys.add(w.key(i));
        }
        w.plan(updates(keys, "start"));
        assertTrue(w.doTransaction(null, null));
        int writes = 3000;
        AtomicLong writersLeft = new AtomicLong(2);
        AtomicLong reads = new AtomicLong();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        onThreads(4, thread -> {
            if (thread % 2 == 0) {
                for (int i = 0; i < writes; i++) {
                    w.plan(updates(keys, thread + ":" + i));
                    w.doTransaction(null, null);
                }
                writersLeft.decrementAndGet();
                return;
            }
            do { // readers read for as long as a writer writes
                List<Op> ops = new ArrayList<>();
                for (String key : keys) {
                    ops.add(Op.read(key, null));
                }
                w.plan(ops);
                w.doTransaction(null, null);
                reads.incrementAndGet();
                String first = null;
                for (Op r : ops) {
                    assertEquals(Status.OK, r.status, r::toString);
                    String stamp = new String(r.read.value(0), StandardCharsets.UTF_8);
                    if (first == null) {
                        first = stamp;
                        seen.add(stamp);
                    }
                    assertEquals(first, stamp, () -> "one transaction's reads saw two writers' states: " + ops);
                }
            } while (writersLeft.get() > 0);
        });
        assertTrue(seen.size() > 2, () -> "readers saw the writers' states change (" + seen.size() + " states)");
        StmStatistics s = w.store().statistics();
        assertEquals(1 + 2L * writes + reads.get(), s.commits(), "one Jato transaction per drawn transaction");
    }

    private static List<Op> updates(List<String> keys, String stamp) {
        List<Op> ops = new ArrayList<>();
        for (String key : keys) {
            ops.add(Op.update(key, value("field0", stamp)));
        }
        return ops;
    }

    /** Counts the draws of CoreWorkload-style operations. */
    static class Counting extends JatoWorkload {
        final AtomicLong draws = new AtomicLong();
        final ThreadLocal<List<Op>> drawn = ThreadLocal.withInitial(ArrayList::new);

        @Override
        Op nextOperation() {
            draws.incrementAndGet();
            Op op = super.nextOperation();
            drawn.get().add(op);
            return op;
        }
    }

    /**
     * Under heavy contention (4 records, every operation a write) transactions abort and retry; the
     * draws stay at exactly N per transaction, so a retry ran the operations drawn before.
     */
    @Test
    void aRetryRunsTheSameDrawnOperations() throws Exception {
        Counting w = init(new Counting(), "jato.opspertxn", "8", "recordcount", "4", "fieldcount", "2",
                "fieldlength", "8", "readproportion", "0", "updateproportion", "0.5", "readmodifywriteproportion",
                "0.5", "requestdistribution", "uniform");
        int perThread = 1000;
        onThreads(4, thread -> {
            for (int i = 0; i < perThread; i++) {
                w.drawn.get().clear();
                assertTrue(w.doTransaction(null, null));
                for (Op op : w.drawn.get()) {
                    assertEquals(Status.OK, op.status, op::toString);
                }
            }
        });
        StmStatistics s = w.store().statistics();
        assertEquals(4L * perThread, s.commits());
        assertTrue(s.aborts() > 0, () -> "contention made transactions retry: " + s);
        assertEquals(8L * 4 * perThread, w.draws.get(), "8 draws per transaction, whatever the retries");
    }

    /**
     * Workload D's shape (reads of the latest records, inserts) with several operations per
     * transaction: a key is offered to readers only after the transaction inserting it committed,
     * so no read finds its record missing, and every insert is in the table at the end.
     */
    @Test
    void insertedKeysAreReadOnlyOnceCommitted() throws Exception {
        Counting w = init(new Counting(), "jato.opspertxn", "6", "recordcount", "100", "fieldcount", "2",
                "fieldlength", "8", "readproportion", "0.8", "updateproportion", "0", "insertproportion", "0.2",
                "requestdistribution", "latest");
        AtomicLong inserts = new AtomicLong();
        onThreads(4, thread -> {
            for (int i = 0; i < 1500; i++) {
                w.drawn.get().clear();
                w.doTransaction(null, null);
                for (Op op : w.drawn.get()) {
                    assertEquals(Status.OK, op.status, () -> op + " (a read of a key whose insert had not committed?)");
                    if (op.kind == Op.Kind.INSERT) {
                        inserts.incrementAndGet();
                    }
                }
            }
        });
        assertTrue(inserts.get() > 0);
        assertEquals(100 + inserts.get(), w.store().table("usertable").single().size());
    }

    /** With one operation per transaction the workload is CoreWorkload's, each call of the database one transaction. */
    @Test
    void oneOperationPerTransactionIsCoreWorkloads() throws Exception {
        Counting w = init(new Counting(), "recordcount", "50", "readproportion", "0.5", "updateproportion", "0.5");
        JatoYcsbDb db = Ycsb.open(props("jato.stats", "false"));
        try {
            for (int i = 0; i < 200; i++) {
                assertTrue(w.doTransaction(db, null));
            }
        } finally {
            db.cleanup();
        }
        assertEquals(0, w.draws.get(), "CoreWorkload drew the operations");
        assertEquals(200, w.store().statistics().commits());
    }

    @Test
    void initRefusesWhatCannotWork() {
        assertRefused("runs against -db io.jato.ycsb.JatoYcsbDb, got site.ycsb.BasicDB", "db", "site.ycsb.BasicDB");
        assertRefused("jato.opspertxn=2 cannot be combined with dataintegrity=true", "jato.opspertxn", "2",
                "dataintegrity", "true");
        assertRefused("jato.opspertxn must be from 1 to 10000, got 10001", "jato.opspertxn", "10001");
        assertRefused("unknown protocol", "jato.protocol", "nope");
        assertEquals(0, YcsbStore.users(), "a refused init holds no store");
    }

    private static void assertRefused(String part, String... nameValue) {
        Properties p = props("db", JatoYcsbDb.class.getName(), "recordcount", "10");
        p.putAll(props(nameValue));
        WorkloadException e = assertThrows(WorkloadException.class, () -> new JatoWorkload().init(p));
        assertNotNull(e.getMessage());
        assertTrue(e.getMessage().contains(part), () -> "'" + part + "' in: " + e.getMessage());
    }

    @Test
    void theWorkloadAndTheDatabasesShareTheStoreAndItsLoad() throws WorkloadException, DBException {
        JatoWorkload w = init(new JatoWorkload(), "recordcount", "20");
        JatoYcsbDb db = Ycsb.open(props("workload", JatoWorkload.class.getName(), "recordcount", "20"));
        try {
            assertEquals(2, YcsbStore.users());
            assertEquals(20, w.store().table("usertable").single().size(), "loaded once, by the workload");
        } finally {
            db.cleanup();
        }
    }
}
