package io.jato.jcstress;

import io.jato.stm.internal.occ.OccWord;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.RefItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that {@code OccControl.loadRef} returns only old or new references, that a returned
 * object is seen fully initialised, and that the new reference never comes with the old version.
 * The writer builds a {@link Pair} with plain (non-final) fields set to 2 and installs it with
 * {@code lockNonTx}, {@code installRef} (OCC: {@code setValueRelease}) and
 * {@code unlockNonTx(changed)}: only the item's release/acquire publication makes its fields
 * visible. The reader reports both fields of what {@code loadRef} returned and then the word's TID.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t LoadRefTest}
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "Old value; the write had not been published yet.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "Old value; the write was published after the load.")
@Outcome(id = "2, 2, 1", expect = ACCEPTABLE, desc = "New value under the new version.")
@Outcome(id = "2, 2, 0", expect = FORBIDDEN, desc = "New value returned while the version was still the old one.")
@Outcome(expect = FORBIDDEN,
        desc = "A value seen half-initialised (a field still 0) or mixed: its fields were not published with it.")
@State
public class LoadRefTest {
    /** A value with plain fields: the item's publication is what makes them visible. */
    static final class Pair {
        long first;
        long second;

        Pair(long both) {
            first = both;
            second = both;
        }
    }

    private final RefItem item = new RefItem(new Pair(1));

    @Actor
    public void writer() {
        Occ.write(item, new Pair(2));
    }

    @Actor
    public void reader(JJJ_Result r) {
        Pair p = (Pair) Occ.CC.loadRef(item);
        r.r1 = p.first;
        r.r2 = p.second;
        r.r3 = OccWord.tid(Items.wordAcquire(item));
    }
}
