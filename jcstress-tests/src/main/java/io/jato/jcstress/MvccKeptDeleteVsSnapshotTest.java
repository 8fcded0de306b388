package io.jato.jcstress;

import io.jato.collections.TxLongHashMap;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * MVCC's kept deletes against a snapshot. A map holds key 1. One transaction removes key 1 and
 * inserts key 2; the same thread then begins a snapshot, and finishing it unlinks every kept delete
 * at or below the horizon (the delete of key 1 among them, once no snapshot can need it). A reader
 * looks both keys up at its snapshot. It must see the map before the transaction (1 present, 2
 * absent) or after it (1 absent, 2 present): "both absent" means key 1's node was unlinked while
 * a snapshot below the delete still needed it, "both present" a torn snapshot.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t MvccKeptDeleteVsSnapshotTest}
 */
@JCStressTest
@Outcome(id = {"1, 0", "0, 1"}, expect = ACCEPTABLE, desc = "The map before or after the transaction.")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "The delete was unlinked under a snapshot that needed it.")
@Outcome(expect = FORBIDDEN, desc = "Torn snapshot.")
@State
public class MvccKeptDeleteVsSnapshotTest {
    private final TxLongHashMap<Long> map = new TxLongHashMap<>(MvccTxns.STORE, 4);

    public MvccKeptDeleteVsSnapshotTest() {
        MvccTxns.STORE.run(txn -> {
            map.put(txn, 1, 1L);
        });
    }

    @Actor
    public void deleter() {
        MvccTxns.STORE.run(txn -> {
            map.remove(txn, 1);
            map.put(txn, 2, 2L);
        });
        MvccTxns.emptySnapshot();
    }

    @Actor
    public void reader(II_Result r) {
        int[] seen = MvccTxns.STORE.readOnly(txn -> new int[] {
            map.get(txn, 1) == null ? 0 : 1, map.get(txn, 2) == null ? 0 : 1});
        r.r1 = seen[0];
        r.r2 = seen[1];
    }
}
