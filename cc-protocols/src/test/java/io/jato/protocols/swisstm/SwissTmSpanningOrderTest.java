package io.jato.protocols.swisstm;

import io.jato.collections.TxRef;
import io.jato.protocols.mvcc.MvccProtocol;
import io.jato.protocols.suite.Interleaving;
import io.jato.protocols.suite.probe.PausedSwissTmProtocol;
import io.jato.stm.Stm;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In a store that mixes SwissTM with a timestamp-ordered protocol, a spanning commit's order
 * against the other protocol is the spanning-commit clock's, taken after SwissTM's
 * {@code commitTimestamp}; so its SwissTM reads must be validated after the clock, never skipped
 * because the commit counter did not move (docs/mixed-protocols.md). The schedule: T1 reads x
 * (SwissTM) and writes a marker (MVCC); it reads the commit counter and stops before the clock.
 * T2 reads the marker (absent), overwrites x and takes the clock first. With the skip, T1 committed
 * without looking at x again and T2 then validated its read of the marker below T1: both committed,
 * T1 having missed T2's write of x and T2 T1's marker, a cycle. {@code SortedMapPhantomTest} saw
 * it, rarely, under {@code swisstm+mvcc} and {@code mvcc+swisstm}.
 */
@Timeout(60)
class SwissTmSpanningOrderTest {

    @AfterEach
    void noPauses() {
        PausedSwissTmProtocol.pauses = null;
    }

    @Test
    void aSpanningReaderValidatesItsSwissTmReadsAfterTheClock() {
        Stm stm = Stm.builder().protocol(PausedSwissTmProtocol.NAME).objectProtocol(MvccProtocol.NAME)
                .rotateObjectProtocols(true).build();
        // Bound in turn: x to SwissTM, the marker to MVCC, y to SwissTM.
        TxRef<String> x = new TxRef<>(stm, "old");
        TxRef<String> marker = new TxRef<>(stm, null);
        TxRef<String> y = new TxRef<>(stm, "y");
        AtomicReference<String> t1SawX = new AtomicReference<>();
        AtomicReference<String> t2SawMarker = new AtomicReference<>();
        Interleaving il = new Interleaving();
        PausedSwissTmProtocol.pauses = new PausedSwissTmProtocol.Pauses() {
            @Override
            public void afterCommitTimestamp(TxnContext txn, boolean readOnly) {
                if (Thread.currentThread().getName().equals("T1") && txn.attempt() == 0) {
                    il.signal("T1 read the counter");
                    il.await("T2 took the clock");
                }
            }

            @Override
            public void beforeValidate(TxnContext txn, Entry e) {
                if (Thread.currentThread().getName().equals("T2")) {
                    il.signal("T2 took the clock");
                }
            }
        };
        il.thread("T1", () -> stm.run(txn -> {
            t1SawX.set(x.get(txn));
            marker.set(txn, "T1");
        }));
        il.thread("T2", () -> {
            il.await("T1 read the counter");
            stm.run(txn -> {
                y.get(txn);
                t2SawMarker.set(marker.get(txn));
                x.set(txn, "T2");
            });
        });
        il.run();
        assertTrue(il.followedSchedule(), "the schedule did not run as written");
        assertFalse("old".equals(t1SawX.get()) && t2SawMarker.get() == null,
                "both committed, each missing the other's write: T1 read x before T2 and T2 the marker before T1");
    }
}
