package io.jato.jcstress;

import io.jato.stm.spi.RefItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * MVCC's collector against a snapshot walking a version chain. {@code x} and {@code y} were both
 * written 1, then 2, before the actors start, so each has old versions. A writer commits 3, begins
 * an empty snapshot (which advances the horizon) and commits 4, and each of its pushes cuts the
 * versions that ended at or below the horizon; the other thread reads both items at its snapshot
 * (its begin advances the horizon too). Whatever the interleaving, the reader must see one
 * committed pair. A cut that removed a version its snapshot still needed shows as "no version
 * visible" (-1: a reference item's snapshot read answers that where a long item's would retry), as
 * a pair from two commits, or as a value nobody wrote at the time (1, or the initial 0).
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t MvccCutVsSnapshotTest}
 */
@JCStressTest
@Outcome(id = {"2, 2", "3, 3", "4, 4"}, expect = ACCEPTABLE, desc = "One committed pair.")
@Outcome(expect = FORBIDDEN, desc = "Torn, or a version the collector should have kept for the snapshot.")
@State
public class MvccCutVsSnapshotTest {
    private final RefItem x = new RefItem(0L);
    private final RefItem y = new RefItem(0L);

    public MvccCutVsSnapshotTest() {
        MvccTxns.writeBothRefs(x, y, 1);
        MvccTxns.writeBothRefs(x, y, 2);
    }

    @Actor
    public void writer() {
        MvccTxns.writeBothRefs(x, y, 3);
        // Advances the horizon (no snapshot of this thread holds it back), so that the next push
        // may cut what it passed.
        MvccTxns.emptySnapshot();
        MvccTxns.writeBothRefs(x, y, 4);
    }

    @Actor
    public void reader(JJ_Result r) {
        long[] pair = MvccTxns.readSnapshotRefs(x, y);
        r.r1 = pair[0];
        r.r2 = pair[1];
    }
}
