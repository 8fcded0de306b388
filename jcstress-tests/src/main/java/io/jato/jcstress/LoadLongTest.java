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
 * Proves that {@code OccControl.loadLong}, the optimistic non-transactional read, returns only
 * a committed value and never runs ahead of the version that publishes it. A writer does
 * {@code lockNonTx}, {@code installLong(1)} (OCC: {@code setValueRelease}) and
 * {@code unlockNonTx(changed)}; the reader calls {@code loadLong} and then reads the word's TID.
 * Having returned the new value, the reader must not find the old TID afterwards (the value it
 * returned was bracketed by the new word).
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t LoadLongTest}
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Old value; the write had not been published yet.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Old value; the write was published after the load.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "New value under the new version.")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "New value returned while the version was still the old one.")
@Outcome(expect = FORBIDDEN, desc = "A value or version nobody wrote.")
@State
public class LoadLongTest {
    private final LongItem item = new LongItem(0);

    @Actor
    public void writer() {
        Occ.write(item, 1);
    }

    @Actor
    public void reader(JJ_Result r) {
        r.r1 = Occ.CC.loadLong(item);
        r.r2 = OccWord.tid(Items.wordAcquire(item));
    }
}
