package io.jato.jcstress;

import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that the commit driver installs a multi-item write atomically for optimistic readers. A
 * transaction writes 1 to items {@code x} and {@code y} (lock both, take a TID, install, publish);
 * a concurrent transaction reads {@code x} then {@code y} and reports the pair only once it has
 * committed. A mismatched committed pair means a reader saw an installed value before its new
 * version was published, or validation accepted a stale version.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t TornPairTxnWriterTest}
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The reader serialized before the writer.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The reader serialized after the writer.")
@Outcome(id = {"0, 1", "1, 0"}, expect = FORBIDDEN,
        desc = "Torn read committed: the reader saw only one of the writer's two writes.")
@Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
@State
public class TornPairTxnWriterTest {
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    @Actor
    public void writer() {
        Txns.writeBoth(x, y, 1);
    }

    @Actor
    public void reader(JJ_Result r) {
        long[] pair = Txns.readCommitted(x, y);
        r.r1 = pair[0];
        r.r2 = pair[1];
    }
}
