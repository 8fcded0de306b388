package io.jato.jcstress;

import io.jato.stm.internal.MixedClock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves the two properties of the spanning-commit clock that the mixed-protocol argument
 * ({@code docs/mixed-protocols.md}) rests on: two commits never get the same value, and each gets
 * at least what its timestamp-ordered protocols proposed. The first actor proposes 5, the second
 * nothing; whichever CAS wins first, the values differ and the first is at least 5.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t MixedClockTest}
 */
@JCStressTest
@Outcome(id = "5, 6", expect = ACCEPTABLE, desc = "The proposing commit took the clock first.")
@Outcome(id = "5, 1", expect = ACCEPTABLE, desc = "The other commit took the clock first.")
@Outcome(expect = FORBIDDEN, desc = "A repeated value or one below the proposal: spanning commits could tie or go back.")
@State
public class MixedClockTest {
    private final MixedClock clock = new MixedClock();

    @Actor
    public void proposing(JJ_Result r) {
        r.r1 = clock.next(5);
    }

    @Actor
    public void other(JJ_Result r) {
        r.r2 = clock.next(0);
    }
}
