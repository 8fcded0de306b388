package io.jato.jcstress;

import io.jato.stm.Stm;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;

/** The TicToc store of the TicToc tests and their transaction bodies (see {@link Txns} for why one store). */
final class TicTocTxns {
    /** A store running cc-protocols' TicToc (serializable), found by name like any user would. */
    static final Stm STORE = Stm.builder().protocol("tictoc").name("jcstress-tictoc").build();

    private TicTocTxns() {
    }

    /**
     * Reads {@code read}, then writes 1 to {@code write}, in one transaction (retried until it
     * commits); returns the value of {@code read} the committed attempt saw.
     */
    static long readThenWrite(LongItem read, LongItem write) {
        return STORE.atomic(txn -> {
            TxnContext ctx = TxnContext.of(txn, STORE);
            long seen = ctx.readLong(read);
            ctx.writeLong(write, 1);
            return seen;
        });
    }
}
