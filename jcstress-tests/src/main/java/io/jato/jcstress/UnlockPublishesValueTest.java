package io.jato.jcstress;

import io.jato.stm.internal.occ.OccWord;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that {@code unlockNonTx(changed = true)} publishes the value written under the lock: a
 * thread that acquires the new, unlocked word and then loads the value sees the new value. The
 * writer does {@code lockNonTx}, {@code installLong(1)} (OCC: {@code setValueRelease}) and
 * {@code unlockNonTx(changed)}; the reader loads the word (acquire) then the value (acquire) and
 * reports {@code tid, locked, value}.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t UnlockPublishesValueTest}
 */
@JCStressTest
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "New version, and the value it publishes.")
@Outcome(id = "1, 0, 0", expect = FORBIDDEN, desc = "New version visible before the value written under the lock.")
@Outcome(id = "0, [01], [01]", expect = ACCEPTABLE,
        desc = "Old or locked word: the value may be either (an optimistic reader re-checks the word).")
@Outcome(expect = FORBIDDEN, desc = "A version, lock state or value nobody wrote.")
@State
public class UnlockPublishesValueTest {
    private final LongItem item = new LongItem(0);

    @Actor
    public void writer() {
        Occ.write(item, 1);
    }

    @Actor
    public void reader(JJJ_Result r) {
        long w = Items.wordAcquire(item);
        r.r1 = OccWord.tid(w);
        r.r2 = OccWord.isLocked(w) ? 1 : 0;
        r.r3 = item.valueAcquire();
    }
}
