package io.jato.stm.internal.jfr;

import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;

/** The fields every Jato event carries: which store, protocol and transaction type it concerns. */
public abstract class StoreEvent extends Event {
    @Label("Store")
    @Description("The store's name (Stm.name())")
    String store;

    @Label("Protocol")
    @Description("The store's concurrency control (several joined by '+' in a store mixing protocols)")
    String protocol;

    @Label("Transaction Type")
    @Description("The type given at atomic(type, ...), or 'untyped'")
    String transactionType;
}
