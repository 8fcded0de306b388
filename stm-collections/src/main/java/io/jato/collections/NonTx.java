package io.jato.collections;

import io.jato.stm.Stm;

/** Guards for the non-transactional views: they are for loading and set-up, not for use inside a transaction. */
final class NonTx {
    private NonTx() {
    }

    static void checkOutside(Stm stm) {
        if (stm.inTransaction()) {
            throw new IllegalStateException("non-transactional operation called inside a transaction of store '"
                    + stm.name() + "' (or from a commit-time updater, which runs while its transaction commits: "
                    + "it would wait forever for the lock its own commit holds); use the transactional methods "
                    + "with the Txn instead");
        }
    }
}
