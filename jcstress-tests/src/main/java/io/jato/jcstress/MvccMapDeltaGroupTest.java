package io.jato.jcstress;

import io.jato.collections.CommutativeUpdater;
import io.jato.collections.TxLongHashMap;
import io.jato.stm.Stm;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * MVCC's delta versions of map values (option {@code updaterDeltas}): two transactions each apply a commutative +1 to keys 1 and
 * 2 of a map without reading them (each update opens or joins the key's delta group, applies its
 * updater to the group's running result under the group's token and leaves; the last member
 * stores the result); the second actor first reads both keys in a snapshot, while the first
 * actor's updates may be in an open group. The snapshot must see the first actor's updates in
 * both keys or in neither (the base with the updaters committed at or below its timestamp), and
 * both actors' updates must end up in place. r1, r2 = the snapshot's values; r3, r4 = the values
 * at the end.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t MvccMapDeltaGroupTest}
 */
@JCStressTest
@Outcome(id = {"0, 0, 2, 2", "1, 1, 2, 2"}, expect = ACCEPTABLE,
        desc = "The snapshot is before or after the first actor's updates, in both keys.")
@Outcome(id = {"0, 1, .*", "1, 0, .*"}, expect = FORBIDDEN,
        desc = "Torn snapshot: a delta counted in one key and not the other.")
@Outcome(expect = FORBIDDEN, desc = "An update lost or applied twice.")
@State
public class MvccMapDeltaGroupTest {
    private static final CommutativeUpdater<Long> PLUS_ONE = v -> v + 1;

    /** An mvcc store whose map updaters become delta versions (the option is off by default). */
    private static final Stm STORE = Stm.builder().protocol("mvcc").name("jcstress-mvcc-updater-deltas")
            .option("updaterDeltas", true).build();

    private final TxLongHashMap<Long> map = new TxLongHashMap<>(STORE, 4);

    public MvccMapDeltaGroupTest() {
        STORE.run(txn -> {
            map.put(txn, 1, 0L);
            map.put(txn, 2, 0L);
        });
    }

    private void updateBoth() {
        STORE.run(txn -> {
            map.update(txn, 1, PLUS_ONE);
            map.update(txn, 2, PLUS_ONE);
        });
    }

    @Actor
    public void updater1() {
        updateBoth();
    }

    @Actor
    public void snapshotThenUpdater2(JJJJ_Result r) {
        long[] pair = STORE.readOnly(txn -> new long[] {map.get(txn, 1), map.get(txn, 2)});
        r.r1 = pair[0];
        r.r2 = pair[1];
        updateBoth();
    }

    @Arbiter
    public void arbiter(JJJJ_Result r) {
        r.r3 = map.single().get(1);
        r.r4 = map.single().get(2);
    }
}
