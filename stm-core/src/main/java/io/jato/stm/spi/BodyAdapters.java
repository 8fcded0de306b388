package io.jato.stm.spi;

import io.jato.stm.Txn;
import io.jato.stm.TxnCallable;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnLongFunction;
import io.jato.stm.TxnRunnable;
import io.jato.stm.TxnType;

/*
 * The primitive and checked transaction forms (Stm.atomicLong, Stm.call) run through the retry
 * loop's two body kinds by way of adapters that each context keeps, one per form, so that they
 * allocate nothing per transaction. An adapter is reused by nested calls on the same context (a
 * nested block, a transaction started by an after-commit hook), so each call saves the adapter's
 * state and puts it back when it returns.
 */

/** The reusable body adapters of one {@link TxnContext}. Owner thread only. */
final class BodyAdapters {
    private final LongBody longBody = new LongBody();
    private final CheckedBody checkedBody = new CheckedBody();

    long executeLong(TxnContext c, TxnType type, TxnLongFunction fn, boolean readOnly) {
        LongBody b = longBody;
        TxnLongFunction savedFn = b.fn;
        long savedResult = b.result;
        b.fn = fn;
        try {
            c.execute(type, null, b, readOnly);
            return b.result;
        } finally {
            b.fn = savedFn;
            b.result = savedResult;
        }
    }

    Object executeChecked(TxnContext c, TxnType type, TxnCallable<?, ?> fn, boolean readOnly) {
        CheckedBody b = checkedBody;
        TxnCallable<?, ?> saved = b.fn;
        b.fn = fn;
        try {
            return c.execute(type, b, null, readOnly);
        } finally {
            b.fn = saved;
        }
    }

    private static final class LongBody implements TxnRunnable {
        TxnLongFunction fn;
        long result;

        @Override
        public void run(Txn txn) {
            result = fn.applyAsLong(txn);
        }
    }

    private static final class CheckedBody implements TxnFunction<Object> {
        TxnCallable<?, ?> fn;

        @Override
        @SuppressWarnings("unchecked")
        public Object apply(Txn txn) {
            // The body's checked exception passes through unchanged: the retry loop rethrows
            // whatever the body threw, and Stm.call declares it.
            return ((TxnCallable<Object, RuntimeException>) fn).call(txn);
        }
    }
}
