package io.jato.protocols.suite;

import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import io.jato.stm.TxnFunction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inconsistent (torn) read: x and y are always written together with equal values; a reader must
 * never commit having seen them differ. Scheduled: the reader reads x, a writer sets x = y = 1 and
 * commits, the reader reads y. A reader body that throws because it saw x != y read an
 * inconsistent snapshot, so the store must retry it rather than report the exception.
 */
@Timeout(120)
class TornReadTest {
    private static final String SOURCE = "io.jato.protocols.suite.Cells#protocolsAndKinds";

    /** Thrown by a reader body that saw x != y. */
    static final class TornRead extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TornRead(long x, long y) {
            super("saw x = " + x + ", y = " + y);
        }
    }

    /**
     * The scheduled scenario.
     *
     * @param readOnly        run the reader as a declared read-only transaction
     * @param throwOnMismatch the reader body throws {@link TornRead} when it sees x != y
     */
    static Outcome scenario(Stm stm, String kind, boolean readOnly, boolean throwOnMismatch) {
        Cells[] c = Cells.create(kind, stm, 0, 0);
        AtomicLong mismatches = new AtomicLong();
        AtomicReference<long[]> committed = new AtomicReference<>();
        AtomicReference<Throwable> escaped = new AtomicReference<>();
        StmStatistics before = stm.statistics();
        Interleaving il = new Interleaving();
        TxnFunction<long[]> reader = txn -> {
            long x = c[0].get(txn);
            if (txn.attempt() == 0) {
                il.signal("R read x");
                il.await("W committed");
            }
            long y = c[1].get(txn);
            if (x != y) {
                mismatches.incrementAndGet();
                if (throwOnMismatch) {
                    throw new TornRead(x, y);
                }
            }
            return new long[] {x, y};
        };
        il.thread("R", () -> {
            try {
                committed.set(readOnly ? stm.readOnly(reader) : stm.atomic(reader));
            } catch (TornRead e) {
                escaped.set(e);
            }
        });
        il.thread("W", () -> {
            il.await("R read x");
            stm.run(txn -> {
                c[0].set(txn, 1);
                c[1].set(txn, 1);
            });
            il.signal("W committed");
        });
        il.run();
        String anomaly = null;
        long[] pair = committed.get();
        if (escaped.get() != null) {
            anomaly = "the reader's exception on an inconsistent snapshot escaped instead of being retried: "
                    + escaped.get().getMessage();
        } else if (pair[0] != pair[1]) {
            anomaly = "the reader committed a torn pair x = " + pair[0] + ", y = " + pair[1];
        } else if (throwOnMismatch) {
            long retried = stm.statistics().minus(before).aborts(AbortCause.INCONSISTENT_READ);
            if (retried != mismatches.get()) {
                anomaly = "the body threw on " + mismatches.get() + " inconsistent snapshots but "
                        + retried + " attempts were counted as INCONSISTENT_READ";
            }
        }
        return new Outcome("torn read on " + kind + " under " + stm.protocol()
                + (readOnly ? ", read-only reader" : "") + (throwOnMismatch ? ", throwing reader" : ""),
                anomaly, il.followedSchedule(), Quiescence.problems((Object[]) c));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void aReaderNeverCommitsATornPair(String protocol, String kind) {
        scenario(Protocols.store(protocol), kind, false, false).assertCorrect();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void aReadOnlyReaderNeverCommitsATornPair(String protocol, String kind) {
        scenario(Protocols.store(protocol), kind, true, false).assertCorrect();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void anExceptionThrownOnATornSnapshotIsRetriedNotReported(String protocol, String kind) {
        scenario(Protocols.store(protocol), kind, false, true).assertCorrect();
        scenario(Protocols.store(protocol), kind, true, true).assertCorrect();
    }

    /**
     * Unscheduled: two writers keep setting every cell to the same new value; readers (one
     * read-only, one not) throw on any difference, and such an exception must never come out.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(SOURCE)
    void readersNeverSeeATornPairUnderContention(String protocol, String kind) {
        Stm stm = Protocols.store(protocol);
        Cells[] c = Cells.create(kind, stm, 0, 0, 0);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100L * Protocols.scale());
        int minimum = 100;
        AtomicLong reads = new AtomicLong();
        AtomicLong writes = new AtomicLong();
        AtomicInteger readersLeft = new AtomicInteger(2);
        Interleaving il = new Interleaving();
        for (int w = 0; w < 2; w++) {
            long step = w + 1;
            il.thread("writer-" + w, () -> {
                for (long i = step; readersLeft.get() > 0; i += 2) {
                    long v = i;
                    stm.run(txn -> {
                        for (Cells cell : c) {
                            cell.set(txn, v);
                            Thread.yield();
                        }
                    });
                    writes.incrementAndGet();
                }
            });
        }
        for (int r = 0; r < 2; r++) {
            boolean readOnly = r == 0;
            il.thread("reader-" + r, () -> {
                TxnFunction<Long> read = txn -> {
                    long first = c[0].get(txn);
                    for (int i = 1; i < c.length; i++) {
                        long v = c[i].get(txn);
                        if (v != first) {
                            throw new TornRead(first, v);
                        }
                    }
                    return first;
                };
                try {
                    // Until the deadline, and in any case until both sides did a minimum of work (a
                    // loaded machine may start some threads late).
                    for (int n = 0; n < minimum || writes.get() < minimum || System.nanoTime() - deadline < 0; n++) {
                        long seen = readOnly ? stm.readOnly(read) : stm.atomic(read);
                        assertTrue(seen >= 0);
                        reads.incrementAndGet();
                    }
                } catch (TornRead e) {
                    throw new AssertionError("a reader's exception on an inconsistent snapshot was reported"
                            + " instead of retried", e);
                } finally {
                    readersLeft.decrementAndGet();
                }
            });
        }
        il.run();
        assertTrue(reads.get() >= 2 * minimum && writes.get() >= minimum, () -> reads + " reads, " + writes + " writes");
        long v = c[0].committed();
        for (Cells cell : c) {
            assertEquals(v, cell.committed());
        }
        StmStatistics st = stm.statistics();
        assertEquals(st.starts(), st.commits() + st.aborts(), st::toString);
        assertEquals(0, st.aborts(AbortCause.USER_EXCEPTION), st::toString);
        Quiescence.assertQuiescent((Object[]) c);
    }
}
