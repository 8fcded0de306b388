package io.jato.jcstress;

import io.jato.stm.internal.occ.OccWord;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that the lock bit admits one owner: two threads that observed the same unlocked word
 * both try {@code Items.casWord(TxItem, word, word | LOCKED)}, the step with which OCC's commit and
 * {@code lockNonTx} take an item; exactly one succeeds. Results are each actor's CAS result.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t CasWordExclusionTest}
 */
@JCStressTest
@Outcome(id = {"true, false", "false, true"}, expect = ACCEPTABLE, desc = "Exactly one thread locked the item.")
@Outcome(id = "true, true", expect = FORBIDDEN, desc = "Both threads hold the lock: mutual exclusion broken.")
@Outcome(id = "false, false", expect = FORBIDDEN, desc = "Nobody locked an unlocked item: a spurious CAS failure.")
@State
public class CasWordExclusionTest {
    private static final long UNLOCKED = OccWord.wordOf(1);

    private final LongItem item = new LongItem(0);

    public CasWordExclusionTest() {
        Items.setWordPlain(item, UNLOCKED);
    }

    @Actor
    public void first(ZZ_Result r) {
        r.r1 = Items.casWord(item, UNLOCKED, UNLOCKED | OccWord.LOCKED);
    }

    @Actor
    public void second(ZZ_Result r) {
        r.r2 = Items.casWord(item, UNLOCKED, UNLOCKED | OccWord.LOCKED);
    }
}
