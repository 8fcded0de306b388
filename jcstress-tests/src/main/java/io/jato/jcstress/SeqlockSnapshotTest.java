package io.jato.jcstress;

import io.jato.stm.internal.occ.OccWord;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves the seqlock invariant of the OCC word (OccWord invariant 2): a reader that loads the
 * word, the value and the word again (each with acquire) and finds the two words equal and
 * unlocked holds a value that belongs to that word's TID. The writer is the non-transactional
 * write path: {@code lockNonTx}, {@code installLong(1)} (OCC: {@code setValueRelease}),
 * {@code unlockNonTx(changed)}. Results are {@code tid, value} of a consistent snapshot, or
 * {@code -1, -1} when the reader would have to retry.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t SeqlockSnapshotTest}
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Consistent snapshot of the old version.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Consistent snapshot of the new version.")
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "Word locked or changed during the read: the reader retries.")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "The new version was published before its value was visible.")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "The new value was visible while the old word still looked unlocked.")
@Outcome(expect = FORBIDDEN, desc = "A version or value nobody wrote.")
@State
public class SeqlockSnapshotTest {
    private final LongItem item = new LongItem(0);

    @Actor
    public void writer() {
        Occ.write(item, 1);
    }

    @Actor
    public void reader(JJ_Result r) {
        long before = Items.wordAcquire(item);
        long value = item.valueAcquire();
        long after = Items.wordAcquire(item);
        if (before == after && !OccWord.isLocked(before)) {
            r.r1 = OccWord.tid(before);
            r.r2 = value;
        } else {
            r.r1 = -1;
            r.r2 = -1;
        }
    }
}
