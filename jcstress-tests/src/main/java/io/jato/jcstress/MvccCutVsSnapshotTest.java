package io.jato.jcstress;

import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * MVCC's collector against a snapshot walking a version chain. {@code x} and {@code y} were both
 * written 1, then 2, before the actors start, so each has old versions. A writer commits 3 and then
 * 4 to both, and each of its pushes cuts the versions that ended at or below the horizon; another
 * thread begins snapshots, each of which advances the horizon; a third reads both items at its
 * snapshot. Whatever the interleaving, the reader must see one committed pair: a cut that removed a
 * version its snapshot still needed shows as a pair from two commits, or as a value nobody wrote
 * at the time (1, or the initial 0).
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t MvccCutVsSnapshotTest}
 */
@JCStressTest
@Outcome(id = {"2, 2", "3, 3", "4, 4"}, expect = ACCEPTABLE, desc = "One committed pair.")
@Outcome(expect = FORBIDDEN, desc = "Torn, or a version the collector should have kept for the snapshot.")
@State
public class MvccCutVsSnapshotTest {
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    public MvccCutVsSnapshotTest() {
        MvccTxns.writeBoth(x, y, 1);
        MvccTxns.writeBoth(x, y, 2);
    }

    @Actor
    public void writer() {
        MvccTxns.writeBoth(x, y, 3);
        MvccTxns.writeBoth(x, y, 4);
    }

    @Actor
    public void advancer() {
        MvccTxns.emptySnapshot();
        MvccTxns.emptySnapshot();
    }

    @Actor
    public void reader(JJ_Result r) {
        long[] pair = MvccTxns.readSnapshot(x, y);
        r.r1 = pair[0];
        r.r2 = pair[1];
    }
}
