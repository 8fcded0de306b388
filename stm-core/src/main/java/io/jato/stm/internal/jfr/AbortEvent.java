package io.jato.stm.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code io.jato.Abort}: one attempt of a transaction rolled back, for any cause (a
 * conflict found by a read or the commit, the body's {@code txn.abort()} or exception, an internal
 * failure). Enabled by default in a recording, without a stack trace; under heavy contention it
 * is as frequent as the aborts themselves, so a long recording of a contended store may want it
 * off ({@code docs/observability.md}).
 */
@Name("io.jato.Abort")
@Label("Transaction Abort")
@Category({"Jato", "Transactions"})
@Description("One attempt of a transaction rolled back, with its cause")
@StackTrace(false)
public final class AbortEvent extends StoreEvent {
    @Label("Cause")
    @Description("Why the attempt rolled back (io.jato.stm.AbortCause)")
    String cause;

    @Label("Attempt")
    @Description("The attempt that rolled back, 1 for the first")
    int attempt;
}
