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
 * MVCC's version install against a snapshot: a transaction writes 1 to {@code x} and {@code y}
 * (lock, push each old value onto its chain as PENDING, install in place, publish end, rts and word)
 * while a declared read-only transaction reads both at its snapshot without validating anything.
 * Whatever the snapshot's timestamp, it must see both old values or both new ones: a mismatch means
 * a snapshot read a value in place before its version was published, or a chain version whose end
 * it misjudged.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t MvccSnapshotInstallTest}
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The snapshot is before the writer.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The snapshot is after the writer.")
@Outcome(id = {"0, 1", "1, 0"}, expect = FORBIDDEN, desc = "Torn snapshot: one of the writer's two versions.")
@Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
@State
public class MvccSnapshotInstallTest {
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    @Actor
    public void writer() {
        MvccTxns.writeBoth(x, y, 1);
    }

    @Actor
    public void snapshot(JJ_Result r) {
        long[] pair = MvccTxns.readSnapshot(x, y);
        r.r1 = pair[0];
        r.r2 = pair[1];
    }
}
