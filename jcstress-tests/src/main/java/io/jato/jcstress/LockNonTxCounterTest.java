package io.jato.jcstress;

import io.jato.stm.internal.occ.OccWord;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that {@code lockNonTx}/{@code unlockNonTx} form a critical section: two threads each
 * lock the item, read the value ({@code lockedLong}), install value + 1 ({@code installLong}) and
 * unlock with a new version. The arbiter reports {@code value, tid, locked}: both increments
 * survive, each unlock added one version and no lock is left behind.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t LockNonTxCounterTest}
 */
@JCStressTest
@Outcome(id = "2, 2, 0", expect = ACCEPTABLE, desc = "Both increments and both new versions, item unlocked.")
@Outcome(id = "1, .*", expect = FORBIDDEN, desc = "Lost update: both threads were inside the critical section.")
@Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "A lock was left held.")
@Outcome(expect = FORBIDDEN, desc = "A value or version count nobody produced.")
@State
public class LockNonTxCounterTest {
    private final LongItem item = new LongItem(0);

    @Actor
    public void first() {
        increment();
    }

    @Actor
    public void second() {
        increment();
    }

    private void increment() {
        long lockedWord = Occ.CC.lockNonTx(item);
        Occ.CC.installLong(item, Occ.CC.lockedLong(item) + 1);
        Occ.CC.unlockNonTx(item, lockedWord, true, false);
    }

    @Arbiter
    public void arbiter(JJJ_Result r) {
        long w = Items.wordAcquire(item);
        r.r1 = item.valueAcquire();
        r.r2 = OccWord.tid(w);
        r.r3 = OccWord.isLocked(w) ? 1 : 0;
    }
}
