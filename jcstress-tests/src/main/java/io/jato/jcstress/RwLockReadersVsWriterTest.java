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
 * Proves that 2PL's lock word keeps a reader and a writer apart: one transaction reads x then y
 * under shared locks while another writes 1 to both under exclusive locks (the store runs no-wait,
 * so either may abort and retry). The reader must see both items before the
 * write (00) or both after it (11), never one of each; and when both are done both words must be
 * free (a lost reader-count update would leave a reader behind or underflow the count; that two
 * readers join and leave exactly is {@link RwLockUpgradeTest}'s). Results: the reader's
 * {@code x * 10 + y}, and whether both words are free.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t RwLockReadersVsWriterTest}
 */
@JCStressTest
@Outcome(id = "0, true", expect = ACCEPTABLE, desc = "The reader serialized wholly before the writer.")
@Outcome(id = "11, true", expect = ACCEPTABLE, desc = "The reader serialized wholly after the writer.")
@Outcome(id = {"1, .*", "10, .*"}, expect = FORBIDDEN,
        desc = "Torn read: a shared lock coexisted with the writer's exclusive lock.")
@Outcome(id = ".*, false", expect = FORBIDDEN, desc = "A lock word was left held or marked.")
@State
public class RwLockReadersVsWriterTest {
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    @Actor
    public void reader(JZ_Result r) {
        r.r1 = LockTxns.readPair(LockTxns.TWO_PL, x, y);
    }

    @Actor
    public void writer() {
        LockTxns.writePair(LockTxns.TWO_PL, x, y);
    }

    @Arbiter
    public void arbiter(JZ_Result r) {
        r.r2 = LockTxns.quiescent(LockTxns.TWO_PL, x, y);
    }
}
