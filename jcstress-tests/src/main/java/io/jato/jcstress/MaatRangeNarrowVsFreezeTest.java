package io.jato.jcstress;

import io.jato.protocols.maat.MaatRange;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * MaaT's range word ({@link MaatRange}): a committing writer narrows a reader's open range to 3
 * (it will commit at 4) while the reader freezes its commit timestamp at 5. Exactly one comes
 * first: either the freeze fails (the range [5, 3] is empty), or the writer sees the frozen 5 and
 * must go above it. Both succeeding would let the reader commit at 5 after the writer at 4
 * replaced what the reader read. r1 = the writer's result (-1 narrowed, else the frozen
 * timestamp), r2 = 1 if the freeze succeeded, r3 = the word's value afterwards.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t MaatRangeNarrowVsFreezeTest}
 */
@JCStressTest
@Outcome(id = "-1, 0, 3", expect = ACCEPTABLE, desc = "Narrowed first: the reader's range is empty, its freeze fails.")
@Outcome(id = "5, 1, 5", expect = ACCEPTABLE, desc = "Frozen first: the writer sees 5 and orders itself above it.")
@Outcome(id = "-1, 1, .*", expect = FORBIDDEN, desc = "Both first: the reader committed above the writer's limit.")
@Outcome(expect = FORBIDDEN, desc = "No interleaving produces this.")
@State
public class MaatRangeNarrowVsFreezeTest {
    private final MaatRange range = new MaatRange();

    @Actor
    public void writer(JJJ_Result r) {
        r.r1 = range.narrow(3);
    }

    @Actor
    public void reader(JJJ_Result r) {
        r.r2 = range.freeze(5) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(JJJ_Result r) {
        r.r3 = range.upper();
    }
}
