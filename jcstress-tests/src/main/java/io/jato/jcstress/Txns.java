package io.jato.jcstress;

import io.jato.stm.Stm;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;

/** Transaction bodies shared by the transaction-level tests, written against the data-type SPI. */
final class Txns {
    private Txns() {
    }

    /** Reads {@code x} then {@code y} in one transaction; returns them only if it commits. */
    static long[] readCommitted(Stm stm, LongItem x, LongItem y) {
        return stm.atomic(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            long a = ctx.readLong(x);
            long b = ctx.readLong(y);
            return new long[] {a, b};
        });
    }

    /** Adds one to {@code x} in one transaction (a read and a write: no commit-time add). */
    static void increment(Stm stm, LongItem x) {
        stm.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            long v = ctx.readLong(x);
            ctx.writeLong(x, v + 1);
        });
    }

    /** Writes {@code value} to both items in one transaction. */
    static void writeBoth(Stm stm, LongItem x, LongItem y, long value) {
        stm.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            ctx.writeLong(x, value);
            ctx.writeLong(y, value);
        });
    }
}
