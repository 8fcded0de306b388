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
 * Proves that 2PL's reader-writer lock word ({@code RwLockWord}) lets at most one of two shared
 * holders upgrade: two transactions each read x (a shared lock: the reader count goes to 2) and
 * then write it (an upgrade, which needs the count to be exactly its own 1). Under no-wait a
 * refused upgrade aborts, releases the shared lock and retries. If both upgrades succeeded — a lost
 * reader-count increment, or a writer bit set beside a reader — both would commit {@code 0 + 1}: a
 * lost update. Results: what each committed attempt read, the final x, and 1 if x's word is
 * free again (no reader, no writer, no age), else 0.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t RwLockUpgradeTest}
 */
@JCStressTest
@Outcome(id = "0, 1, 2, 1", expect = ACCEPTABLE, desc = "The first upgraded and committed; the second read its 1.")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE, desc = "The second upgraded and committed; the first read its 1.")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "Lost update: both upgraded from the same shared state.")
@Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "The lock word was left held (a reader count or writer bit leaked).")
@Outcome(expect = FORBIDDEN, desc = "Any other result.")
@State
public class RwLockUpgradeTest {
    private final LongItem x = new LongItem(0);

    @Actor
    public void t1(JJJJ_Result r) {
        r.r1 = LockTxns.increment(LockTxns.TWO_PL, x);
    }

    @Actor
    public void t2(JJJJ_Result r) {
        r.r2 = LockTxns.increment(LockTxns.TWO_PL, x);
    }

    @Arbiter
    public void arbiter(JJJJ_Result r) {
        r.r3 = x.valueAcquire();
        r.r4 = LockTxns.TWO_PL.concurrencyControl().checkQuiescent(x) == null ? 1 : 0;
    }
}
