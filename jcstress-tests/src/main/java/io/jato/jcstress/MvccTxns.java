package io.jato.jcstress;

import io.jato.stm.Stm;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxnContext;

/**
 * The {@code mvcc} store of the MVCC tests and their transaction bodies (one store for every state,
 * as {@link Txns} explains), written against the data-type SPI as a data type would.
 */
final class MvccTxns {
    /** A store running cc-protocols' MVCC, found by name like any user would. */
    static final Stm STORE = Stm.builder().protocol("mvcc").name("jcstress-mvcc").build();

    private MvccTxns() {
    }

    /** Reads {@code x} then {@code y} in a declared read-only transaction: a snapshot under mvcc. */
    static long[] readSnapshot(LongItem x, LongItem y) {
        return STORE.readOnly(txn -> {
            TxnContext ctx = TxnContext.of(txn, STORE);
            long a = ctx.readLong(x);
            long b = ctx.readLong(y);
            return new long[] {a, b};
        });
    }

    /**
     * Runs a declared read-only transaction that reads nothing: its begin advances the store's
     * bounds (the horizon among them), and its end unlinks the thread's kept deletes the horizon
     * has passed.
     */
    static void emptySnapshot() {
        STORE.readOnly(txn -> 0);
    }

    /**
     * Reads {@code x} then {@code y} in a declared read-only transaction, as {@link #readSnapshot}
     * does for long items; a reference item with no version visible at the snapshot reads as -1.
     */
    static long[] readSnapshotRefs(RefItem x, RefItem y) {
        return STORE.readOnly(txn -> {
            TxnContext ctx = TxnContext.of(txn, STORE);
            Object a = ctx.readRef(x);
            Object b = ctx.readRef(y);
            return new long[] {a instanceof Long ? (Long) a : -1, b instanceof Long ? (Long) b : -1};
        });
    }

    /** Writes {@code value} to both reference items in one transaction (a new version of each). */
    static void writeBothRefs(RefItem x, RefItem y, long value) {
        Long boxed = value;
        STORE.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, STORE);
            ctx.writeRef(x, boxed);
            ctx.writeRef(y, boxed);
        });
    }

    /** Writes {@code value} to both items in one transaction (a new version of each). */
    static void writeBoth(LongItem x, LongItem y, long value) {
        Txns.writeBoth(STORE, x, y, value);
    }

    /** Adds {@code delta} to both items in one transaction, reading neither: two delta versions. */
    static void addBoth(LongItem x, LongItem y, long delta) {
        STORE.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, STORE);
            ctx.addLong(x, delta);
            ctx.addLong(y, delta);
        });
    }
}
