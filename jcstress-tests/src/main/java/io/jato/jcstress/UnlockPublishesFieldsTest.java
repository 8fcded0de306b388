package io.jato.jcstress;

import io.jato.stm.internal.occ.OccWord;
import io.jato.stm.spi.Items;
import io.jato.stm.spi.TxItem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that the release store of {@code unlockNonTx(changed = true)} also publishes plain
 * writes to a data type's own fields, as a record's field group keeps them (the item holds only
 * the version; see {@link TxItem}). The state holds such an item with two plain fields; the writer
 * takes {@code lockNonTx}, sets both fields to 1 with plain stores and unlocks with a new version.
 * The reader loads the word (acquire) and then both fields plainly, and reports
 * {@code tid, locked, first, second}.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t UnlockPublishesFieldsTest}
 */
@JCStressTest
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "New version, and both fields it publishes.")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "New version visible before a field written under the lock.")
@Outcome(id = "0, [01], [01], [01]", expect = ACCEPTABLE,
        desc = "Old or locked word: the racy field loads may see either value (a reader re-checks the word).")
@Outcome(expect = FORBIDDEN, desc = "A version, lock state or value nobody wrote.")
@State
public class UnlockPublishesFieldsTest {
    /** An item that versions two plain fields of its own, like one field group of a record. */
    static final class Group extends TxItem {
        long first;
        long second;
    }

    private final Group group = new Group();

    @Actor
    public void writer() {
        long lockedWord = Occ.CC.lockNonTx(group);
        group.first = 1;
        group.second = 1;
        Occ.CC.unlockNonTx(group, lockedWord, true, false);
    }

    @Actor
    public void reader(JJJJ_Result r) {
        long w = Items.wordAcquire(group);
        r.r1 = OccWord.tid(w);
        r.r2 = OccWord.isLocked(w) ? 1 : 0;
        r.r3 = group.first;
        r.r4 = group.second;
    }
}
