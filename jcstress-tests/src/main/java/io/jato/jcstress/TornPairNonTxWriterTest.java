package io.jato.jcstress;

import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that a committed OCC transaction never observes half of a two-item write. A writer
 * locks items {@code x} and {@code y} with the store's {@code OccControl.lockNonTx}, installs 1
 * into both and publishes both with {@code unlockNonTx(changed)}; a transaction reads {@code x}
 * then {@code y} with {@code TxnContext.readLong} and reports the pair only once
 * {@code Stm.atomic} has committed. A mismatched committed pair means validation missed a version
 * change, or a read returned a value that did not belong to the version it recorded.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t TornPairNonTxWriterTest}
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The transaction committed a snapshot from before the write.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The transaction committed a snapshot from after the write.")
@Outcome(id = {"0, 1", "1, 0"}, expect = FORBIDDEN,
        desc = "Torn read committed: one item before the write and the other after it.")
@Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
@State
public class TornPairNonTxWriterTest {
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    @Actor
    public void writer() {
        ConcurrencyControl cc = Txns.STORE.concurrencyControl();
        long wx = cc.lockNonTx(x);
        long wy = cc.lockNonTx(y);
        cc.installLong(x, 1);
        cc.installLong(y, 1);
        cc.unlockNonTx(x, wx, true, false);
        cc.unlockNonTx(y, wy, true, false);
    }

    @Actor
    public void reader(JJ_Result r) {
        long[] pair = Txns.readCommitted(x, y);
        r.r1 = pair[0];
        r.r2 = pair[1];
    }
}
