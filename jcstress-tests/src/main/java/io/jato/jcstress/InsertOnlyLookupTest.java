package io.jato.jcstress;

import io.jato.collections.TxLong;
import io.jato.collections.TxLongHashMap;
import io.jato.stm.Stm;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that a lookup of an insert-only map that takes no entry ({@code readUnchangingRef}) is
 * ordered after the insert it sees, under OCC and under TicToc. A writer sets {@code x} to 1 and
 * inserts key 1 in one transaction; a reader in a declared read-only transaction reads {@code x},
 * then looks the key up, and reports (x, found) once it has committed. Seeing the key but the old
 * {@code x} means the lookup neither was validated nor ordered the reader after the insert: under
 * OCC a read of a node whose insert was not yet published (locked), under TicToc a commit
 * timestamp below the key's wts.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t InsertOnlyLookupTest}
 */
public final class InsertOnlyLookupTest {
    private InsertOnlyLookupTest() {
    }

    /** One state's objects in one store, and the two actors' transactions over them. */
    static final class Objects {
        private final Stm stm;
        private final TxLong x;
        private final TxLongHashMap<String> map;

        Objects(Stm stm) {
            this.stm = stm;
            this.x = new TxLong(stm, 0);
            this.map = TxLongHashMap.insertOnly(stm, 1);
        }

        /** Writes x = 1 and inserts key 1 in one transaction. */
        void write() {
            stm.run(txn -> {
                x.set(txn, 1);
                map.put(txn, 1, "one");
            });
        }

        /** Reads x, then looks key 1 up, in a declared read-only transaction. */
        void read(JJ_Result r) {
            long[] seen = stm.readOnly(txn -> new long[] {x.get(txn), map.containsKey(txn, 1) ? 1 : 0});
            r.r1 = seen[0];
            r.r2 = seen[1];
        }
    }

    @JCStressTest
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The reader serialized before the writer.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The reader serialized after the writer.")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "The key from after the writer, x from before it.")
    @Outcome(expect = FORBIDDEN, desc = "x from after the writer and no key, or a value nobody wrote.")
    @State
    public static class Occ {
        private final Objects o = new Objects(Txns.STORE);

        @Actor
        public void writer() {
            o.write();
        }

        @Actor
        public void reader(JJ_Result r) {
            o.read(r);
        }
    }

    /** The same race in the TicToc store. */
    @JCStressTest
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The reader serialized before the writer.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The reader serialized after the writer.")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "The key from after the writer, x from before it.")
    @Outcome(expect = FORBIDDEN, desc = "x from after the writer and no key, or a value nobody wrote.")
    @State
    public static class TicToc {
        private final Objects o = new Objects(TicTocTxns.STORE);

        @Actor
        public void writer() {
            o.write();
        }

        @Actor
        public void reader(JJ_Result r) {
            o.read(r);
        }
    }
}
