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
 * Proves that TicToc's rts extension and a writer's install exclude each other (the separate
 * {@code wts}/{@code rts} words of {@code TicTocWord}). Two transactions on fresh items
 * ({@code wts = rts = 0}): T1 reads x and writes y, T2 reads y and writes x. Each commits at
 * timestamp 1, so each must extend the rts of the item it read from 0 to 1 while the other locks
 * that item, reads its rts and installs a new version. If an extension and the install it races
 * both succeeded — the writer reading rts before the extension lands, the extender not seeing the
 * writer's lock — both would commit on the initial values: T1 before T2 (T2 overwrote the x T1
 * read) and T2 before T1 (T1 overwrote the y T2 read), i.e. write skew. The extender CASes rts and
 * then re-reads the word; the writer CASes the word and then reads rts; both volatile, so one sees
 * the other. Transactions retry until they commit; results are the values each committed attempt
 * read, and whether both items are quiescent ({@code rts >= wts}, unlocked).
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t TicTocRtsExtensionTest}
 */
@JCStressTest
@Outcome(id = "0, 1, true", expect = ACCEPTABLE, desc = "T1 serialized first: T2 read T1's y.")
@Outcome(id = "1, 0, true", expect = ACCEPTABLE, desc = "T2 serialized first: T1 read T2's x.")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN,
        desc = "Write skew: the extension of one item's rts and the other's install both took effect.")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "Each read the other's write: no serial order.")
@Outcome(id = ".*, false", expect = FORBIDDEN, desc = "An item was left locked or with rts below wts.")
@State
public class TicTocRtsExtensionTest {
    private final LongItem x = new LongItem(0);
    private final LongItem y = new LongItem(0);

    @Actor
    public void t1(JJZ_Result r) {
        r.r1 = TicTocTxns.readThenWrite(x, y);
    }

    @Actor
    public void t2(JJZ_Result r) {
        r.r2 = TicTocTxns.readThenWrite(y, x);
    }

    @Arbiter
    public void arbiter(JJZ_Result r) {
        r.r3 = TicTocTxns.STORE.concurrencyControl().checkQuiescent(x) == null
                && TicTocTxns.STORE.concurrencyControl().checkQuiescent(y) == null;
    }
}
