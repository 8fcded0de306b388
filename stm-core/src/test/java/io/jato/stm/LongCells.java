package io.jato.stm;

import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;

/** Reads and writes of bare long items through the SPI, for the core's tests (no data types here). */
final class LongCells {
    private LongCells() {
    }

    static long read(Stm stm, Txn txn, LongItem item) {
        return TxnContext.of(txn, stm).readLong(item);
    }

    static void write(Stm stm, Txn txn, LongItem item, long v) {
        TxnContext.of(txn, stm).writeLong(item, v);
    }
}
