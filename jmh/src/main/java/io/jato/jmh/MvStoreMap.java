package io.jato.jmh;

import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.tx.Transaction;
import org.h2.mvstore.tx.TransactionMap;
import org.h2.mvstore.tx.TransactionStore;

/**
 * One {@code TransactionMap<Long, Long>} of H2's MVStore, in memory, and the transaction loop
 * MVStore leaves to its user ({@link MvStorePeer} says how the benchmarks use it).
 *
 * <p>The store is {@code new MVStore.Builder().open()} (no file name: in memory) with a
 * {@code new TransactionStore(store)}, whose transactions ({@link TransactionStore#begin()}) are
 * READ COMMITTED and do not wait for a row lock (timeout 0). {@link #run} runs one operation as one
 * transaction: {@code begin()}, the body on {@link TransactionMap#getInstance} of the map opened at
 * set-up (what {@code Transaction.openMap(name)} returns, without the lookup by name),
 * {@code commit()}. A {@code put} or {@code lock} of a row that another open transaction has
 * written throws an {@link MVStoreException} with error code
 * {@link DataUtils#ERROR_TRANSACTION_LOCKED} (with a lock timeout it would wait instead, and could
 * throw {@link DataUtils#ERROR_TRANSACTIONS_DEADLOCK}); {@link #run} then rolls the transaction back
 * and runs the body again in a new one, the retry loop an STM runs for its user.
 */
final class MvStoreMap implements AutoCloseable {
    /** A transaction's body: operations on this transaction's view of the map. */
    interface Body {
        void run(TransactionMap<Long, Long> map);
    }

    private final MVStore store;
    private final TransactionStore transactions;
    private final TransactionMap<Long, Long> map;

    /** Opens the store and loads {@code keys[i] -> values[i]} in one committed transaction. */
    MvStoreMap(Long[] keys, Long[] values) {
        store = new MVStore.Builder().open();
        transactions = new TransactionStore(store);
        transactions.init();
        Transaction tx = transactions.begin();
        map = tx.openMap("peer");
        for (int i = 0; i < keys.length; i++) {
            map.put(keys[i], values[i]);
        }
        tx.commit();
    }

    /**
     * Runs {@code body} in a new transaction and commits it; after a write conflict, rolls back and
     * runs it again in another.
     *
     * @return how many attempts failed on a conflict before the one that committed
     */
    int run(Body body) {
        for (int failed = 0;; failed++) {
            Transaction tx = transactions.begin();
            try {
                body.run(map.getInstance(tx));
                tx.commit();
                return failed;
            } catch (MVStoreException e) {
                tx.rollback();
                int code = e.getErrorCode();
                if (code != DataUtils.ERROR_TRANSACTION_LOCKED && code != DataUtils.ERROR_TRANSACTIONS_DEADLOCK) {
                    throw e;
                }
                Thread.onSpinWait();
            }
        }
    }

    /** @return the sum of the committed values of {@code keys}, read in one transaction */
    long sum(Long[] keys) {
        long[] sum = new long[1];
        run(m -> {
            long s = 0;
            for (Long k : keys) {
                s += m.get(k);
            }
            sum[0] = s;
        });
        return sum[0];
    }

    /** @return null if no transaction is left open, else what is open */
    String checkQuiescent() {
        int open = transactions.getOpenTransactions().size();
        return open == 0 ? null : open + " MVStore transactions left open";
    }

    @Override
    public void close() {
        transactions.close();
        store.close();
    }
}
