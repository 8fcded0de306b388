package io.jato.jcstress;

import io.jato.protocols.tictoc.TicTocProtocol;
import io.jato.protocols.tictoc.TicTocWord;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.ProtocolContext;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IJJ_Result;

import java.util.Map;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The word-level race under {@link TicTocRtsExtensionTest}: on a fresh item ({@code wts = rts = 0})
 * a validator extends the version's rts to 1 ({@link TicTocWord#extendRts}, the code TicToc's
 * commit validation runs) while a writer locks the item, reads its rts and installs a new version
 * at {@code rts + 1} (TicToc's {@code lockNonTx} / {@code unlockNonTx}, the same lock-then-read-rts
 * order as a commit). If the validator reports the old version valid at 1, the writer must have
 * installed above 1; if the writer installed at 1, the validator must have seen it (changed or
 * busy). r1 = the validator's result (0 valid, 1 changed, 2 busy), r2 = the new wts, r3 = the
 * final rts.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t TicTocExtendVsWriteTest}
 */
@JCStressTest
@Outcome(id = "0, 2, 2", expect = ACCEPTABLE, desc = "Extension first: the writer saw rts 1 and installed at 2.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "Write first: the validator found a new version.")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE, desc = "The validator found the item locked by the writer.")
@Outcome(id = {"1, 2, 2", "2, 2, 2"}, expect = ACCEPTABLE_INTERESTING,
        desc = "The extension landed, but the validator then saw the writer's lock or version and gave up"
                + " (a conservative abort); the writer read the extended rts and installed above it.")
@Outcome(id = "0, 1, .*", expect = FORBIDDEN,
        desc = "Both ordered first: the old version was declared valid at 1 and a new one installed at 1.")
@Outcome(expect = FORBIDDEN, desc = "Timestamps no interleaving produces.")
@State
public class TicTocExtendVsWriteTest {
    /** One instance for every state: the operations used keep no state outside the item. */
    static final ConcurrencyControl CC = new TicTocProtocol()
            .create(ProtocolContext.create(new TicTocProtocol(), 40_000_000L, 256, 1024, Map.of()));

    private final LongItem x = new LongItem(0);

    @Actor
    public void validator(IJJ_Result r) {
        r.r1 = TicTocWord.extendRts(x, 0, 1);
    }

    @Actor
    public void writer() {
        long w = CC.lockNonTx(x);
        CC.installLong(x, 1);
        CC.unlockNonTx(x, w, true, false);
    }

    @Arbiter
    public void arbiter(IJJ_Result r) {
        r.r2 = TicTocWord.wts(Items.wordVolatile(x));
        r.r3 = Items.word2Volatile(x);
    }
}
