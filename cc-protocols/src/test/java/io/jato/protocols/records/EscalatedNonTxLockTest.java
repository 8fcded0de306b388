package io.jato.protocols.records;

import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.Protocols;
import io.jato.protocols.suite.Quiescence;
import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An escalated transaction against non-transactional operations that lock several items.
 * {@code single().get()} of a split record locks its groups one after the other and waits for
 * each while holding the ones before it. An escalated transaction waits for holders instead of
 * aborting (docs/lock-family.md); before that wait was bounded
 * ({@code TxnContext.escalatedWaits}), an escalated writer that held one group at commit and
 * waited to validate its read of the other could meet a snapshot holding that other group and
 * waiting for the first: both waited forever ({@code RecordInPlaceReadStressTest} hung on
 * {@code occ+tictoc} and {@code maat+occ}). Here two writers read one group and write the other,
 * crosswise, in a store that escalates after one abort, beside two threads taking snapshots; every
 * thread must finish. Since ConcurrencyControl.tryLockNonTx a snapshot no longer waits while it
 * holds a group, so the meeting costs the committer no wait at all on the built-in protocols
 * (NonTxGroupLockTest.anEscalatedCommitterIsNotHeldByASnapshot); the bound still guards a protocol
 * that keeps the waiting default.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EscalatedNonTxLockTest {
    private static final long MILLIS = 600;

    static Stream<String> protocols() {
        return Protocols.singles();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void escalatedWritersAndMultiGroupSnapshotsNeverDeadlock(String protocol) {
        Stm stm = Protocols.builder(protocol).escalateAfter(1).build();
        Account a = Account.create(stm, RecordLayout.SPLIT,
                new Account.Image().setOwner("o0").setFlags(0).setBalance(0).setOps(0));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MILLIS * Protocols.scale());
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong commits = new AtomicLong();
        AtomicLong snapshots = new AtomicLong();
        Interleaving il = new Interleaving();
        il.thread("reads-flags-writes-balance", () -> {
            try {
                while (System.nanoTime() < deadline) {
                    stm.run(t -> {
                        int f = a.flags(t);
                        a.setBalance(t, f + 1L);
                        a.setOps(t, f + 1);
                    });
                    commits.incrementAndGet();
                }
            } finally {
                writing.set(false);
            }
        });
        il.thread("reads-balance-writes-flags", () -> {
            while (writing.get()) {
                stm.run(t -> {
                    long b = a.balance(t);
                    a.setFlags(t, (int) b + 1);
                    a.setOwner(t, "o" + (b + 1));
                });
                commits.incrementAndGet();
            }
        });
        for (int r = 0; r < 2; r++) {
            il.thread("snapshots-" + r, () -> {
                while (writing.get()) {
                    Account.Image im = a.single().get();
                    if (im.balance() != im.ops()) {
                        throw new AssertionError("a torn snapshot: balance " + im.balance() + ", ops " + im.ops());
                    }
                    snapshots.incrementAndGet();
                }
            });
        }
        il.run(60_000);
        assertTrue(commits.get() > 0 && snapshots.get() > 0, () -> commits + " commits, " + snapshots + " snapshots");
        Quiescence.assertQuiescent(a);
    }
}
