package io.jato.stm.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * JFR event {@code io.jato.Transaction}: a transaction from the start of its first attempt to its
 * end (commit, or the exception it ends with), retries and backoff included, recorded when it took
 * at least the threshold: 10 ms by default, so by default only long transactions appear. A
 * threshold of 0 records every transaction, at a cost of one event per transaction.
 */
@Name("io.jato.Transaction")
@Label("Transaction")
@Category({"Jato", "Transactions"})
@Description("A transaction, retries included; by default only those of 10 ms or more")
@Threshold("10 ms")
@StackTrace(false)
public final class TransactionEvent extends StoreEvent {
    @Label("Attempts")
    @Description("Attempts it took, 1 if the first committed")
    int attempts;

    @Label("Outcome")
    @Description("committed, user-abort (txn.abort()), exception (the body's or an internal failure, rethrown)"
            + " or gave-up (maxAttempts)")
    String outcome;

    @Label("Read-Only")
    @Description("Declared read-only (Stm.readOnly)")
    boolean readOnly;
}
