package io.jato.protocols.records;

import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.protocols.suite.Quiescence;
import io.jato.records.CommitUpdater;
import io.jato.records.RecordLayout;
import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The in-place read of a record group (generated getter: {@code observe}, plain field loads,
 * {@code TxnContext.checkRead}) racing writers that keep every column in an invariant:
 * {@code balance == ops == flags} and {@code owner == "o" + flags}. Writers set all four columns
 * from an in-place read, apply commit-time updaters to both groups, or store a whole image
 * outside any transaction. Readers check each group the moment they have read it, inside the
 * transaction body: an in-place read must never return a torn group, not even in an attempt that
 * is doomed to abort (checkRead aborts as soon as the group changed since it was observed). Across
 * groups of the split layout only committed results are checked (a transaction may see two groups
 * at different versions and then fail validation); in the coarse layout every group shares one
 * version, so the whole record is checked in the body too. Non-transactional snapshots are
 * checked as well.
 */
@Timeout(120)
class RecordInPlaceReadStressTest {
    private static final long MILLIS = 200;
    private static final int MIN_WRITES = 200;
    private static final int MIN_READS = 200;

    /** Bumps the default group consistently: flags + 1 and the owner that names it. */
    @CommitUpdater(record = AccountSpec.class)
    public static final class BumpDefault implements Account.Updater {
        @Override
        public void apply(Account.Image r) {
            int f = r.flags() + 1;
            r.setFlags(f);
            r.setOwner("o" + f);
        }
    }

    static Stream<Arguments> cases() {
        return Protocols.all().flatMap(p -> Stream.of(RecordLayout.values()).map(l -> Arguments.of(p, l)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void inPlaceReadersNeverSeeATornGroup(String protocol, RecordLayout layout) {
        Stm stm = Protocols.store(protocol);
        Account a = Account.create(stm, layout, new Account.Image().setOwner("o0").setFlags(0).setBalance(0).setOps(0));
        boolean coarse = layout == RecordLayout.COARSE;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MILLIS * Protocols.scale());
        AtomicReference<String> torn = new AtomicReference<>();
        AtomicLong writes = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        AtomicLong writersLeft = new AtomicLong(1);
        Interleaving il = new Interleaving();
        il.thread("writer", () -> {
            SplittableRandom rnd = new SplittableRandom(1);
            try {
                for (int n = 0; n < MIN_WRITES || System.nanoTime() < deadline; n++) {
                    int mode = rnd.nextInt(4);
                    if (mode == 0) {
                        stm.run(t -> {
                            int v = a.ops(t) + 1;
                            a.setBalance(t, v);
                            a.setOps(t, v);
                            a.setFlags(t, v);
                            a.setOwner(t, "o" + v);
                        });
                    } else if (mode == 1) {
                        // Setters in the other order, the default group first, from a read of it.
                        stm.run(t -> {
                            int v = a.flags(t) + 1;
                            a.setOwner(t, "o" + v);
                            a.setFlags(t, v);
                            a.setOps(t, v);
                            a.setBalance(t, v);
                        });
                    } else if (mode == 2) {
                        stm.run(t -> {
                            a.update(t, new Deposit(1));
                            a.update(t, new BumpDefault());
                        });
                    } else {
                        int v = rnd.nextInt(1_000_000);
                        a.single().set(new Account.Image().setOwner("o" + v).setFlags(v).setBalance(v).setOps(v));
                    }
                    writes.incrementAndGet();
                }
            } finally {
                writersLeft.decrementAndGet();
            }
        });
        for (int r = 0; r < 2; r++) {
            int reader = r;
            il.thread("reader-" + r, () -> {
                for (int n = 0; n < MIN_READS || writersLeft.get() > 0; n++) {
                    int mode = (n + reader) % 4;
                    long[] seen;
                    if (mode == 0) {
                        seen = stm.atomic(t -> {
                            long b = a.balance(t);
                            int o = a.ops(t);
                            hot(torn, b, o, "balance then ops");
                            int f = a.flags(t);
                            String ow = a.owner(t);
                            other(torn, f, ow, "flags then owner");
                            if (coarse) {
                                whole(torn, b, f, "coarse, in the body");
                            }
                            return new long[] {b, o, f};
                        });
                    } else if (mode == 1) {
                        seen = stm.readOnly(t -> {
                            String ow = a.owner(t);
                            int f = a.flags(t);
                            other(torn, f, ow, "owner then flags, read-only");
                            int o = a.ops(t);
                            long b = a.balance(t);
                            hot(torn, b, o, "ops then balance, read-only");
                            if (coarse) {
                                whole(torn, b, f, "coarse, in the read-only body");
                            }
                            return new long[] {b, o, f};
                        });
                    } else if (mode == 2) {
                        // One group per transaction, repeatedly read: the same version every time.
                        seen = stm.atomic(t -> {
                            long b1 = a.balance(t);
                            int o1 = a.ops(t);
                            long b2 = a.balance(t);
                            int o2 = a.ops(t);
                            if (b1 != b2 || o1 != o2) {
                                torn.compareAndSet(null, "a group read twice changed: " + b1 + "/" + o1 + " then "
                                        + b2 + "/" + o2);
                            }
                            hot(torn, b1, o1, "hot group alone");
                            return new long[] {b1, o1, o1};
                        });
                    } else {
                        Account.Image im = a.single().get();
                        hot(torn, im.balance(), im.ops(), "non-transactional snapshot");
                        other(torn, im.flags(), im.owner(), "non-transactional snapshot");
                        seen = new long[] {im.balance(), im.ops(), im.flags()};
                    }
                    whole(torn, seen[0], seen[2], "committed (mode " + mode + ")");
                    reads.incrementAndGet();
                }
            });
        }
        il.run(60_000);

        assertNull(torn.get(), () -> protocol + " " + layout + ": " + torn.get());
        assertTrue(writes.get() >= MIN_WRITES && reads.get() >= 2L * MIN_READS, () -> writes + " writes, " + reads + " reads");
        Account.Image last = a.single().get();
        assertEquals(last.balance(), last.ops());
        assertEquals(last.balance(), last.flags());
        assertEquals("o" + last.flags(), last.owner());
        Quiescence.assertQuiescent(a);
        StmStatistics st = stm.statistics();
        assertEquals(st.starts(), st.commits() + st.aborts(), st::toString);
        assertEquals(0, st.aborts(AbortCause.USER_EXCEPTION) + st.aborts(AbortCause.INTERNAL_FAILURE), st::toString);
    }

    private static void hot(AtomicReference<String> torn, long balance, int ops, String how) {
        if (balance != ops) {
            torn.compareAndSet(null, "torn hot group (" + how + "): balance " + balance + ", ops " + ops);
        }
    }

    private static void other(AtomicReference<String> torn, int flags, String owner, String how) {
        if (!("o" + flags).equals(owner)) {
            torn.compareAndSet(null, "torn default group (" + how + "): flags " + flags + ", owner " + owner);
        }
    }

    private static void whole(AtomicReference<String> torn, long balance, long flags, String how) {
        if (balance != flags) {
            torn.compareAndSet(null, "groups disagree (" + how + "): balance " + balance + ", flags " + flags);
        }
    }
}
