package io.jato.collections;

import io.jato.stm.Stm;

/** Guards for the non-transactional views: they are for loading and set-up, not for use inside a transaction. */
final class NonTx {
    private NonTx() {
    }

    static void checkOutside(Stm stm) {
        if (stm.inTransaction()) {
            throw new IllegalStateException("non-transactional operation called inside a transaction of store '"
                    + stm.name() + "'; use the transactional methods with the Txn instead");
        }
    }
}
