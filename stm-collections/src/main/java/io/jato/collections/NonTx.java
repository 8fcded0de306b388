package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;

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

    /** Runs {@code body} as a transaction of its own, for a single operation (refused inside a transaction). */
    static <T> T atomic(Stm stm, TxnFunction<T> body) {
        checkOutside(stm);
        return stm.atomic(body);
    }

    /** {@link #atomic} declared read-only. */
    static <T> T readOnly(Stm stm, TxnFunction<T> body) {
        checkOutside(stm);
        return stm.readOnly(body);
    }
}
