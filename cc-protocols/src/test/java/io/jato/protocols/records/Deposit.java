package io.jato.protocols.records;

import io.jato.records.Commutative;

/** Adds to the balance and counts the operation: order-insensitive. */
@Commutative(record = AccountSpec.class, group = "hot")
public final class Deposit implements Account.Updater {
    private final long amount;

    public Deposit(long amount) {
        this.amount = amount;
    }

    @Override
    public void apply(Account.Image r) {
        r.setBalance(r.balance() + amount);
        r.setOps(r.ops() + 1);
    }
}
