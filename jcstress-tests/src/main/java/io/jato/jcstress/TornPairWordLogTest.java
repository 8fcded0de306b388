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
 * Proves the word-logged read of a declared read-only OCC transaction ({@code docs/protocol-spi.md},
 * "Word-logged reads"): a read loads the item's word, then its value, and logs the pair; the word's
 * second load, the one that makes the pair a seqlock read, is the commit's validation. One thread
 * commits two transactions, the first writing 1 and the second 2 to items {@code x} and
 * {@code y}; a concurrent read-only transaction reads {@code y} then {@code x} and reports the
 * pair once it has committed (two commits: a read may date its value by a word one or two
 * versions old). A mismatched committed pair
 * means a value newer than its logged word (installed between the two loads of a read) passed
 * validation, or the value loads were not ordered before the validating word loads.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t TornPairWordLogTest}
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The reader serialized before both writers.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The reader serialized between the writers.")
@Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "The reader serialized after both writers.")
@Outcome(id = {"0, 1", "1, 0", "0, 2", "2, 0", "1, 2", "2, 1"}, expect = FORBIDDEN,
        desc = "Torn read committed: the pair mixes two committed states.")
@Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
@State
public class TornPairWordLogTest {
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    @Actor
    public void writer() {
        Txns.writeBoth(x, y, 1);
        Txns.writeBoth(x, y, 2);
    }

    @Actor
    public void reader(JJ_Result r) {
        long[] pair = Txns.readOnlyCommitted(y, x);
        r.r1 = pair[1];
        r.r2 = pair[0];
    }
}
