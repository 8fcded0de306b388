package io.jato.jcstress;

import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that the adaptive lock stays serializable while its items switch modes under running
 * transactions. T1 reads x and writes y, T2 reads y and writes x (the write-skew pair); between
 * its read and its write each turns the item it read pessimistic (one conflict, with thresholds 4
 * and 3), and every committed write (a quiet event) and every conflict the two meet moves the
 * modes again. So a read taken optimistically has a pessimistic item by the commit, the other's
 * write then locks that item at access, and a retry reads it under a shared lock. If a read taken
 * optimistically escaped validation because its item switched, both could commit on the initial
 * values (write skew). Results: the value each committed attempt read, and whether both items are free
 * and their mode agrees with their score.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t AdaptiveModeSwitchTest}
 */
@JCStressTest
@Outcome(id = "0, 1, true", expect = ACCEPTABLE, desc = "T1 serialized first: T2 read T1's y.")
@Outcome(id = "1, 0, true", expect = ACCEPTABLE, desc = "T2 serialized first: T1 read T2's x.")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "Write skew: a read's validation was lost in a mode switch.")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "Each read the other's write: no serial order.")
@Outcome(id = ".*, false", expect = FORBIDDEN, desc = "An item was left locked, or its mode disagrees with its score.")
@State
public class AdaptiveModeSwitchTest {
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    @Actor
    public void t1(JJZ_Result r) {
        r.r1 = LockTxns.readSwitchThenWrite(x, y);
    }

    @Actor
    public void t2(JJZ_Result r) {
        r.r2 = LockTxns.readSwitchThenWrite(y, x);
    }

    @Arbiter
    public void arbiter(JJZ_Result r) {
        r.r3 = LockTxns.quiescent(LockTxns.ADAPTIVE, x, y);
    }
}
