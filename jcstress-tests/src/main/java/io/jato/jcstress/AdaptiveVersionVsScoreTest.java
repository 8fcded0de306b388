package io.jato.jcstress;

import io.jato.protocols.adaptive.ModeWord;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JIZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that the adaptive lock's lock holder and its score updaters share the mode word without
 * losing each other's change: one actor writes the item outside a transaction (it takes the
 * exclusive lock, increments the version in the mode word, releases), the other counts a conflict
 * on it at the same moment (a CAS of the score and the mode bit, by a thread holding no lock). If
 * the holder stored its word instead of CASing it, or the updater overwrote the version, one of
 * them would be lost. Results: the final version, the final score, and whether the item is
 * pessimistic (a conflict with thresholds 4/3 turns it so).
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t AdaptiveVersionVsScoreTest}
 */
@JCStressTest
@Outcome(id = "1, 4, true", expect = ACCEPTABLE, desc = "Both kept: one new version, one conflict, pessimistic.")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "The holder's version increment was lost.")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "The conflict was lost.")
@Outcome(expect = FORBIDDEN, desc = "Any other result.")
@State
public class AdaptiveVersionVsScoreTest {
    private final LongItem x = new LongItem(0);

    @Actor
    public void holder() {
        ConcurrencyControl cc = LockTxns.ADAPTIVE_CC;
        long w = cc.lockNonTx(x);
        cc.installLong(x, 1);
        cc.unlockNonTx(x, w, true, false);
    }

    @Actor
    public void updater() {
        LockTxns.ADAPTIVE_CC.recordConflict(x);
    }

    @Arbiter
    public void arbiter(JIZ_Result r) {
        long m = Items.word2Acquire(x);
        r.r1 = ModeWord.version(m);
        r.r2 = ModeWord.score(m);
        r.r3 = ModeWord.isPessimistic(m);
    }
}
