package io.jato.jcstress;

import io.jato.protocols.adaptive.AdaptiveControl;
import io.jato.protocols.adaptive.AdaptiveProtocol;
import io.jato.stm.Stm;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;

/**
 * The stores and transaction bodies of the reader-writer lock tests (2PL's lock word, the adaptive
 * lock's mode switch); one store per protocol for the reasons {@link Txns} gives.
 */
final class LockTxns {
    /** 2PL with no-wait: a conflicting lock request aborts at once, so an upgrade race never waits. */
    static final Stm TWO_PL = Stm.builder().protocol("2pl").option("deadlock", "no-wait").name("jcstress-2pl").build();
    /** The adaptive lock with thresholds 4 and 3: one conflict turns an item pessimistic, one quiet event back. */
    static final Stm ADAPTIVE = Stm.builder().protocol(AdaptiveProtocol.NAME).name("jcstress-adaptive")
            .option(AdaptiveProtocol.PESSIMISTIC_AT, 4).option(AdaptiveProtocol.OPTIMISTIC_AT, 3).build();
    static final AdaptiveControl ADAPTIVE_CC = (AdaptiveControl) ADAPTIVE.concurrencyControl();

    private LockTxns() {
    }

    /** Increments {@code x} in one transaction of {@code stm} (read, then write: an upgrade under 2PL); returns what it read. */
    static long increment(Stm stm, LongItem x) {
        return stm.atomic(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            long v = ctx.readLong(x);
            ctx.writeLong(x, v + 1);
            return v;
        });
    }

    /** Reads {@code x} then {@code y} in one transaction of {@code stm}; returns {@code x * 10 + y} once committed. */
    static long readPair(Stm stm, LongItem x, LongItem y) {
        return stm.atomic(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            long a = ctx.readLong(x);
            return a * 10 + ctx.readLong(y);
        });
    }

    /** Writes 1 to both items in one transaction of {@code stm}. */
    static void writePair(Stm stm, LongItem x, LongItem y) {
        stm.run(txn -> {
            TxnContext ctx = TxnContext.of(txn, stm);
            ctx.writeLong(x, 1);
            ctx.writeLong(y, 1);
        });
    }

    /**
     * Reads {@code read}, counts a conflict on it (with this store's thresholds it turns
     * pessimistic after the optimistic read), then writes 1 to {@code write}, in one adaptive
     * transaction; returns what it read.
     */
    static long readSwitchThenWrite(LongItem read, LongItem write) {
        return ADAPTIVE.atomic(txn -> {
            TxnContext ctx = TxnContext.of(txn, ADAPTIVE);
            long seen = ctx.readLong(read);
            ADAPTIVE_CC.recordConflict(read);
            ctx.writeLong(write, 1);
            return seen;
        });
    }

    /** @return true if no lock of either item is held and their words are sane */
    static boolean quiescent(Stm stm, LongItem x, LongItem y) {
        return stm.concurrencyControl().checkQuiescent(x) == null && stm.concurrencyControl().checkQuiescent(y) == null;
    }
}
