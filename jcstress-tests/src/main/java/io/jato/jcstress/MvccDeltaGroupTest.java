package io.jato.jcstress;

import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * MVCC's delta versions: two transactions each add 1 to {@code x} and {@code y} without reading
 * them (each add opens or joins the item's delta group; the last member flattens it); the second
 * actor first reads both in a snapshot, while the first actor's adds may be in an open group. The
 * snapshot must see the first actor's add in both items or in neither (the adds at or below its
 * timestamp, summed exactly), and both actors' adds must end up in place. r1, r2 = the snapshot's
 * x and y; r3, r4 = x and y at the end.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t MvccDeltaGroupTest}
 */
@JCStressTest
@Outcome(id = {"0, 0, 2, 2", "1, 1, 2, 2"}, expect = ACCEPTABLE,
        desc = "The snapshot is before or after the first actor's adds, in both items.")
@Outcome(id = {"0, 1, .*", "1, 0, .*"}, expect = FORBIDDEN,
        desc = "Torn snapshot: a delta counted in one item and not the other.")
@Outcome(expect = FORBIDDEN, desc = "An add lost or counted twice.")
@State
public class MvccDeltaGroupTest {
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    @Actor
    public void adder1() {
        MvccTxns.addBoth(x, y, 1);
    }

    @Actor
    public void snapshotThenAdder2(JJJJ_Result r) {
        long[] pair = MvccTxns.readSnapshot(x, y);
        r.r1 = pair[0];
        r.r2 = pair[1];
        MvccTxns.addBoth(x, y, 1);
    }

    @Arbiter
    public void arbiter(JJJJ_Result r) {
        r.r3 = MvccTxns.STORE.concurrencyControl().loadLong(x);
        r.r4 = MvccTxns.STORE.concurrencyControl().loadLong(y);
    }
}
