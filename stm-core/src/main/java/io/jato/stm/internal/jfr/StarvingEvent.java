package io.jato.stm.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event {@code io.jato.Starving}: a transaction still retrying after 16 aborted attempts, and
 * again after 64, 256, 1024, ...: a starving transaction shows up while it starves, not only once
 * it ends ({@link TransactionEvent}). Enabled by default, with the stack trace of the thread (where
 * the starving transaction was started).
 */
@Name("io.jato.Starving")
@Label("Starving Transaction")
@Category({"Jato", "Transactions"})
@Description("A transaction still retrying after 16, 64, 256, ... aborted attempts")
@StackTrace(true)
public final class StarvingEvent extends StoreEvent {
    @Label("Aborted Attempts")
    int abortedAttempts;

    @Label("Last Cause")
    @Description("The cause of the latest abort")
    String lastCause;

    @Label("Retrying For")
    @Description("Time since its first abort")
    @Timespan(Timespan.NANOSECONDS)
    long retryingFor;
}
