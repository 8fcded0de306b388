package io.jato.jcstress;

import io.jato.protocols.maat.SoftLocks;
import io.jato.protocols.tictoc.TicTocWord;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.LongItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The Dekker pair under MaaT's soft read locks ({@link SoftLocks}): a reader sets its slot's bit,
 * then loads the item's word (as {@code MaatControl}'s reads do); a writer CASes the word's lock
 * bit, then loads the soft-lock word (as a commit's timestamp step does before it narrows the
 * readers). If the reader saw the item unlocked (it will read the version the writer replaces),
 * the writer must see the reader's bit — else it would not narrow the reader's range and could
 * commit below it. r1 = 1 if the reader saw the word unlocked, r2 = 1 if the writer saw the bit.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t MaatSoftLockVsWriterTest}
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The reader read the old version; the writer saw its soft lock.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The reader saw the lock (it would wait); the writer saw the bit.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The writer locked and scanned first; the reader saw the lock.")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "The reader read the old version and the writer missed its soft lock.")
@State
public class MaatSoftLockVsWriterTest {
    private static final long BIT = 1L << 5;

    private final LongItem x = new LongItem(0);
    private final SoftLocks locks = SoftLocks.of(x);

    @Actor
    public void reader(II_Result r) {
        locks.lockRead(BIT);
        r.r1 = TicTocWord.isLocked(Items.wordVolatile(x)) ? 0 : 1;
    }

    @Actor
    public void writer(II_Result r) {
        long w = Items.wordVolatile(x);
        r.r2 = Items.casWord(x, w, w | TicTocWord.LOCKED) && (locks.readers() & BIT) != 0 ? 1 : 0;
    }
}
