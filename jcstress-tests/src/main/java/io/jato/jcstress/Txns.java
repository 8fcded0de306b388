package io.jato.jcstress;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;

/**
 * The store and the transaction bodies of the transaction-level tests, written against the
 * data-type SPI ({@link TxnContext#readLong}, {@link TxnContext#writeLong}) as a data type would.
 */
final class Txns {
    /**
     * The store every transaction-level test uses; each state gets fresh items, so states do not
     * interact. Not a store per state: every store gives each actor thread its own pre-sized
     * transaction context on first use, and jcstress creates states by the million, so a store per
     * state would measure context set-up and garbage collection instead of the race under test.
     */
    static final Stm STORE = Stm.create();

    private Txns() {
    }

    /** Reads {@code x} then {@code y} in one transaction; returns them only once it has committed. */
    static long[] readCommitted(LongItem x, LongItem y) {
        return STORE.atomic(txn -> readPair(txn, x, y));
    }

    /**
     * As {@link #readCommitted}, in a declared read-only transaction: under OCC its reads are
     * word-logged (one load of the word before the value's, the second at commit).
     */
    static long[] readOnlyCommitted(LongItem x, LongItem y) {
        return STORE.readOnly(txn -> readPair(txn, x, y));
    }

    /** Reads {@code x} then {@code y} in {@code txn}, a transaction of {@link #STORE}. */
    private static long[] readPair(Txn txn, LongItem x, LongItem y) {
        TxnContext ctx = TxnContext.of(txn, STORE);
        long a = ctx.readLong(x);
        long b = ctx.readLong(y);
        return new long[] {a, b};
    }

    /** Writes {@code value} to both items in one transaction. */
    static void writeBoth(LongItem x, LongItem y, long value) {
        writeBoth(STORE, x, y, value);
    }

    /** Writes {@code value} to both items in one transaction of {@code store}. */
    static void writeBoth(Stm store, LongItem x, LongItem y, long value) {
        store.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, store);
            ctx.writeLong(x, value);
            ctx.writeLong(y, value);
        });
    }

    /** Adds one to {@code x} in one transaction: a read, then a write of the read value + 1. */
    static void increment(LongItem x) {
        STORE.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, STORE);
            long v = ctx.readLong(x);
            ctx.writeLong(x, v + 1);
        });
    }
}
