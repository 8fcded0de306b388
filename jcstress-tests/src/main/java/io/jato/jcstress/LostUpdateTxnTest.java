package io.jato.jcstress;

import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that OCC transactions do not lose updates: two transactions each read a fresh
 * {@code LongItem} and write the value + 1 (through {@code TxnContext.readLong}/{@code writeLong}
 * in {@code Stm.run}, which retries on conflict). The arbiter reports the final value and whether
 * the item is quiescent ({@code checkQuiescent}: unlocked, well-formed word).
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t LostUpdateTxnTest}
 */
@JCStressTest
@Outcome(id = "2, true", expect = ACCEPTABLE, desc = "Both increments committed; no lock left behind.")
@Outcome(id = "1, true", expect = FORBIDDEN, desc = "Lost update: both transactions committed on the same read.")
@Outcome(id = ".*, false", expect = FORBIDDEN, desc = "The item was left locked or with a malformed word.")
@Outcome(expect = FORBIDDEN, desc = "A value no sequence of increments produces.")
@State
public class LostUpdateTxnTest {
    private final LongItem x = new LongItem(0);

    @Actor
    public void first() {
        Txns.increment(x);
    }

    @Actor
    public void second() {
        Txns.increment(x);
    }

    @Arbiter
    public void arbiter(JZ_Result r) {
        r.r1 = Txns.STORE.concurrencyControl().loadLong(x);
        r.r2 = Txns.STORE.concurrencyControl().checkQuiescent(x) == null;
    }
}
